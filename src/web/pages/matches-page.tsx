import { ArrowLeft, ArrowRight } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { PlaylistSummary } from '../../shared/api/playlists';
import {
  EMPTY_PLAYLIST_MESSAGE,
  FOLLOWED_PLAYLIST_MESSAGE,
  type JobView,
  type MatchSummary as MatchCounts,
} from '../../shared/api/transfer';
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
  matchTotal,
  runMatching,
  runTransfer,
  selectPlaylist,
  useWizard,
  useWizardMutating,
  WIZARD_ERRORS,
  WithPricingLink,
  WizardPage,
  wizardStore,
} from '../features/transfer';
import { paths } from '../lib/paths';

type Wizard = ReturnType<typeof useWizard>;

/** What the wizard's destination is called, and where a library collection ends up there. */
function destinationTexts(wizard: Wizard) {
  const playlist = wizard.selectedPlaylist;
  const destinationLabel = wizard.destinationService
    ? SERVICE_LABELS[wizard.destinationService]
    : 'the destination';
  const likedPlace =
    wizard.destinationService === 'apple'
      ? 'favourites in your Apple Music library'
      : `Liked Songs on ${destinationLabel}`;
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
  return { destinationLabel, likedPlace, libraryPlace, transferLabel };
}

/** The wizard's error, with the way forward it allows: a file import, or matching again. */
function MatchErrorAlert({
  error,
  canRetry,
  onImported,
  onRetry,
}: {
  error: string;
  canRetry: boolean;
  onImported: (imported: PlaylistSummary) => void;
  onRetry: () => void;
}) {
  return (
    <Alert variant="destructive">
      <p>
        <WithPricingLink message={error} />
      </p>
      {error === FOLLOWED_PLAYLIST_MESSAGE ? (
        // Retrying can never read someone else's playlist: the way forward is a file import.
        <div className="mt-3">
          <CsvImportButton onImported={onImported} />
        </div>
      ) : canRetry ? (
        <Button variant="outline" size="sm" className="mt-2" onClick={onRetry}>
          Try matching again
        </Button>
      ) : null}
    </Alert>
  );
}

/** The counts of each match status (the server's, over the whole set), and the offer to accept the review. */
function MatchSummary({ summary }: { summary: MatchCounts }) {
  return (
    <>
      <p className="text-sm text-slate-700" aria-live="polite">
        {summary.total} tracks: {summary.accepted} accepted, {summary.review} to review, {summary.unmatched}{' '}
        unmatched, {summary.skipped} skipped.
      </p>
      {summary.review > 0 ? (
        <Alert>
          <p>
            {summary.review === 1 ? '1 match is' : `${summary.review} matches are`} waiting for your review:
            likely the same song, but not certain. They are not added until you accept them (open a track to
            check it).
          </p>
          <Button variant="outline" size="sm" className="mt-2" onClick={() => void acceptReviewRows()}>
            Accept all {summary.review} in review
          </Button>
        </Alert>
      ) : null}
    </>
  );
}

/** A labelled checkbox with a line of help below its label. */
function CheckboxOption({
  checked,
  onChange,
  label,
  help,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  help: ReactNode;
}) {
  const id = useId();
  const helpId = useId();
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={helpId}
        className="mt-0.5 h-5 w-5 accent-violet-700"
      />
      <div className="grid gap-1">
        <label htmlFor={id} className="text-sm font-medium text-slate-900">
          {label}
        </label>
        <p id={helpId} className="text-sm text-slate-600">
          {help}
        </p>
      </div>
    </div>
  );
}

/** Where the matched tracks go: the required "Create playlist" switch (or the library), and the options. */
function TransferOptions({
  wizard,
  fromLibrary,
  createRequiredId,
}: {
  wizard: Wizard;
  fromLibrary: boolean;
  createRequiredId: string;
}) {
  const createId = useId();
  const { likedPlace, libraryPlace } = destinationTexts(wizard);
  return (
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
        <CheckboxOption
          checked={wizard.includeUnmatched}
          onChange={(checked) => wizardStore.update({ includeUnmatched: checked })}
          label="Include unmatched tracks"
          help="Adds the closest candidate for tracks without a confident match. They may be a different version or a different song, so check them afterwards."
        />
        {wizard.selectedPlaylist?.kind === 'liked' ? (
          <CheckboxOption
            checked={wizard.alsoAddToPlaylist}
            onChange={(checked) => wizardStore.update({ alsoAddToPlaylist: checked })}
            label="Also add them to a playlist"
            help={<>The songs are saved as {likedPlace}; with this, they also go to a new playlist.</>}
          />
        ) : null}
      </CardContent>
    </Card>
  );
}

/** Spec section 2: matches load by themselves when none exist and a playlist is selected. */
function useAutomaticMatching(playlist: PlaylistSummary | null) {
  const [matchJob, setMatchJob] = useState<JobView | null>(null);
  const attemptedFor = useRef<string | null>(null);
  // A saved match set comes back from the server; one still matching after a reload is followed again.
  useEffect(() => {
    if (playlist === null || attemptedFor.current === playlist.id) return;
    attemptedFor.current = playlist.id;
    void ensureMatches(setMatchJob);
  }, [playlist]);
  const importInstead = (imported: PlaylistSummary) => {
    attemptedFor.current = null;
    selectPlaylist(imported);
  };
  const retry = () => void runMatching(setMatchJob);
  return { matchJob, importInstead, retry };
}

function NoPlaylistSelected() {
  return (
    <WizardPage title="Match Songs" description="See how each track matches before you transfer." step={3}>
      <Alert variant="destructive">{WIZARD_ERRORS.playlistRequired}</Alert>
      <Link href={paths.playlists} className={buttonClasses('outline', 'md', 'mt-6')}>
        <ArrowLeft aria-hidden="true" className="h-4 w-4" />
        Back to playlists
      </Link>
    </WizardPage>
  );
}

export default function MatchesPage() {
  const [, navigate] = useLocation();
  // Before the first render, so a handed-over playlist never flashes the "select a playlist" guard.
  useState(applyWizardHandoff);
  const wizard = useWizard();
  const createRequiredId = useId();
  const [transferJob, setTransferJob] = useState<JobView | null>(null);
  const transferring = useWizardMutating('transfer');

  // Before the automatic matching below, as it always ran: entering the step comes first.
  useEffect(() => {
    enterStep(3);
  }, []);

  const playlist = wizard.selectedPlaylist;
  const { matchJob, importInstead, retry } = useAutomaticMatching(playlist);
  const total = matchTotal(wizard);
  const summary = wizard.matchSet?.status === 'ready' ? wizard.matchSet.summary : undefined;
  const { destinationLabel, transferLabel } = destinationTexts(wizard);
  const fromLibrary = playlist?.kind === 'liked' || playlist?.kind === 'album';
  const createPlaylistMissing = !fromLibrary && !wizard.createPlaylist;

  const transfer = () => runTransfer(setTransferJob, navigate);

  if (playlist === null) return <NoPlaylistSelected />;

  const matching =
    !transferring && (wizard.matchSet?.status === 'matching' || (wizard.loading && total === 0));

  return (
    <WizardPage
      title="Match Songs"
      description={`How “${playlist.name}” matches in ${destinationLabel}. Open a track to choose another match, search by hand or skip it.`}
      step={3}
    >
      <div className="grid gap-6">
        {wizard.error ? (
          <MatchErrorAlert
            error={wizard.error}
            canRetry={total === 0 && !wizard.loading}
            onImported={importInstead}
            onRetry={retry}
          />
        ) : null}
        {matching ? (
          <JobProgressBar label="Matching tracks" view={matchJob} waitingFor={destinationLabel} />
        ) : null}
        {wizard.loading && !matching && !transferring && total === 0 ? (
          <Spinner label="Loading matches" />
        ) : null}
        {wizard.matchSet?.status === 'ready' && total === 0 ? (
          <Alert>
            <p>{EMPTY_PLAYLIST_MESSAGE}</p>
            <Link href={paths.playlists} className={buttonClasses('outline', 'sm', 'mt-3')}>
              <ArrowLeft aria-hidden="true" className="h-4 w-4" />
              Pick another playlist
            </Link>
          </Alert>
        ) : null}
        {wizard.matchSet && summary && total > 0 ? (
          <>
            {wizard.matchSet.albumMatch ? (
              <AlbumMatchCard match={wizard.matchSet.albumMatch} destinationLabel={destinationLabel} />
            ) : null}
            <MatchSummary summary={summary} />
            <MatchList
              matchSetId={wizard.matchSet.matchSetId}
              summary={summary}
              destinationLabel={destinationLabel}
            />
            <TransferOptions wizard={wizard} fromLibrary={fromLibrary} createRequiredId={createRequiredId} />
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
            disabled={wizard.loading || transferring || total === 0 || createPlaylistMissing}
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
