import type { PlaylistSummary } from '../../../shared/api/playlists';
import type { MatchRow, MatchSetView, TransferResult } from '../../../shared/api/transfer';
import { type ServiceId, serviceIdSchema } from '../../../shared/services';

export type WizardStep = 1 | 2 | 3 | 4;

/**
 * What the person chose in the wizard: the only state the wizard store keeps (and saves for a reload).
 * The match set and the transfer are server state: they live in TanStack Query under these ids.
 */
export interface WizardChoices {
  currentStep: WizardStep;
  sourceService: ServiceId | null;
  destinationService: ServiceId | null;
  selectedPlaylist: PlaylistSummary | null;
  matchSetId: string | null;
  transferId: string | null;
  includeUnmatched: boolean;
  /** Liked Songs (issue 14): also put the saved songs in a new playlist. */
  alsoAddToPlaylist: boolean;
  createPlaylist: boolean;
  /** The guard's or the last action's message, shown on the page. */
  error: string | null;
}

/**
 * Spec section 3 wizard state, as the pages read it: the person's choices joined with the server state
 * read from the query cache (`matchSet`: the set, its id and its counts; its rows are read page by page).
 */
export interface WizardState extends WizardChoices {
  matchSet: MatchSetView | null;
  transferResult: TransferResult | null;
  /** A wizard action (matching, a transfer, connecting) is under way or its data is loading. */
  loading: boolean;
}

export const INITIAL_WIZARD_CHOICES: WizardChoices = {
  currentStep: 1,
  sourceService: null,
  destinationService: null,
  selectedPlaylist: null,
  matchSetId: null,
  transferId: null,
  includeUnmatched: false,
  alsoAddToPlaylist: false,
  createPlaylist: true,
  error: null,
};

export const INITIAL_WIZARD_STATE: WizardState = {
  ...INITIAL_WIZARD_CHOICES,
  matchSet: null,
  transferResult: null,
  loading: false,
};

/** Spec sections 4 and 5: the store guards, word for word. */
export const WIZARD_ERRORS = {
  servicesRequired: 'Please select source and destination services',
  playlistRequired: 'Please select a playlist',
  matchingRequired: 'Please complete track matching first',
  missingForMatching: 'Missing required data for matching',
  missingForTransfer: 'Missing required data for transfer',
  noSourceService: 'No source service selected',
  noTransferToDownload: 'No transfer completed to download',
} as const;

/**
 * How many match rows the wizard's set has, from the server's counts of the whole set (issue 25: the
 * wizard holds the set and its summary; the rows come a page at a time where they are shown).
 */
export const matchTotal = (state: Pick<WizardState, 'matchSet'>): number =>
  state.matchSet?.status === 'ready' ? (state.matchSet.summary?.total ?? 0) : 0;

/** Why the wizard may not enter `step` yet, or null when it may. */
export function stepGuardError(state: WizardState, step: WizardStep): string | null {
  if (step >= 2 && (state.sourceService === null || state.destinationService === null))
    return WIZARD_ERRORS.servicesRequired;
  if (step >= 3 && state.selectedPlaylist === null) return WIZARD_ERRORS.playlistRequired;
  if (step >= 4 && matchTotal(state) === 0 && state.transferResult === null)
    return WIZARD_ERRORS.matchingRequired;
  return null;
}

/** A step before `current` counts as completed only when its work is really done (services chosen, ...). */
export function isStepCompleted(state: WizardState, step: WizardStep, current: WizardStep): boolean {
  if (step >= current) return false;
  return stepGuardError(state, (step + 1) as WizardStep) === null;
}

export interface MatchingInput {
  sourceService: ServiceId;
  destinationService: ServiceId;
  playlistId: string;
}

export function matchingInput(state: WizardChoices): MatchingInput | string {
  const { sourceService, destinationService, selectedPlaylist } = state;
  if (sourceService === null || destinationService === null || selectedPlaylist === null)
    return WIZARD_ERRORS.missingForMatching;
  return { sourceService, destinationService, playlistId: selectedPlaylist.id };
}

export function transferInput(state: WizardState): (MatchingInput & { matchSetId: string }) | string {
  const input = matchingInput(state);
  if (typeof input === 'string' || state.matchSet === null || state.matchSet.status !== 'ready')
    return WIZARD_ERRORS.missingForTransfer;
  return { ...input, matchSetId: state.matchSet.matchSetId };
}

/** Choosing other services makes the playlist, matches and result of the old pair meaningless. */
export function withServices(state: WizardChoices, source: ServiceId, destination: ServiceId): WizardChoices {
  if (state.sourceService === source && state.destinationService === destination) return state;
  const sourceChanged = state.sourceService !== source;
  return {
    ...state,
    sourceService: source,
    destinationService: destination,
    selectedPlaylist: sourceChanged ? null : state.selectedPlaylist,
    matchSetId: null,
    transferId: null,
    error: null,
  };
}

export function withPlaylist(state: WizardChoices, playlist: PlaylistSummary): WizardChoices {
  if (state.selectedPlaylist?.id === playlist.id) return { ...state, selectedPlaylist: playlist };
  return { ...state, selectedPlaylist: playlist, matchSetId: null, transferId: null };
}

/** A page of a match set with one row replaced by its new version (after the person changed it). */
export function withUpdatedRow(matchSet: MatchSetView, row: MatchRow): MatchSetView {
  return {
    ...matchSet,
    results: matchSet.results.map((item) => (item.position === row.position ? row : item)),
  };
}

/** A reload or deep link keeps the person's choices, ids included; the rows come back from the server. */
type PersistedWizard = Omit<WizardChoices, 'error' | 'createPlaylist'>;

export function serializeWizard(state: WizardChoices): string {
  const persisted: PersistedWizard = {
    currentStep: state.currentStep,
    sourceService: state.sourceService,
    destinationService: state.destinationService,
    selectedPlaylist: state.selectedPlaylist,
    matchSetId: state.matchSetId,
    transferId: state.transferId,
    includeUnmatched: state.includeUnmatched,
    alsoAddToPlaylist: state.alsoAddToPlaylist,
  };
  return JSON.stringify(persisted);
}

const isStep = (value: unknown): value is WizardStep =>
  value === 1 || value === 2 || value === 3 || value === 4;
const serviceOrNull = (value: unknown): ServiceId | null => {
  const parsed = serviceIdSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
};
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function playlistOrNull(value: unknown): PlaylistSummary | null {
  if (!isObject(value) || typeof value.id !== 'string' || typeof value.name !== 'string') return null;
  return {
    id: value.id,
    name: value.name,
    trackCount: typeof value.trackCount === 'number' ? value.trackCount : 0,
    ...(typeof value.imageUrl === 'string' ? { imageUrl: value.imageUrl } : {}),
    ...(value.kind === 'liked' || value.kind === 'album' || value.kind === 'playlist'
      ? { kind: value.kind }
      : {}),
  };
}

const idOrNull = (value: unknown): string | null =>
  typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : null;

/** What a stored wizard restores to; junk restores nothing. */
export function deserializeWizard(raw: string | null): WizardChoices {
  if (raw === null) return INITIAL_WIZARD_CHOICES;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!isObject(parsed)) return INITIAL_WIZARD_CHOICES;
    return {
      ...INITIAL_WIZARD_CHOICES,
      currentStep: isStep(parsed.currentStep) ? parsed.currentStep : 1,
      sourceService: serviceOrNull(parsed.sourceService),
      destinationService: serviceOrNull(parsed.destinationService),
      selectedPlaylist: playlistOrNull(parsed.selectedPlaylist),
      matchSetId: idOrNull(parsed.matchSetId),
      transferId: idOrNull(parsed.transferId),
      includeUnmatched: parsed.includeUnmatched === true,
      alsoAddToPlaylist: parsed.alsoAddToPlaylist === true,
    };
  } catch {
    return INITIAL_WIZARD_CHOICES;
  }
}
