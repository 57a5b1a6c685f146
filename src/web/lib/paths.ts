import { PAGE_PATHS } from '../../shared/app-pages';
import type { ServiceId } from '../../shared/services';

/** Every route of the app (spec section 2), so links and redirects cannot drift from the router. */
export const paths = PAGE_PATHS;

export type PathName = keyof typeof paths;
export type AppPath = (typeof paths)[PathName];

/** The transfer wizard's entry with the services chosen on /service-selection. */
export function transferPath(from: ServiceId, to: ServiceId): string {
  const query = new URLSearchParams({ from, to });
  return `${paths.transfer}?${query.toString()}`;
}
