import { describe, expect, it } from 'vitest';
import {
  type MatchRow,
  type MatchSetView,
  type TransferResult,
  transferResultSchema,
} from '../../../shared/api/transfer';
import {
  deserializeWizard,
  INITIAL_WIZARD_STATE,
  isStepCompleted,
  matchingInput,
  serializeWizard,
  stepGuardError,
  transferInput,
  WIZARD_ERRORS,
  type WizardState,
  withPlaylist,
  withServices,
  withUpdatedRow,
} from './wizard-state';

const playlist = { id: 'pl-1', name: 'Road Trip', trackCount: 2 };

function row(position: number, overrides: Partial<MatchRow> = {}): MatchRow {
  return {
    id: `set-1:${position}`,
    position,
    sourceTrack: { id: `s${position}`, name: `Song ${position}`, artists: ['A'], album: 'X' },
    destinationTrack: { id: `d${position}`, name: `Song ${position}`, artists: ['A'], album: 'X' },
    confidence: 97,
    isMatched: true,
    status: 'accepted',
    reasons: [],
    candidates: [],
    decidedBy: 'engine',
    ...overrides,
  };
}

const matchSet: MatchSetView = {
  matchSetId: '0b7f1f7e-8f7c-4a4e-9d4f-1a2b3c4d5e6f',
  status: 'ready',
  playlistName: 'Road Trip',
  sourceService: 'spotify',
  destinationService: 'apple',
  jobId: null,
  kind: 'playlist',
  albumMatch: null,
  results: [row(0), row(1)],
  summary: { total: 2, accepted: 2, review: 0, unmatched: 0, skipped: 0, averageConfidence: 97 },
};

const transferResult: TransferResult = {
  transferId: 't-1',
  playlistId: 'pl-1',
  name: 'Road Trip',
  totalTracks: 2,
  matchedTracks: 2,
  unmatchedTracks: 0,
  addedTracks: 2,
  destinationUrl: 'https://music.apple.com/library/playlist/p.1',
  overallConfidence: 97,
  kind: 'playlist',
  librarySave: null,
  verifiedTracks: 2,
  verificationMissing: [],
  status: 'succeeded',
  error: null,
  jobId: null,
  sourceService: 'spotify',
  destinationService: 'apple',
  createdAt: '2026-11-01T00:00:00.000Z',
  completedAt: '2026-11-01T00:00:01.000Z',
};

const ready: WizardState = {
  ...INITIAL_WIZARD_STATE,
  sourceService: 'spotify',
  destinationService: 'apple',
  selectedPlaylist: playlist,
  matchSetId: matchSet.matchSetId,
  matchSet,
};

describe('wizard guards (spec section 4)', () => {
  it('refuses step 2 until both services are chosen', () => {
    expect(stepGuardError({ ...INITIAL_WIZARD_STATE, sourceService: 'spotify' }, 2)).toBe(
      'Please select source and destination services',
    );
    expect(stepGuardError({ ...ready, selectedPlaylist: null }, 2)).toBeNull();
  });

  it('refuses step 3 without a playlist and step 4 without match results', () => {
    expect(stepGuardError({ ...ready, selectedPlaylist: null }, 3)).toBe('Please select a playlist');
    expect(stepGuardError({ ...ready, matchSet: null }, 4)).toBe('Please complete track matching first');
    expect(stepGuardError(ready, 4)).toBeNull();
    expect(stepGuardError({ ...ready, matchSet: null, transferResult }, 4)).toBeNull();
  });

  it('needs source, destination and playlist to match, and a ready match set to transfer', () => {
    expect(matchingInput({ ...ready, destinationService: null })).toBe(WIZARD_ERRORS.missingForMatching);
    expect(matchingInput(ready)).toEqual({
      sourceService: 'spotify',
      destinationService: 'apple',
      playlistId: 'pl-1',
    });
    expect(transferInput({ ...ready, matchSet: null })).toBe('Missing required data for transfer');
    expect(transferInput({ ...ready, matchSet: { ...matchSet, status: 'matching' } })).toBe(
      'Missing required data for transfer',
    );
    expect(transferInput(ready)).toMatchObject({ playlistId: 'pl-1', matchSetId: matchSet.matchSetId });
  });
});

describe('completed steps in the step indicator', () => {
  it('ticks a step only when its work is done', () => {
    // A signed-out visitor opening /matches directly has chosen nothing: no step is completed.
    expect([1, 2, 3].map((step) => isStepCompleted(INITIAL_WIZARD_STATE, step as 1 | 2 | 3, 3))).toEqual([
      false,
      false,
      false,
    ]);
    const servicesOnly = { ...ready, selectedPlaylist: null, matchSet: null };
    expect(isStepCompleted(servicesOnly, 1, 3)).toBe(true);
    expect(isStepCompleted(servicesOnly, 2, 3)).toBe(false);
    expect(isStepCompleted(ready, 2, 3)).toBe(true);
    expect(isStepCompleted(ready, 3, 3)).toBe(false);
    expect(isStepCompleted(ready, 3, 4)).toBe(true);
  });
});

describe('wizard changes', () => {
  it('forgets the playlist, matches and result when the source changes', () => {
    const next = withServices({ ...ready, transferId: transferResult.transferId }, 'apple', 'spotify');
    expect(next).toMatchObject({
      sourceService: 'apple',
      selectedPlaylist: null,
      matchSetId: null,
      transferId: null,
    });
  });

  it('keeps everything when the same services are chosen again', () => {
    expect(withServices(ready, 'spotify', 'apple')).toBe(ready);
  });

  it('drops old matches when another playlist is picked, keeps them for the same one', () => {
    expect(withPlaylist(ready, { id: 'pl-2', name: 'Other', trackCount: 1 }).matchSetId).toBeNull();
    expect(withPlaylist(ready, playlist).matchSetId).toBe(matchSet.matchSetId);
  });

  it('replaces a reviewed row in place', () => {
    const fixed = row(1, { status: 'skipped', isMatched: false, decidedBy: 'person' });
    const next = withUpdatedRow(matchSet, fixed);
    expect(next.results.map((item) => item.status)).toEqual(['accepted', 'skipped']);
  });
});

describe('wizard persistence', () => {
  it('restores the choices after a reload, with the match set and transfer by id only', () => {
    const saved = serializeWizard({
      ...ready,
      currentStep: 3,
      transferId: transferResult.transferId,
      includeUnmatched: true,
      error: 'Please select a playlist',
    });
    expect(saved).not.toContain('Song 1');
    expect(saved).not.toContain('Please select');
    expect(deserializeWizard(saved)).toEqual({
      currentStep: 3,
      sourceService: 'spotify',
      destinationService: 'apple',
      selectedPlaylist: playlist,
      matchSetId: matchSet.matchSetId,
      transferId: transferResult.transferId,
      includeUnmatched: true,
      alsoAddToPlaylist: false,
      createPlaylist: true,
      error: null,
    });
  });

  it('reads a transfer answered before transfers were verified as not verified', () => {
    const { verifiedTracks: _verified, verificationMissing: _missing, ...older } = transferResult;
    expect(transferResultSchema.parse(older)).toEqual({
      ...transferResult,
      verifiedTracks: null,
      verificationMissing: [],
    });
  });

  it('restores nothing from junk', () => {
    for (const raw of [null, '', 'nope', '[]', '{"currentStep":9,"sourceService":"tidal","matchSetId":7}']) {
      expect(deserializeWizard(raw)).toMatchObject({
        currentStep: 1,
        sourceService: null,
        selectedPlaylist: null,
        matchSetId: null,
      });
    }
  });
});
