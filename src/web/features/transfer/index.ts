// The public face of the transfer wizard: other features import from here only.

export { openInWizard, takeWizardHandoff, type WizardHandoff } from './open-in-wizard';
export { importCsv } from './transfer-api';
