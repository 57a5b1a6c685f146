// The public face of the transfer wizard: other features import from here only.

// The wizard's way of fixing one row and of saying a row has no match, reused by a batch's review.
export { noMatchText } from './components/match-list';
export { MatchRowDetails } from './components/match-row-details';
export { openInWizard, takeWizardHandoff, type WizardHandoff } from './open-in-wizard';
export { importCsv } from './transfer-api';
