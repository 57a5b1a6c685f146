/**
 * The pipeline's own logic (batching, early stop, dedupe, cache, tie-breaker) against a minimal fake of the
 * destination service. The fake stands in for the external boundary only: everything under test is real.
 * `pipeline.contract.ts` holds the suite that runs against real provider clients.
 */
import { describe, expect, it } from 'vitest';
import { NOT_PLAYABLE_HERE_REASON } from '../../shared/api/transfer';
import type { MusicProvider, NormalizedTrack, TrackQuery } from '../providers/types';
import { MemoryMatchCache } from './cache';
import { matchTracks, SEARCH_LIMIT, type TieBreaker } from './pipeline';
import { queryKey } from './strategies';

class FakeDestination implements MusicProvider {
  readonly service = 'apple' as const;
  readonly addBatchSize = 100;
  readonly appendOnly = true;
  readonly isrcCalls: string[][] = [];
  readonly searches: { query: TrackQuery; region: string | undefined }[] = [];

  constructor(
    private readonly catalog: NormalizedTrack[],
    readonly isrcBatchSize = 25,
    /** Which queries find anything: by default every query whose words all appear in the track. */
    private readonly answers?: (query: TrackQuery) => NormalizedTrack[],
  ) {}

  async lookupIsrcs(isrcs: string[]): Promise<Map<string, NormalizedTrack[]>> {
    this.isrcCalls.push([...isrcs]);
    return new Map(isrcs.map((isrc) => [isrc, this.catalog.filter((t) => t.isrc === isrc)]));
  }

  async searchTracks(
    query: TrackQuery,
    options?: { limit?: number; region?: string },
  ): Promise<NormalizedTrack[]> {
    this.searches.push({ query, region: options?.region });
    if (this.answers) return this.answers(query);
    const words = Object.values(query).join(' ').toLowerCase().split(/\s+/).filter(Boolean);
    return this.catalog.filter((t) => {
      const text = `${t.name} ${t.artists.join(' ')} ${t.album}`.toLowerCase();
      return words.every((w) => text.includes(w));
    });
  }

  private unused(): never {
    throw new Error('not part of matching');
  }
  getCurrentUser = async () => this.unused();
  listPlaylists = async () => this.unused();
  getPlaylist = async () => this.unused();
  getTrack = async () => this.unused();
  createPlaylist = async () => this.unused();
  addTracks = async () => this.unused();
  getAvailability = async () => this.unused();
  readSharedPlaylist = async () => this.unused();
  listLibrary = async () => this.unused();
  saveTracks = async () => this.unused();
  saveAlbums = async () => this.unused();
  savedTracksContain = async () => this.unused();
  findAlbums = async () => this.unused();
  getAlbumTracks = async () => this.unused();
}

function song(
  id: string,
  name: string,
  artists: string[],
  extra: Partial<NormalizedTrack> = {},
): NormalizedTrack {
  return { id, uri: id, name, artists, album: name, durationMs: 200_000, ...extra };
}

function isrcFor(n: number): string {
  return `USAAA${String(2_000_000 + n).padStart(7, '0')}`;
}

describe('matchTracks against a fake destination', () => {
  it('looks ISRCs up in batches of the provider size, once each, and then searches nothing', async () => {
    const sources = Array.from({ length: 60 }, (_, i) =>
      song(`s${i}`, `Song ${i}`, ['Band'], { isrc: isrcFor(i) }),
    );
    sources.push(song('dup', 'Song 3', ['Band'], { isrc: isrcFor(3).toLowerCase() }));
    const catalog = sources.slice(0, 60).map((s, i) => ({ ...s, id: `a${i}`, uri: `a${i}` }));
    const destination = new FakeDestination(catalog, 25);

    const matches = await matchTracks(sources, destination);

    expect(destination.isrcCalls.map((batch) => batch.length)).toEqual([25, 25, 10]);
    expect(new Set(destination.isrcCalls.flat()).size).toBe(60);
    expect(destination.searches).toEqual([]);
    expect(matches.every((m) => m.status === 'accepted')).toBe(true);
    expect(matches.at(-1)?.best?.track.id).toBe('a3');
    expect(matches[0]?.reasons).toContain('ISRC match');
  });

  it('never chooses or lists a candidate the person cannot play, however well it matches', async () => {
    const source = song('s1', 'Midnight Train', ['Harbor Lights'], { isrc: isrcFor(1) });
    const destination = new FakeDestination([
      // The same recording, but not playable where the person is (no playParams / is_playable: false).
      { ...source, id: 'locked', uri: 'locked', availability: { playable: false } },
      { ...source, id: 'open', uri: 'open', isrc: isrcFor(2), availability: { playable: true } },
    ]);
    const [match] = await matchTracks([source], destination);
    expect(match?.best?.track.id).toBe('open');
    expect(match?.candidates.map((candidate) => candidate.track.id)).not.toContain('locked');

    const onlyLocked = new FakeDestination([
      { ...source, id: 'locked', uri: 'locked', availability: { playable: false } },
    ]);
    const [none] = await matchTracks([source], onlyLocked);
    expect(none?.best).toBeNull();
    expect(none?.candidates).toEqual([]);
  });

  it('stops trying strategies at the first accepted candidate', async () => {
    const target = song('a1', 'Heaven', ['Bryan Adams'], { album: 'Reckless' });
    const destination = new FakeDestination([target], 25, (query) => (query.text ? [target] : []));
    const [match] = await matchTracks(
      [song('s1', 'Heaven', ['Bryan Adams'], { album: 'Reckless' })],
      destination,
    );

    expect(match?.status).toBe('accepted');
    expect(destination.searches.map((s) => Object.keys(s.query))).toEqual([['title', 'artist'], ['text']]);
  });

  it('tries every strategy once for a song without ISRC the catalog lacks, then reports it unmatched', async () => {
    const destination = new FakeDestination([]);
    const [match] = await matchTracks(
      [song('s1', 'Heaven - Acoustic', ['Bryan Adams'], { album: 'Unplugged' })],
      destination,
    );
    expect(match).toMatchObject({
      status: 'unmatched',
      best: null,
      confidence: 0,
      reasons: ['no candidates found'],
    });
    expect(destination.isrcCalls).toEqual([]);
    expect(destination.searches.map((s) => queryKey(s.query))).toHaveLength(5);
  });

  it('searches by title and artist only, when the ISRC answer proves the recording absent', async () => {
    const destination = new FakeDestination([]);
    const [match] = await matchTracks(
      [song('s1', 'Heaven - Acoustic', ['Bryan Adams'], { album: 'Unplugged', isrc: isrcFor(1) })],
      destination,
    );
    expect(match).toMatchObject({ status: 'unmatched', best: null, reasons: ['no candidates found'] });
    expect(destination.isrcCalls).toEqual([[isrcFor(1)]]);
    // An ISRC identifies a recording: the broader searches would only bring other ones. The title's page
    // had room to spare, so it listed every recording of that title by that artist: the album search would
    // find nothing more, and the artist's list found nothing more either (decision 0044).
    expect(destination.searches.map((s) => s.query)).toEqual([
      { title: 'Heaven - Acoustic', artist: 'Bryan Adams' },
    ]);
  });

  it('searches the album too for a title in another script, whose romanizations may disagree', async () => {
    const destination = new FakeDestination([]);
    await matchTracks(
      [song('s1', '夜に駆ける', ['YOASOBI'], { album: 'THE BOOK', isrc: isrcFor(1) })],
      destination,
    );
    const queries = destination.searches.map((s) => s.query);
    expect(queries[0]).toEqual({ title: '夜に駆ける', artist: 'YOASOBI' });
    expect(queries).toContainEqual({ album: 'THE BOOK', artist: 'YOASOBI' });
    expect(queries).not.toContainEqual({ artist: 'YOASOBI' });
  });

  it('still finds a recording filed under another ISRC with that one search', async () => {
    const remaster = song('a1', 'Heaven', ['Bryan Adams'], { album: 'Reckless', isrc: isrcFor(99) });
    const destination = new FakeDestination([remaster]);
    const [match] = await matchTracks(
      [song('s1', 'Heaven', ['Bryan Adams'], { album: 'Reckless', isrc: isrcFor(1) })],
      destination,
    );
    expect(match?.status).toBe('accepted');
    expect(match?.best?.track.id).toBe('a1');
    expect(destination.searches).toHaveLength(1);
  });

  it('treats an ISRC answered only by songs the person cannot play as absent: one search finds a playable copy', async () => {
    // Apple lists some songs it cannot stream in a storefront (no playParams). No other search than title +
    // artist can find that recording playable elsewhere (decision 0051).
    const source = song('s1', 'Midnight Train', ['Harbor Lights'], { album: 'Night', isrc: isrcFor(1) });
    const locked = { ...source, id: 'locked', uri: 'locked', availability: { playable: false } };
    const compilation = { ...source, id: 'open', uri: 'open', album: 'Best Of', isrc: isrcFor(2) };
    const destination = new FakeDestination([locked, compilation]);
    const [match] = await matchTracks([source], destination);
    expect(match?.best?.track.id).toBe('open');
    expect(destination.searches.map((s) => s.query)).toEqual([
      { title: 'Midnight Train', artist: 'Harbor Lights' },
    ]);

    const lockedOnly = new FakeDestination([locked]);
    const [none] = await matchTracks([source], lockedOnly);
    expect(none?.status).toBe('unmatched');
    // Not "no candidates found": the service has it, the person cannot play it there.
    expect(none?.reasons).toEqual([NOT_PLAYABLE_HERE_REASON]);
    expect(lockedOnly.searches.map((s) => s.query)).toEqual([
      { title: 'Midnight Train', artist: 'Harbor Lights' },
    ]);
  });

  it('keeps every search when the ISRC answer holds a playable song that was not accepted', async () => {
    // Counter-example: one playable song beside the locked one proves nothing about the recording.
    const source = song('s1', 'Midnight Train', ['Harbor Lights'], { album: 'Night', isrc: isrcFor(1) });
    const destination = new FakeDestination([
      { ...source, id: 'locked', uri: 'locked', availability: { playable: false } },
      song('a-wrong', 'Another Song', ['Someone Else'], { isrc: isrcFor(1) }),
    ]);
    await matchTracks([source], destination);
    expect(destination.searches.map((s) => s.query)).toContainEqual({ artist: 'Harbor Lights' });
  });

  it('keeps searching when the ISRC found songs but none could be accepted', async () => {
    // A wrongly reported ISRC (a compilation's): the lookup answers, with another song, so nothing is proven.
    const wrong = song('a-wrong', 'Another Song', ['Someone Else'], { isrc: isrcFor(1) });
    const target = song('a1', 'Heaven', ['Bryan Adams'], { album: 'Reckless' });
    const destination = new FakeDestination([wrong, target], 25, (query) => (query.text ? [target] : []));
    const [match] = await matchTracks(
      [song('s1', 'Heaven', ['Bryan Adams'], { album: 'Reckless', isrc: isrcFor(1) })],
      destination,
    );
    expect(match?.best?.track.id).toBe('a1');
    expect(destination.searches.map((s) => Object.keys(s.query))).toEqual([['title', 'artist'], ['text']]);
  });

  it('fills the last ISRC batch with the lookahead, so the next chunk finds those in the cache', async () => {
    const tracks = Array.from({ length: 60 }, (_, i) =>
      song(`s${i}`, `Song ${i}`, ['Band'], { isrc: isrcFor(i) }),
    );
    const catalog = tracks.map((t, i) => ({ ...t, id: `a${i}`, uri: `a${i}` }));
    const destination = new FakeDestination(catalog, 25);
    const cache = new MemoryMatchCache();
    const isrcsOf = (list: NormalizedTrack[]) => list.map((t) => t.isrc ?? '');
    // Three chunks of 20: without the lookahead that is 3 calls of 20, with it 25 + 25 + 10.
    for (let start = 0; start < 60; start += 20) {
      const matches = await matchTracks(tracks.slice(start, start + 20), destination, {
        cache,
        isrcLookahead: isrcsOf(tracks.slice(start + 20)),
      });
      expect(matches.map((m) => m.best?.track.id)).toEqual(catalog.slice(start, start + 20).map((t) => t.id));
    }
    expect(destination.isrcCalls.map((batch) => batch.length)).toEqual([25, 25, 10]);
    expect(destination.isrcCalls.flat().sort()).toEqual(isrcsOf(tracks).sort());
  });

  it('offers a live version as an alternative but never as the match', async () => {
    const live = song('a-live', 'Heaven (Live)', ['Bryan Adams']);
    const destination = new FakeDestination([live]);
    const [match] = await matchTracks([song('s1', 'Heaven', ['Bryan Adams'])], destination);
    expect(match?.status).toBe('unmatched');
    expect(match?.best).toBeNull();
    expect(match?.candidates[0]?.track.id).toBe('a-live');
    expect(match?.candidates[0]?.versionLabels).toContain('live');
    expect(match?.reasons).toContain('different version: live');
  });

  it('sends a query shared by several source tracks once', async () => {
    const target = song('a1', 'Yellow', ['Coldplay']);
    const destination = new FakeDestination([target]);
    const sources = [
      song('s1', 'Yellow', ['Coldplay']),
      song('s2', 'Yellow', ['Coldplay']),
      song('s3', 'Yellow', ['Coldplay']),
    ];
    const matches = await matchTracks(sources, destination, { concurrency: 3 });
    expect(matches.map((m) => m.best?.track.id)).toEqual(['a1', 'a1', 'a1']);
    expect(destination.searches).toHaveLength(1);
  });

  it('answers a second run from the cache, per region', async () => {
    const catalog = [
      song('a1', 'Yellow', ['Coldplay'], { isrc: isrcFor(7) }),
      song('a2', 'Clocks', ['Coldplay']),
    ];
    const sources = [
      song('s1', 'Yellow', ['Coldplay'], { isrc: isrcFor(7) }),
      song('s2', 'Clocks', ['Coldplay']),
    ];
    const cache = new MemoryMatchCache();
    const first = new FakeDestination(catalog);
    const firstRun = await matchTracks(sources, first, { cache, region: 'us' });

    const second = new FakeDestination(catalog);
    const secondRun = await matchTracks(sources, second, { cache, region: 'us' });
    expect(second.isrcCalls).toEqual([]);
    expect(second.searches).toEqual([]);
    expect(secondRun.map((m) => m.best?.track.id)).toEqual(firstRun.map((m) => m.best?.track.id));

    const otherRegion = new FakeDestination(catalog);
    await matchTracks(sources, otherRegion, { cache, region: 'jp' });
    expect(otherRegion.isrcCalls).toHaveLength(1);
    expect(otherRegion.searches.every((s) => s.region === 'jp')).toBe(true);
  });

  it('asks the tie-breaker only about close calls in the review band, and follows its choice', async () => {
    // Two releases 7 s off the source: both land in review with the same score.
    const a = song('a1', 'Intro', ['The xx'], { album: 'xx', durationMs: 207_000 });
    const b = song('a2', 'Intro', ['The xx'], { album: 'xx (Deluxe)', durationMs: 193_000 });
    const exact = song('a3', 'Crystalised', ['The xx'], { album: 'xx' });
    const destination = new FakeDestination([a, b, exact]);
    const asked: string[] = [];
    const tieBreaker: TieBreaker = async (source, candidates) => {
      asked.push(source.id);
      expect(
        candidates
          .slice(0, 2)
          .map((c) => c.track.id)
          .sort(),
      ).toEqual(['a1', 'a2']);
      return {
        chosenId: 'a2',
        confidence: 91,
        reason: 'the deluxe edition is the one on the source playlist',
      };
    };
    const [intro, crystalised] = await matchTracks(
      [
        song('s1', 'Intro', ['The xx'], { album: 'xx' }),
        song('s2', 'Crystalised', ['The xx'], { album: 'xx' }),
      ],
      destination,
      { tieBreaker },
    );
    expect(asked).toEqual(['s1']);
    expect(intro).toMatchObject({ status: 'accepted', confidence: 91 });
    expect(intro?.best?.track.id).toBe('a2');
    expect(intro?.reasons.at(-1)).toBe('tie-breaker: the deluxe edition is the one on the source playlist');
    expect(crystalised?.best?.track.id).toBe('a3');
  });

  it('reports progress for every track and keeps the source order', async () => {
    const catalog = Array.from({ length: 8 }, (_, i) => song(`a${i}`, `Track ${i}`, ['Band']));
    const sources = Array.from({ length: 8 }, (_, i) => song(`s${i}`, `Track ${i}`, ['Band']));
    const progress: number[] = [];
    const matches = await matchTracks(sources, new FakeDestination(catalog), {
      concurrency: 3,
      onProgress: (done, total) => {
        expect(total).toBe(8);
        progress.push(done);
      },
    });
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(matches.map((m) => m.sourceId)).toEqual(sources.map((s) => s.id));
  });
});

describe('rescue searches, when nothing found is worth a review', () => {
  // A prolific artist whose one-page answers are full of their other songs, as a catalog ranks a short or
  // common title: only a query that names what else the source says narrows it to the right one.
  const crowd = Array.from({ length: SEARCH_LIMIT }, (_, i) =>
    song(`o${i}`, `Me and You ${i}`, ['Taylor Swift'], { durationMs: 180_000 + i * 1_000 }),
  );
  function crowdedCatalog(narrowed: NormalizedTrack[], word: string) {
    return (query: TrackQuery) =>
      Object.values(query).join(' ').toLowerCase().includes(word) ? narrowed : crowd;
  }
  // The source credits the guest as an artist; the title carries nothing else to search by.
  const me = song('s1', 'ME!', ['Taylor Swift', 'Brendon Urie'], { album: 'Lover', durationMs: 193_000 });

  it('finds a short title crowded out of the page by naming the other credited artist', async () => {
    const right = song('a1', 'ME!', ['Taylor Swift', 'Brendon Urie'], {
      album: 'Lover',
      durationMs: 193_500,
    });
    const destination = new FakeDestination([], 25, crowdedCatalog([right], 'brendon'));
    const [match] = await matchTracks([me], destination);
    expect(match?.status).toBe('accepted');
    expect(match?.best?.track.id).toBe('a1');
    expect(destination.searches.at(-1)?.query).toEqual({ text: 'ME! Taylor Swift Brendon Urie' });
  });

  it('still leaves another recording found that way unmatched', async () => {
    // Counter-example: the narrowed search finds the song live; the version gate keeps it out.
    const live = song('a2', 'ME! - Live', ['Taylor Swift', 'Brendon Urie'], {
      album: 'Lover',
      durationMs: 193_500,
    });
    const [match] = await matchTracks([me], new FakeDestination([], 25, crowdedCatalog([live], 'brendon')));
    expect(match?.status).toBe('unmatched');
    expect(match?.best).toBeNull();
    expect(match?.candidates.map((c) => c.track.id)).toContain('a2');
  });

  it('finds a title in another script by the segment the title query left out, written as the source does', async () => {
    const source = song('s2', 'ХОТБОКС (prod. by Young Royce)', ['SODA LUV'], { durationMs: 96_100 });
    const right = song('a3', 'HOTBOKS (prod. by Young Royce)', ['SODA LUV'], { durationMs: 97_000 });
    const destination = new FakeDestination([], 25, crowdedCatalog([right], 'royce'));
    const [match] = await matchTracks([source], destination);
    expect(match?.best?.track.id).toBe('a3');
    expect(match?.status).toBe('accepted');
    expect(
      destination.searches.some((s) => s.query.text === 'KhOTBOKS (prod. by Young Royce) SODA LUV'),
    ).toBe(true);
  });

  it('keeps a same-titled song by another performer found that way unmatched', async () => {
    // Counter-example: the written title finds the title, but another artist's.
    const source = song('s3', 'ХОТБОКС (prod. by Young Royce)', ['SODA LUV'], { durationMs: 96_100 });
    const other = song('a4', 'HOTBOKS (prod. by Young Royce)', ['Young Royce'], { durationMs: 96_500 });
    const [match] = await matchTracks(
      [source],
      new FakeDestination([], 25, crowdedCatalog([other], 'royce')),
    );
    expect(match?.status).toBe('unmatched');
  });

  it('spends no rescue search once something is worth a review', async () => {
    const right = song('a5', 'ME!', ['Taylor Swift', 'Brendon Urie'], {
      album: 'Lover',
      durationMs: 193_500,
    });
    const destination = new FakeDestination([right]);
    await matchTracks([me], destination);
    expect(destination.searches.map((s) => s.query)).toEqual([{ title: 'ME!', artist: 'Taylor Swift' }]);
  });

  it('after an ISRC answer that proves the recording absent, spends no title or credits search', async () => {
    // Counter-example to the rescue: that answer already says the catalog lacks the recording, so only the
    // search that finds it under another code is spent (the album too when the title's page was full of
    // look-alikes or the name is in another script: tested below).
    const destination = new FakeDestination([]);
    const source = song('s4', 'Home (prod. by Someone)', ['Band', 'Guest'], { isrc: isrcFor(4) });
    const [match] = await matchTracks([source], destination);
    expect(match?.status).toBe('unmatched');
    expect(destination.searches.map((s) => s.query)).toEqual([{ title: 'Home', artist: 'Band' }]);
  });

  it('after such an answer and a title page full of covers, finds the recording filed under another code on its album', async () => {
    const source = song('s5', 'Heart Of Glass', ['Blondie'], { album: 'Parallel Lines', isrc: isrcFor(5) });
    const right = song('a6', 'Heart Of Glass', ['Blondie'], { album: 'Parallel Lines' });
    const covers = Array.from({ length: SEARCH_LIMIT }, (_, i) =>
      song(`c${i}`, 'Heart Of Glass', [`Cover Band ${i}`], { album: 'Covers' }),
    );
    const byAlbum = (query: TrackQuery) => (query.album === 'Parallel Lines' ? [right] : covers);
    const [match] = await matchTracks([source], new FakeDestination([], 25, byAlbum));
    expect(match?.best?.track.id).toBe('a6');
    expect(match?.status).toBe('accepted');
  });

  it('still leaves another recording on that album unmatched', async () => {
    // Counter-example: the title's page is full of covers and the album answers only with the song live.
    const source = song('s6', 'Heart Of Glass', ['Blondie'], { album: 'Parallel Lines', isrc: isrcFor(6) });
    const live = song('a7', 'Heart Of Glass - Live', ['Blondie'], { album: 'Parallel Lines' });
    const covers = Array.from({ length: SEARCH_LIMIT }, (_, i) =>
      song(`c${i}`, 'Heart Of Glass', [`Cover Band ${i}`], { album: 'Covers' }),
    );
    const byAlbum = (query: TrackQuery) => (query.album === 'Parallel Lines' ? [live] : covers);
    const destination = new FakeDestination([], 25, byAlbum);
    const [match] = await matchTracks([source], destination);
    expect(destination.searches.map((s) => s.query)).toContainEqual({
      album: 'Parallel Lines',
      artist: 'Blondie',
    });
    expect(match?.status).toBe('unmatched');
    expect(match?.best).toBeNull();
  });
});
