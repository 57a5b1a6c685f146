// The public face of syncs: other features and pages import from here only.
export { NewSyncForm } from './new-sync-form';
export { SyncList } from './sync-list';
export { SYNCS_KEY, syncRunsQuery, syncsQuery } from './syncs-api';
export { SyncsCard } from './syncs-card';
