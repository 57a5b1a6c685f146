// The public face of the account feature: pages and other features import from here only.
export { ACCOUNT_KEY, SAVED_EXPORTS_KEY, TRANSFERS_KEY, USAGE_KEY, useAccountProfile } from './account-api';
export { Article, type ArticleSection } from './components/article';
export { ConnectionsCard } from './components/connections-card';
export { PlanUsageCard } from './components/plan-usage-card';
export { ProfileCard } from './components/profile-card';
export { PublicProfileCard } from './components/public-profile-card';
export { SavedDataCard } from './components/saved-data-card';
export { SignOutButton } from './components/sign-out-button';
export { TransferHistoryCard } from './components/transfer-history-card';
export { YourDataCard } from './components/your-data-card';
export { useConnectionAnnouncement } from './use-connection-announcement';
