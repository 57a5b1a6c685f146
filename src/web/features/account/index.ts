// The public face of the account feature: other features import from here only.
export { ACCOUNT_KEY, SAVED_EXPORTS_KEY, TRANSFERS_KEY, USAGE_KEY } from './account-api';
