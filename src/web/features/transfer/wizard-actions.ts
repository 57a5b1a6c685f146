import type {
  JobView,
  MatchChoice,
  MatchRow,
  MatchSetView,
  TransferResult,
} from '../../../shared/api/transfer';
import { CSV_FILE_NAME } from '../../../shared/api/transfer';
import type { ServiceId } from '../../../shared/services';
import { toast } from '../../hooks/use-toast';
import { errorStatus, serverMessage } from '../../lib/api-client';
import { watchJob } from '../../lib/job-progress';
import { paths } from '../../lib/paths';
import { queryClient } from '../../lib/query-client';
import { track } from '../../lib/track';
import { TRANSFERS_KEY, USAGE_KEY } from '../account';
import { invalidatePlaylists } from '../playlists';
import { takeWizardHandoff } from './open-in-wizard';
import {
  acceptAllInReview,
  changeMatchRow,
  downloadTransferCsv,
  fetchMatchSet,
  fetchTransfer,
  retryTransfer,
  startMatching,
  startTransfer,
} from './transfer-api';
import { upgradeToast } from './upgrade-toast';
import {
  isWizardMutating,
  matchSetQuery,
  rowChanged,
  rowsChanged,
  runWizardMutation,
  setMatchSet,
  setTransferResult,
  wizardSnapshot,
} from './wizard-queries';
import {
  INITIAL_WIZARD_CHOICES,
  matchingInput,
  matchTotal,
  stepGuardError,
  transferInput,
  WIZARD_ERRORS,
  type WizardStep,
  withPlaylist,
  withServices,
} from './wizard-state';
import { wizardStore } from './wizard-store';

type Navigate = (to: string) => void;

export const STEP_PATHS: Record<WizardStep, string> = {
  1: paths.transfer,
  2: paths.playlists,
  3: paths.matches,
  4: paths.complete,
};

const setError = (error: string | null) => wizardStore.update({ error });

/** Spec section 4: the step stays, with the guard's error, when the wizard may not move on. */
export function goToStep(step: WizardStep, navigate: Navigate): boolean {
  const error = stepGuardError(wizardSnapshot(), step);
  if (error !== null) {
    setError(error);
    return false;
  }
  wizardStore.update({ currentStep: step, error: null });
  navigate(STEP_PATHS[step]);
  return true;
}

/** Records which page the person is on, without the guard (the pages show their own guard errors). */
export function enterStep(step: WizardStep): void {
  if (wizardStore.getState().currentStep !== step) wizardStore.update({ currentStep: step });
}

export const chooseServices = (source: ServiceId, destination: ServiceId) =>
  wizardStore.update((state) => withServices(state, source, destination));

export const selectPlaylist = (playlist: Parameters<typeof withPlaylist>[1]) =>
  wizardStore.update((state) => withPlaylist({ ...state, error: null }, playlist));

/** A playlist handed over by another page (`openInWizard`) becomes the wizard's selection. */
export function applyWizardHandoff(): void {
  const handoff = typeof sessionStorage === 'undefined' ? null : takeWizardHandoff();
  if (handoff === null) return;
  const { sourceService, destinationService, playlist } = handoff;
  const valid = (value: unknown) => value === 'spotify' || value === 'apple';
  if (!valid(sourceService) || !valid(destinationService) || sourceService === destinationService) return;
  if (typeof playlist?.id !== 'string' || typeof playlist.name !== 'string') return;
  chooseServices(sourceService, destinationService);
  selectPlaylist({ id: playlist.id, name: playlist.name, trackCount: Number(playlist.trackCount) || 0 });
}

export function resetWizard(navigate: Navigate): void {
  wizardStore.update({ ...INITIAL_WIZARD_CHOICES });
  navigate(paths.transfer);
}

const failureText = (error: unknown, fallback: string) => serverMessage(error) ?? fallback;

const delay = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** Tries to follow a job to its end; gives up on a live view after this many broken streams. */
const MAX_STREAM_ATTEMPTS = 30;

async function followUntil<T>(
  jobId: string | null,
  load: () => Promise<T>,
  isRunning: (value: T) => boolean,
  onJob: (view: JobView) => void,
  signal?: AbortSignal,
): Promise<T> {
  let value = await load();
  for (let attempt = 0; isRunning(value) && attempt < MAX_STREAM_ATTEMPTS && !signal?.aborted; attempt += 1) {
    if (jobId !== null) await watchJob(jobId, onJob, signal);
    if (attempt > 0 || jobId === null) await delay(2000, signal);
    value = await load();
  }
  return value;
}

function announceMatches(view: MatchSetView): void {
  if (view.status !== 'ready') return;
  // The server's counts of the whole set (issue 25): the wizard holds no rows.
  track('ai_matching_used', {
    ai_service: 'crossfade-matcher',
    track_count: view.summary?.total ?? 0,
    average_confidence: view.summary?.averageConfidence ?? 0,
  });
}

const MATCHING = 'matching';

/** Follows a match set's job until it is ready (or failed), keeping its query up to date. */
async function followMatchSet(started: MatchSetView, onJob: (view: JobView | null) => void): Promise<void> {
  const view =
    started.status === 'matching'
      ? await followUntil(
          started.jobId,
          async () => {
            const latest = await fetchMatchSet(started.matchSetId);
            setMatchSet(latest);
            return latest;
          },
          (set) => set.status === 'matching',
          onJob,
        )
      : started;
  if (view.status === 'failed') throw new Error(view.error ?? 'Matching failed. Please try again.');
  if (view.status === 'matching')
    throw new Error('Matching is taking longer than expected. Please try again.');
  announceMatches(view);
}

function matchingFailed(error: unknown): void {
  wizardStore.update({
    matchSetId: null,
    error: failureText(
      error,
      error instanceof Error && errorStatus(error) === undefined
        ? error.message
        : 'Matching failed. Please try again.',
    ),
  });
}

/** Spec section 4: matching needs source, destination and playlist; a failure leaves no results. */
export async function runMatching(onJob: (view: JobView | null) => void): Promise<void> {
  if (isWizardMutating(MATCHING)) return;
  const input = matchingInput(wizardStore.getState());
  if (typeof input === 'string') {
    setError(input);
    return;
  }
  wizardStore.update({ error: null, matchSetId: null, transferId: null });
  try {
    await runWizardMutation(MATCHING, async () => {
      const started = await startMatching(input);
      setMatchSet(started);
      wizardStore.update({ matchSetId: started.matchSetId });
      await followMatchSet(started, onJob);
    });
  } catch (error) {
    matchingFailed(error);
  } finally {
    onJob(null);
  }
}

/**
 * Step 3 shows the matches of the chosen playlist: the saved match set when there is one (after a
 * reload, a match still running is followed again), a new match when there is none or it is gone.
 */
export async function ensureMatches(onJob: (view: JobView | null) => void): Promise<void> {
  const { matchSetId } = wizardStore.getState();
  if (isWizardMutating(MATCHING)) return;
  if (matchSetId === null) return runMatching(onJob);
  let saved: MatchSetView;
  try {
    saved = await queryClient.fetchQuery(matchSetQuery(matchSetId));
  } catch {
    // The saved set is gone (or belongs to someone else): match again.
    return runMatching(onJob);
  }
  if (saved.status === 'ready') return;
  if (saved.status === 'failed') return runMatching(onJob);
  try {
    await runWizardMutation(MATCHING, () => followMatchSet(saved, onJob));
  } catch (error) {
    matchingFailed(error);
  } finally {
    onJob(null);
  }
}

const currentMatchSet = () => wizardSnapshot().matchSet;

export async function applyRowChoice(row: MatchRow, choice: MatchChoice): Promise<boolean> {
  const matchSet = currentMatchSet();
  if (matchSet === null) return false;
  try {
    const updated = await runWizardMutation('row', () =>
      changeMatchRow(matchSet.matchSetId, row.position, choice),
    );
    await rowChanged(matchSet.matchSetId, updated);
    return true;
  } catch (error) {
    toast({
      title: 'Could not update this match',
      description: failureText(error, 'Please try again.'),
      variant: 'destructive',
    });
    return false;
  }
}

export async function acceptReviewRows(): Promise<void> {
  const matchSet = currentMatchSet();
  if (matchSet === null) return;
  try {
    setMatchSet(await runWizardMutation('accept-review', () => acceptAllInReview(matchSet.matchSetId)));
    await rowsChanged(matchSet.matchSetId);
  } catch (error) {
    toast({
      title: 'Could not accept the matches in review',
      description: failureText(error, 'Please try again.'),
      variant: 'destructive',
    });
  }
}

export const CREATE_PLAYLIST_REQUIRED = {
  title: 'Create playlist option is required',
  description: "Please enable the 'Create playlist in destination' option to continue.",
} as const;

function trackOutcome(result: TransferResult): void {
  if (result.status === 'failed') {
    track('playlist_transfer_failed', {
      source_service: result.sourceService,
      destination_service: result.destinationService,
      error: result.error ?? 'Transfer failed',
    });
    return;
  }
  track('playlist_transfer_completed', {
    source_service: result.sourceService,
    destination_service: result.destinationService,
    matched_tracks: result.matchedTracks,
    total_tracks: result.totalTracks,
  });
}

async function finishTransfer(
  started: TransferResult,
  onJob: (view: JobView | null) => void,
  navigate: Navigate,
): Promise<void> {
  const result =
    started.status === 'queued' || started.status === 'running'
      ? await followUntil(
          started.jobId,
          async () => {
            const latest = await fetchTransfer(started.transferId);
            setTransferResult(latest);
            return latest;
          },
          (value) => value.status === 'queued' || value.status === 'running',
          onJob,
        )
      : started;
  if (result.status === 'queued' || result.status === 'running')
    throw new Error('The transfer is taking longer than expected. Check back in a moment.');
  trackOutcome(result);
  // The destination now has one more playlist, the history one more transfer and the plan's count one more use.
  await Promise.all([
    invalidatePlaylists(result.destinationService),
    queryClient.invalidateQueries({ queryKey: TRANSFERS_KEY }),
    queryClient.invalidateQueries({ queryKey: USAGE_KEY }),
  ]);
  setTransferResult(result);
  wizardStore.update({ transferId: result.transferId, error: null, currentStep: 4 });
  navigate(paths.complete);
}

/** Spec section 2 step 3: runs the transfer, then moves to step 4; on failure the person stays here. */
export async function runTransfer(onJob: (view: JobView | null) => void, navigate: Navigate): Promise<void> {
  const state = wizardSnapshot();
  const fromLibrary = state.selectedPlaylist?.kind === 'liked' || state.selectedPlaylist?.kind === 'album';
  if (!state.createPlaylist && !fromLibrary) {
    toast({ ...CREATE_PLAYLIST_REQUIRED, variant: 'destructive' });
    return;
  }
  const input = transferInput(state);
  if (typeof input === 'string') {
    setError(input);
    return;
  }
  const trackCount = matchTotal(state);
  track('playlist_transfer_started', {
    source_service: input.sourceService,
    destination_service: input.destinationService,
    track_count: trackCount,
  });
  wizardStore.update({ error: null });
  try {
    await runWizardMutation('transfer', async () => {
      const started = await startTransfer({
        ...input,
        includeUnmatched: state.includeUnmatched,
        alsoAddToPlaylist: state.alsoAddToPlaylist && state.selectedPlaylist?.kind === 'liked',
        createPlaylist: true,
      });
      setTransferResult(started);
      await finishTransfer(started, onJob, navigate);
    });
  } catch (error) {
    const message = failureText(
      error,
      errorStatus(error) === undefined && error instanceof Error
        ? error.message
        : 'Transfer failed. Please try again.',
    );
    track('playlist_transfer_failed', {
      source_service: input.sourceService,
      destination_service: input.destinationService,
      error: message,
    });
    wizardStore.update({ error: message });
    if (errorStatus(error) === 402) upgradeToast(message);
    else toast({ title: 'Transfer failed', description: message, variant: 'destructive' });
  } finally {
    onJob(null);
  }
}

export async function retryFailedTransfer(
  onJob: (view: JobView | null) => void,
  navigate: Navigate,
): Promise<void> {
  const previous = wizardSnapshot().transferResult;
  if (previous === null) return;
  wizardStore.update({ error: null });
  try {
    await runWizardMutation('retry', async () =>
      finishTransfer(await retryTransfer(previous.transferId), onJob, navigate),
    );
  } catch (error) {
    const message = failureText(error, 'Retry failed. Please try again.');
    wizardStore.update({ error: message });
    if (errorStatus(error) === 402) upgradeToast(message);
    else toast({ title: 'Retry failed', description: message, variant: 'destructive' });
  } finally {
    onJob(null);
  }
}

/** Saves the transfer's CSV as playlist_transfer.csv. */
export async function downloadCsv(): Promise<void> {
  const result = wizardSnapshot().transferResult;
  if (result === null) {
    setError(WIZARD_ERRORS.noTransferToDownload);
    toast({ title: WIZARD_ERRORS.noTransferToDownload, variant: 'destructive' });
    return;
  }
  try {
    const blob = await runWizardMutation('download', () => downloadTransferCsv(result.transferId));
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = CSV_FILE_NAME;
    document.body.append(link);
    link.click();
    link.remove();
    // Revoking at once can cancel the download in some browsers.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    track('export_used', { export_type: 'csv', playlist_id: result.playlistId });
  } catch (error) {
    toast({
      title: 'Failed to download CSV',
      description: serverMessage(error),
      variant: 'destructive',
    });
  }
}
