import type { PlaylistSummary } from '../../../shared/api/playlists';
import {
  type MatchRow,
  type MatchSetView,
  type TransferResult,
  transferResultSchema,
} from '../../../shared/api/transfer';
import { type ServiceId, serviceIdSchema } from '../../../shared/services';

export type WizardStep = 1 | 2 | 3 | 4;

/** Spec section 3 wizard state; `matchSet` carries the match results with the id review needs. */
export interface WizardState {
  currentStep: WizardStep;
  sourceService: ServiceId | null;
  destinationService: ServiceId | null;
  selectedPlaylist: PlaylistSummary | null;
  matchSet: MatchSetView | null;
  transferResult: TransferResult | null;
  includeUnmatched: boolean;
  createPlaylist: boolean;
  loading: boolean;
  error: string | null;
}

export const INITIAL_WIZARD_STATE: WizardState = {
  currentStep: 1,
  sourceService: null,
  destinationService: null,
  selectedPlaylist: null,
  matchSet: null,
  transferResult: null,
  includeUnmatched: false,
  createPlaylist: true,
  loading: false,
  error: null,
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

export const matchResults = (state: WizardState): MatchRow[] => state.matchSet?.results ?? [];

/** Why the wizard may not enter `step` yet, or null when it may. */
export function stepGuardError(state: WizardState, step: WizardStep): string | null {
  if (step >= 2 && (state.sourceService === null || state.destinationService === null))
    return WIZARD_ERRORS.servicesRequired;
  if (step >= 3 && state.selectedPlaylist === null) return WIZARD_ERRORS.playlistRequired;
  if (step >= 4 && matchResults(state).length === 0 && state.transferResult === null)
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

export function matchingInput(state: WizardState): MatchingInput | string {
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
export function withServices(state: WizardState, source: ServiceId, destination: ServiceId): WizardState {
  if (state.sourceService === source && state.destinationService === destination) return state;
  const sourceChanged = state.sourceService !== source;
  return {
    ...state,
    sourceService: source,
    destinationService: destination,
    selectedPlaylist: sourceChanged ? null : state.selectedPlaylist,
    matchSet: null,
    transferResult: null,
    error: null,
  };
}

export function withPlaylist(state: WizardState, playlist: PlaylistSummary): WizardState {
  if (state.selectedPlaylist?.id === playlist.id) return { ...state, selectedPlaylist: playlist };
  return { ...state, selectedPlaylist: playlist, matchSet: null, transferResult: null };
}

export function withUpdatedRow(state: WizardState, row: MatchRow): WizardState {
  if (state.matchSet === null) return state;
  return {
    ...state,
    matchSet: {
      ...state.matchSet,
      results: state.matchSet.results.map((item) => (item.position === row.position ? row : item)),
    },
  };
}

/**
 * A reload or deep link keeps the wizard: everything but the in-flight flags. A 10,000-row match set
 * can outgrow the storage quota, so only its id is kept and the rows are fetched again.
 */
interface PersistedWizard {
  currentStep: WizardStep;
  sourceService: ServiceId | null;
  destinationService: ServiceId | null;
  selectedPlaylist: PlaylistSummary | null;
  matchSetId: string | null;
  transferResult: TransferResult | null;
  includeUnmatched: boolean;
}

/** `savedMatchSetId`: a restored set's id whose rows have not been fetched back yet. */
export function serializeWizard(state: WizardState, savedMatchSetId: string | null = null): string {
  const persisted: PersistedWizard = {
    currentStep: state.currentStep,
    sourceService: state.sourceService,
    destinationService: state.destinationService,
    selectedPlaylist: state.selectedPlaylist,
    matchSetId: state.matchSet?.status === 'ready' ? state.matchSet.matchSetId : savedMatchSetId,
    transferResult: state.transferResult,
    includeUnmatched: state.includeUnmatched,
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
  };
}

/** What a stored wizard restores to, plus the match set id to fetch again; junk restores nothing. */
export function deserializeWizard(raw: string | null): { state: WizardState; matchSetId: string | null } {
  const empty = { state: INITIAL_WIZARD_STATE, matchSetId: null };
  if (raw === null) return empty;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!isObject(parsed)) return empty;
    const transfer = transferResultSchema.safeParse(parsed.transferResult);
    const transferResult = transfer.success ? transfer.data : null;
    return {
      state: {
        ...INITIAL_WIZARD_STATE,
        currentStep: isStep(parsed.currentStep) ? parsed.currentStep : 1,
        sourceService: serviceOrNull(parsed.sourceService),
        destinationService: serviceOrNull(parsed.destinationService),
        selectedPlaylist: playlistOrNull(parsed.selectedPlaylist),
        transferResult,
        includeUnmatched: parsed.includeUnmatched === true,
      },
      matchSetId: typeof parsed.matchSetId === 'string' ? parsed.matchSetId : null,
    };
  } catch {
    return empty;
  }
}
