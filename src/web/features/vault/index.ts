// The public face of the vault feature: pages and other features import from here only.
export { BackupList } from './backup-list';
export { BackupNow } from './backup-now';
export { VaultOffer } from './vault-offer';
