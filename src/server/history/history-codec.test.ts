import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../shared/seeded-random';
import {
  applyOps,
  decodeKeyframe,
  decodeTracks,
  diffLists,
  encodeKeyframe,
  encodeTracks,
  HISTORY_KEYFRAME_EVERY,
  type NewVersionParts,
  nextVersion,
  type ObservedEntry,
  type ReplayedState,
  replay,
  type StoredTrack,
  type StoredVersionParts,
} from './history-codec';

const track = (n: number): StoredTrack => ({
  id: `t${n}`,
  uri: `spotify:track:t${n}`,
  name: `Song ${n}`,
  artists: [`Artist ${n % 7}`],
  album: `Album ${n % 13}`,
  isrc: `USAAA${String(n).padStart(7, '0')}`,
  durationMs: 180_000 + n,
});

/** Random edits as a person makes them: adds anywhere (new or repeated tracks), removals, moves, unavailability. */
function edit(random: () => number, list: ObservedEntry[], nextId: () => number): ObservedEntry[] {
  const next = list.map((entry) => ({ ...entry }));
  const changes = 1 + Math.floor(random() * 6);
  for (let change = 0; change < changes; change++) {
    const roll = random();
    const at = Math.floor(random() * (next.length + 1));
    if (roll < 0.35 || next.length === 0) {
      next.splice(at, 0, { track: track(nextId()), unavailable: false });
    } else if (roll < 0.6) {
      next.splice(Math.min(at, next.length - 1), 1);
    } else if (roll < 0.75) {
      const [moved] = next.splice(Math.min(at, next.length - 1), 1);
      if (moved) next.splice(Math.floor(random() * (next.length + 1)), 0, moved);
    } else if (roll < 0.85) {
      const copy = next[Math.floor(random() * next.length)];
      if (copy) next.splice(at, 0, { ...copy });
    } else {
      const index = Math.floor(random() * next.length);
      const entry = next[index];
      if (entry) next[index] = { ...entry, unavailable: !entry.unavailable };
    }
  }
  return next;
}

const asParts = (parts: NewVersionParts, seq: number): StoredVersionParts & { newTracks: string | null } => ({
  seq,
  keyframe: parts.keyframe,
  ops: parts.ops,
  newTracks: parts.newTracks,
  becameUnavailable: parts.becameUnavailable,
  becameAvailable: parts.becameAvailable,
});

/** Replays stored versions, their track details decoded as the store does. */
const replayStored = (stored: ReturnType<typeof asParts>[]) =>
  replay(
    stored,
    stored,
    stored.flatMap((version) => (version.newTracks ? decodeTracks(version.newTracks) : [])),
  );

/** The state a new version leaves, without replaying every version again (the replay is what is tested). */
function advance(state: ReplayedState | null, parts: NewVersionParts, seq: number): ReplayedState {
  const unavailable = new Set(state?.unavailable ?? []);
  for (const ref of parts.becameUnavailable) unavailable.add(ref);
  for (const ref of parts.becameAvailable) unavailable.delete(ref);
  const fresh = parts.newTracks ? decodeTracks(parts.newTracks) : [];
  return { seq, list: parts.list, tracks: [...(state?.tracks ?? []), ...fresh], unavailable };
}

describe('history codec', () => {
  it('diffs a list into ops that give the new list back', () => {
    const before = [1, 2, 3, 4, 5, 6];
    const after = [2, 3, 9, 4, 6, 7, 1];
    expect(applyOps([...before], diffLists(before, after))).toEqual(after);
    expect(diffLists(before, before)).toEqual([]);
  });

  it('keeps keyframes and tracks small and exact', () => {
    const list = Array.from({ length: 10_000 }, (_, index) => index);
    const keyframe = encodeKeyframe(list);
    expect(decodeKeyframe(keyframe)).toEqual(list);
    expect(keyframe.length).toBeLessThan(1_000);
    const tracks = [
      track(1),
      { ...track(2), uri: 't2' },
      { id: 'x', uri: 'x', name: 'n', artists: [], album: '' },
    ];
    expect(decodeTracks(encodeTracks(tracks))).toEqual(tracks);
  });

  it('reads back every version exactly after random edits (seeded property test)', () => {
    for (const seed of [1, 2, 3]) {
      const random = seededRandom(seed);
      let counter = 0;
      const nextId = () => counter++;
      let observed: ObservedEntry[] = Array.from({ length: 30 }, () => ({
        track: track(nextId()),
        unavailable: false,
      }));
      const stored: ReturnType<typeof asParts>[] = [];
      const truth: ObservedEntry[][] = [];
      let state: ReplayedState | null = null;
      const versions = HISTORY_KEYFRAME_EVERY * 2 + 17;
      while (stored.length < versions) {
        const parts = nextVersion(state, observed);
        if (parts) {
          stored.push(asParts(parts, stored.length + 1));
          truth.push(observed);
          state = advance(state, parts, stored.length);
        } else {
          expect(state).not.toBeNull();
        }
        observed = edit(random, observed, nextId);
      }
      // Any version reads back exactly: the tracks in order, and which of them are unavailable.
      for (let index = 0; index < stored.length; index += 1 + Math.floor(random() * 9)) {
        const read = replayStored(stored.slice(0, index + 1));
        const expected = truth[index] ?? [];
        expect(read.list.map((ref) => read.tracks[ref])).toEqual(expected.map((entry) => entry.track));
        const unavailableUris = expected.filter((entry) => entry.unavailable).map((entry) => entry.track.uri);
        const readUnavailable = read.list
          .filter((ref) => read.unavailable.has(ref))
          .map((ref) => read.tracks[ref]?.uri);
        expect(new Set(readUnavailable)).toEqual(new Set(unavailableUris));
      }
      expect(stored.filter((version) => version.keyframe).length).toBe(3);
    }
  });

  it('names what each version added, removed and what became unavailable', () => {
    const first = nextVersion(
      null,
      [1, 2, 3].map((n) => ({ track: track(n), unavailable: false })),
    );
    if (!first) throw new Error('no first version');
    const state = replayStored([asParts(first, 1)]);
    const second = nextVersion(state, [
      { track: track(1), unavailable: false },
      { track: track(3), unavailable: true },
      { track: track(4), unavailable: false },
    ]);
    expect(second).toMatchObject({ added: [3], removed: [1], becameUnavailable: [2], trackCount: 3 });
    expect(
      nextVersion(
        state,
        [1, 2, 3].map((n) => ({ track: track(n), unavailable: false })),
      ),
    ).toBeNull();
  });
});
