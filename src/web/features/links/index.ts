// The public face of the links feature: pages and other features import from here only.

export { CreateLinkForm } from './create-link-form';
export { LinkCreatedCard } from './link-created-card';
export { LinkList } from './link-list';
export { publicLinkQuery, useSignUpToLink } from './links-api';
export { TargetSummary } from './target-summary';
