import { ArrowLeft, ArrowRight } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { PlaylistSummary } from '../../shared/api/playlists';
import { EMPTY_PLAYLIST_MESSAGE, FOLLOWED_PLAYLIST_MESSAGE, type JobView } from '../../shared/api/transfer';
import { SERVICE_LABELS } from '../../shared/services';
import { Alert } from '../components/ui/alert';
import { Button, buttonClasses } from '../components/ui/button';
import { Card, CardContent } from '../components/ui/card';
import { Spinner } from '../components/ui/spinner';
import { Switch } from '../components/ui/switch';
import {
  AlbumMatchCard,
  acceptReviewRows,
  applyWizardHandoff,
  CREATE_PLAYLIST_REQUIRED,
  CsvImportButton,
  ensureMatches,
  enterStep,
  goToStep,
  JobProgressBar,
  MatchList,
  matchResults,
  runMatching,
  runTransfer,
  selectPlaylist,
  useWizard,
  WIZARD_ERRORS,
  WithPricingLink,
  WizardPage,
  wizardStore,
} from '../features/transfer';
import { paths } from '../lib/paths';

export default function MatchesPage() {
  const [, navigate] = useLocation();
  // Before the first render, so a handed-over playlist never flashes the "select a playlist" guard.
  useState(applyWizardHandoff);
  const wizard = useWizard();
  const createId = useId();
  const createRequiredId = useId();
  const includeId = useId();
  const includeHelpId = useId();
  const alsoPlaylistId = useId();
  const alsoPlaylistHelpId = useId();
  const [matchJob, setMatchJob] = useState<JobView | null>(null);
  const [transferJob, setTransferJob] = useState<JobView | null>(null);
  const [transferring, setTransferring] = useState(false);
  const attemptedFor = useRef<string | null>(null);

  const playlist = wizard.selectedPlaylist;
  const rows = matchResults(wizard);
  const destinationLabel = wizard.destinationService
    ? SERVICE_LABELS[wizard.destinationService]
    : 'the destination';
  const likedPlace =
    wizard.destinationService === 'apple'
      ? 'favourites in your Apple Music library'
      : `Liked Songs on ${destinationLabel}`;
  const fromLibrary = playlist?.kind === 'liked' || playlist?.kind === 'album';
  const createPlaylistMissing = !fromLibrary && !wizard.createPlaylist;
  const libraryPlace =
    playlist?.kind === 'liked'
      ? `The songs will be saved as ${likedPlace}.`
      : `The album will be saved to your ${destinationLabel} library.`;
  const transferLabel =
    playlist?.kind === 'liked'
      ? 'Save Liked Songs'
      : playlist?.kind === 'album'
        ? 'Save Album'
        : 'Transfer Playlist';

  useEffect(() => {
    enterStep(3);
  }, []);

  // Spec section 2: matches load by themselves when none exist and a playlist is selected (a saved match
  // set comes back from the server; one still matching after a reload is followed again).
  useEffect(() => {
    if (playlist === null || attemptedFor.current === playlist.id) return;
    attemptedFor.current = playlist.id;
    void ensureMatches(setMatchJob);
  }, [playlist]);

  const importInstead = (imported: PlaylistSummary) => {
    attemptedFor.current = null;
    selectPlaylist(imported);
  };

  const transfer = async () => {
    setTransferring(true);
    await runTransfer(setTransferJob, navigate);
    setTransferring(false);
  };

  if (playlist === null)
    return (
      <WizardPage title="Match Songs" description="See how each track matches before you transfer." step={3}>
        <Alert variant="destructive">{WIZARD_ERRORS.playlistRequired}</Alert>
        <Link href={paths.playlists} className={buttonClasses('outline', 'md', 'mt-6')}>
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          Back to playlists
        </Link>
      </WizardPage>
    );

  const matching =
    !transferring && (wizard.matchSet?.status === 'matching' || (wizard.loading && rows.length === 0));
  const summary = {
    accepted: rows.filter((row) => row.status === 'accepted').length,
    review: rows.filter((row) => row.status === 'review').length,
    unmatched: rows.filter((row) => row.status === 'unmatched').length,
    skipped: rows.filter((row) => row.status === 'skipped').length,
  };

  return (
    <WizardPage
      title="Match Songs"
      description={`How “${playlist.name}” matches in ${destinationLabel}. Open a track to choose another match, search by hand or skip it.`}
      step={3}
    >
      <div className="grid gap-6">
        {wizard.error ? (
          <Alert variant="destructive">
            <p>
              <WithPricingLink message={wizard.error} />
            </p>
            {wizard.error === FOLLOWED_PLAYLIST_MESSAGE ? (
              // Retrying can never read someone else's playlist: the way forward is a file import.
              <div className="mt-3">
                <CsvImportButton onImported={importInstead} />
              </div>
            ) : rows.length === 0 && !wizard.loading ? (
              <Button
                variant="outline"
                size="sm"
                className="mt-2"
                onClick={() => void runMatching(setMatchJob)}
              >
                Try matching again
              </Button>
            ) : null}
          </Alert>
        ) : null}
        {matching ? (
          <JobProgressBar label="Matching tracks" view={matchJob} waitingFor={destinationLabel} />
        ) : null}
        {wizard.loading && !matching && !transferring && rows.length === 0 ? (
          <Spinner label="Loading matches" />
        ) : null}
        {wizard.matchSet?.status === 'ready' && rows.length === 0 ? (
          <Alert>
            <p>{EMPTY_PLAYLIST_MESSAGE}</p>
            <Link href={paths.playlists} className={buttonClasses('outline', 'sm', 'mt-3')}>
              <ArrowLeft aria-hidden="true" className="h-4 w-4" />
              Pick another playlist
            </Link>
          </Alert>
        ) : null}
        {rows.length > 0 ? (
          <>
            {wizard.matchSet?.albumMatch ? (
              <AlbumMatchCard match={wizard.matchSet.albumMatch} destinationLabel={destinationLabel} />
            ) : null}
            <p className="text-sm text-slate-700" aria-live="polite">
              {rows.length} tracks: {summary.accepted} accepted, {summary.review} to review,{' '}
              {summary.unmatched} unmatched, {summary.skipped} skipped.
            </p>
            {summary.review > 0 ? (
              <Alert>
                <p>
                  {summary.review === 1 ? '1 match is' : `${summary.review} matches are`} waiting for your
                  review: likely the same song, but not certain. They are not added until you accept them
                  (open a track to check it).
                </p>
                <Button variant="outline" size="sm" className="mt-2" onClick={() => void acceptReviewRows()}>
                  Accept all {summary.review} in review
                </Button>
              </Alert>
            ) : null}
            <MatchList rows={rows} destinationLabel={destinationLabel} />
            <Card>
              <CardContent className="grid gap-4 pt-5 sm:pt-6">
                {fromLibrary ? (
                  // Liked Songs and albums are saved to the library, not to a new playlist (issue 14).
                  <p className="text-sm text-slate-700">{libraryPlace}</p>
                ) : (
                  <>
                    <div className="flex items-center gap-3">
                      <Switch
                        id={createId}
                        checked={wizard.createPlaylist}
                        onCheckedChange={(checked) => wizardStore.update({ createPlaylist: checked })}
                        aria-required="true"
                      />
                      <label htmlFor={createId} className="text-sm font-medium text-slate-900">
                        Create playlist in destination <span className="text-slate-600">(required)</span>
                      </label>
                    </div>
                    {wizard.createPlaylist ? null : (
                      <p id={createRequiredId} role="alert" className="text-sm font-medium text-red-700">
                        {CREATE_PLAYLIST_REQUIRED.description}
                      </p>
                    )}
                  </>
                )}
                <div className="flex items-start gap-3">
                  <input
                    id={includeId}
                    type="checkbox"
                    checked={wizard.includeUnmatched}
                    onChange={(event) => wizardStore.update({ includeUnmatched: event.target.checked })}
                    aria-describedby={includeHelpId}
                    className="mt-0.5 h-5 w-5 accent-violet-700"
                  />
                  <div className="grid gap-1">
                    <label htmlFor={includeId} className="text-sm font-medium text-slate-900">
                      Include unmatched tracks
                    </label>
                    <p id={includeHelpId} className="text-sm text-slate-600">
                      Adds the closest candidate for tracks without a confident match. They may be a different
                      version or a different song, so check them afterwards.
                    </p>
                  </div>
                </div>
                {playlist.kind === 'liked' ? (
                  <div className="flex items-start gap-3">
                    <input
                      id={alsoPlaylistId}
                      type="checkbox"
                      checked={wizard.alsoAddToPlaylist}
                      onChange={(event) => wizardStore.update({ alsoAddToPlaylist: event.target.checked })}
                      aria-describedby={alsoPlaylistHelpId}
                      className="mt-0.5 h-5 w-5 accent-violet-700"
                    />
                    <div className="grid gap-1">
                      <label htmlFor={alsoPlaylistId} className="text-sm font-medium text-slate-900">
                        Also add them to a playlist
                      </label>
                      <p id={alsoPlaylistHelpId} className="text-sm text-slate-600">
                        The songs are saved as {likedPlace}; with this, they also go to a new playlist.
                      </p>
                    </div>
                  </div>
                ) : null}
              </CardContent>
            </Card>
          </>
        ) : null}
        {transferring ? (
          <JobProgressBar
            label={fromLibrary ? 'Saving to your library' : 'Transferring playlist'}
            view={transferJob}
            waitingFor={destinationLabel}
          />
        ) : null}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
          <Button variant="outline" onClick={() => goToStep(2, navigate)} disabled={transferring}>
            <ArrowLeft aria-hidden="true" className="h-4 w-4" />
            Back
          </Button>
          <Button
            onClick={() => void transfer()}
            // Spec section 2 step 3: the button is disabled while "Create playlist in destination" is off.
            disabled={wizard.loading || transferring || rows.length === 0 || createPlaylistMissing}
            aria-describedby={createPlaylistMissing ? createRequiredId : undefined}
          >
            {transferring ? 'Transferring…' : transferLabel}
            <ArrowRight aria-hidden="true" className="h-4 w-4" />
          </Button>
        </div>
      </div>
    </WizardPage>
  );
}
