const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * True when `value` can be looked up in a `uuid` column. PostgreSQL refuses any other text there with an
 * error (a 500), so an id taken from a URL is checked first and an impossible one reads as "not found".
 */
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
