// The public face of the transfer wizard: other features import from here only.

export { AlbumMatchCard } from './components/album-match-card';
export { ConnectionPanel, isConnected } from './components/connection-panel';
export { CsvImportButton } from './components/csv-import-button';
export { JobProgressBar } from './components/job-progress-bar';
// The wizard's way of fixing one row and of saying a row has no match, reused by a batch's review.
export { MatchList, noMatchText } from './components/match-list';
export { MatchRowDetails } from './components/match-row-details';
export { isLibraryCollection, PlaylistGrid } from './components/playlist-grid';
export { WizardPage } from './components/wizard-page';
export { openInWizard, takeWizardHandoff, type WizardHandoff } from './open-in-wizard';
export { filterPlaylists } from './playlist-search';
export { takePendingConnect } from './service-connections';
export { importCsv, matchRowsQuery } from './transfer-api';
export { WithPricingLink } from './upgrade-toast';
export {
  acceptReviewRows,
  applyWizardHandoff,
  CREATE_PLAYLIST_REQUIRED,
  chooseServices,
  downloadCsv,
  ensureMatches,
  enterStep,
  goToStep,
  resetWizard,
  retryFailedTransfer,
  runMatching,
  runTransfer,
  selectPlaylist,
} from './wizard-actions';
export { useWizard, useWizardMutating } from './wizard-queries';
export { matchTotal, WIZARD_ERRORS } from './wizard-state';
export { wizardStore } from './wizard-store';
