import { describe, expect, it } from 'vitest';
import type { StoredAlbumMatch } from '../db/stored-json';
import type { JobContext } from '../jobs/job-runner';
import type { AddTracksProgress, MusicProvider, NormalizedTrack } from '../providers/types';
import { savedToText } from './library-collections';
import { combineVerifications, type LibraryJobState, libraryPlan, saveToLibrary } from './library-transfer';
import type { MatchRowRecord } from './match-rows';

const track = (id: string): NormalizedTrack => ({
  id,
  uri: `uri:${id}`,
  name: `Song ${id}`,
  artists: ['Maya Stone'],
  album: 'Northern Lights',
  durationMs: 200_000,
});
const item = (position: number, id: string) => ({
  row: { position, confidence: 95 } as MatchRowRecord,
  track: track(id),
});
const album = { id: 'al1', name: 'Northern Lights', artists: ['Maya Stone'], trackCount: 2 };
const stored = (matched: boolean): StoredAlbumMatch => ({
  source: { ...album, id: 'src' },
  match: matched ? { album, method: 'upc', confidence: 99, reason: 'same UPC' } : null,
  destinationTracks: matched ? [track('a'), track('b')] : [],
});

describe('libraryPlan', () => {
  it('saves a matched album whole when every track on it was chosen, and the chosen tracks not on it one by one', () => {
    const plan = libraryPlan('album', stored(true), [item(0, 'a'), item(1, 'b'), item(2, 'x')]);
    expect(plan.album?.id).toBe('al1');
    expect(plan.albumItems.map((i) => i.track.id)).toEqual(['a', 'b']);
    expect(plan.trackItems.map((i) => i.track.id)).toEqual(['x']);
  });

  it('never saves the album whole when a track on it was not chosen: the chosen ones are saved one by one', () => {
    const plan = libraryPlan('album', stored(true), [item(0, 'a'), item(2, 'x')]);
    expect(plan.album).toBeNull();
    expect(plan.trackItems.map((i) => i.track.id)).toEqual(['a', 'x']);
  });

  it('saves tracks one by one for Liked Songs, an album without a match, or an album none of whose tracks was chosen', () => {
    for (const plan of [
      libraryPlan('liked', null, [item(0, 'a')]),
      libraryPlan('album', stored(false), [item(0, 'a')]),
      libraryPlan('album', stored(true), [item(0, 'x')]),
    ]) {
      expect(plan.album).toBeNull();
      expect(plan.trackItems).toHaveLength(1);
    }
  });
});

describe('combineVerifications', () => {
  it('counts a track verified only when no read-back misses it', () => {
    const miss = (position: number, reason: string) => ({ position, name: 'n', artists: [], reason });
    const combined = combineVerifications(3, [
      { verified: 2, readded: 1, missing: [miss(2, 'library')] },
      { verified: 1, readded: 0, missing: [miss(0, 'playlist'), miss(2, 'playlist')] },
    ]);
    expect(combined.verified).toBe(1);
    expect(combined.missing.map((m) => [m.position, m.reason])).toEqual([
      [0, 'playlist'],
      [2, 'library'],
    ]);
  });
});

describe('savedToText', () => {
  it('says where a collection went on each service', () => {
    const base = { albumSaved: false, savedTracks: 3, playlistName: null };
    expect(savedToText({ ...base, kind: 'liked', destination: 'spotify' })).toBe(
      'Saved to your Liked Songs on Spotify',
    );
    expect(
      savedToText({
        ...base,
        kind: 'liked',
        destination: 'apple',
        playlistName: 'Liked Songs (from Spotify)',
      }),
    ).toBe(
      'Saved to your Apple Music library as favourites, and to the new playlist “Liked Songs (from Spotify)”',
    );
    expect(
      savedToText({ ...base, kind: 'album', destination: 'apple', albumSaved: true, savedTracks: 0 }),
    ).toBe('Saved to your Apple Music library as an album');
    expect(savedToText({ ...base, kind: 'album', destination: 'spotify' })).toBe(
      'No matching album on Spotify: its 3 songs were saved one by one to your Liked Songs on Spotify',
    );
  });
});

describe('saveToLibrary', () => {
  /** A destination that saves in batches of 2 and can fail once, after a given number of saves. */
  function destination(failAfter: number | null) {
    const saved: string[] = [];
    const albums: string[] = [];
    let failed = false;
    const provider = {
      saveAlbums: async (ids: string[]) => {
        albums.push(...ids);
      },
      saveTracks: async (uris: string[], onBatch?: (progress: AddTracksProgress) => void | Promise<void>) => {
        for (let i = 0; i < uris.length; i += 2) {
          if (failAfter !== null && !failed && saved.length >= failAfter) {
            failed = true;
            throw new Error('crash');
          }
          saved.push(...uris.slice(i, i + 2));
          await onBatch?.({ added: Math.min(uris.length, i + 2), total: uris.length });
        }
      },
    } as unknown as MusicProvider;
    return { provider, saved, albums };
  }
  function context(state: unknown) {
    const checkpoints: unknown[] = [];
    const value = {
      state,
      checkpoint: async (next: unknown) => {
        checkpoints.push(next);
        value.state = next;
      },
      progress: async () => undefined,
      holdLease: async () => undefined,
    };
    return { context: value as unknown as JobContext, checkpoints, value };
  }

  it('goes on after a crash from the last checkpointed batch, saving every track once', async () => {
    const plan = libraryPlan('album', stored(true), [
      item(0, 'a'),
      item(5, 'b'),
      item(1, 'x'),
      item(2, 'y'),
      item(3, 'z'),
      item(4, 'w'),
    ]);
    const target = destination(2);
    const first = context(undefined);
    await expect(
      saveToLibrary(
        target.provider,
        plan,
        undefined as (LibraryJobState & { added: number }) | undefined,
        first.context,
        5,
      ),
    ).rejects.toThrow('crash');
    expect(target.albums).toEqual(['al1']);
    expect(first.value.state).toMatchObject({ albumSaved: true, saved: 2 });

    const second = context(first.value.state);
    const done = await saveToLibrary(
      target.provider,
      plan,
      first.value.state as LibraryJobState & { added: number },
      second.context,
      5,
    );
    expect(done).toMatchObject({ librarySaved: true, saved: 4, albumSaved: true });
    expect(target.saved).toEqual(['uri:x', 'uri:y', 'uri:z', 'uri:w']);
    expect(target.albums).toEqual(['al1']);

    // A run after everything was saved writes nothing.
    await saveToLibrary(target.provider, plan, done, context(done).context, 5);
    expect(target.saved).toHaveLength(4);
  });
});
