import { describe, expect, it } from 'vitest';
import { onboardingRouteFor as routeFromMessages } from '../../shared/onboarding-routing';
import type { CandidateSummary, ChatMessage, MergeInsightInput, TrackSummary } from './engine';
import { inventedNumbers } from './insight-numbers';
import { LocalAiEngine } from './local-engine';
import { localMergeInsight } from './local-merge-insight';
import { classifyIntent } from './local-onboarding';

const engine = new LocalAiEngine();

const source: TrackSummary = {
  name: 'Dreams',
  artists: ['Fleetwood Mac'],
  album: 'Rumours',
  durationMs: 257_800,
  explicit: false,
  versionLabels: [],
  albumType: 'album',
};

function candidate(id: string, overrides: Partial<CandidateSummary> = {}): CandidateSummary {
  return { ...source, id, score: 80, ...overrides };
}

describe('local tie-break', () => {
  it('prefers the same version over a higher-scoring live recording', async () => {
    const result = await engine.breakTie({
      source,
      candidates: [
        candidate('live', {
          name: 'Dreams (Live)',
          versionLabels: ['live'],
          score: 89,
          durationMs: 258_000,
        }),
        candidate('studio', { score: 74, durationMs: 258_400 }),
      ],
    });
    expect(result.chosenId).toBe('studio');
    expect(result.reason).toContain('another version (live');
  });

  it('prefers the closer duration when versions agree', async () => {
    const result = await engine.breakTie({
      source,
      candidates: [
        candidate('far', { durationMs: 261_500, score: 85 }),
        candidate('near', { durationMs: 257_500 }),
      ],
    });
    expect(result.chosenId).toBe('near');
    expect(result.reason).toContain('0.3 s apart');
  });

  it('prefers the same explicit flag, and the album over a compilation', async () => {
    const explicitSource = { ...source, explicit: true };
    const byFlag = await engine.breakTie({
      source: explicitSource,
      candidates: [
        candidate('clean', { explicit: false, score: 88 }),
        candidate('explicit', { explicit: true }),
      ],
    });
    expect(byFlag.chosenId).toBe('explicit');

    const byAlbum = await engine.breakTie({
      source,
      candidates: [
        candidate('hits', { album: 'Greatest Hits', albumType: 'compilation', score: 86 }),
        candidate('rumours', { score: 80 }),
      ],
    });
    expect(byAlbum.chosenId).toBe('rumours');
  });

  it('treats remaster labels as the same performance but prefers the matching edition', async () => {
    const remastered = { ...source, versionLabels: ['remaster 2004'] };
    const result = await engine.breakTie({
      source: remastered,
      candidates: [
        candidate('plain', { score: 86 }),
        candidate('remaster', { versionLabels: ['remaster 2004', 'clean'], score: 80 }),
      ],
    });
    expect(result.chosenId).toBe('remaster');
    const onlyPlain = await engine.breakTie({
      source: remastered,
      candidates: [candidate('plain', { score: 86 })],
    });
    expect(onlyPlain.chosenId).toBe('plain');
    expect(onlyPlain.reason).toContain('original edition');
  });

  it('chooses none when every candidate is another version or too far apart', async () => {
    const result = await engine.breakTie({
      source,
      candidates: [
        candidate('remix', { versionLabels: ['remix'] }),
        candidate('long', { durationMs: 300_000 }),
      ],
    });
    expect(result.chosenId).toBeNull();
    expect(result.reason).toMatch(/None is the same recording/);
  });

  it('is more confident with more agreeing evidence', async () => {
    const strong = await engine.breakTie({
      source: { ...source, isrc: 'USWB10002414' },
      candidates: [candidate('a', { isrc: 'uswb1-0002414', score: 85 })],
    });
    const weak = await engine.breakTie({
      source,
      candidates: [candidate('a', { durationMs: 261_000, explicit: true, score: 72 })],
    });
    expect(strong.chosenId).toBe('a');
    expect(strong.confidence).toBeGreaterThan(weak.confidence);
    expect(strong.reason).toContain('same ISRC');
  });

  it('gives the same answer for the same input, whatever the candidate order', async () => {
    const candidates = [candidate('b'), candidate('a'), candidate('c', { durationMs: 257_900 })];
    const first = await engine.breakTie({ source, candidates });
    const again = await engine.breakTie({ source, candidates: [...candidates].reverse() });
    expect(again).toEqual(first);
  });
});

const mergeInput: MergeInsightInput = {
  yourName: 'Ana',
  friendName: 'Sam',
  sharedArtists: ['Radiohead', 'Björk'],
  sharedGenres: ['art rock'],
  yourTopGenres: ['art rock', 'electronic'],
  friendTopGenres: ['jazz', 'art rock'],
  overlapTrackCount: 7,
  totalTracks: 40,
  mixRatio: [60, 40],
  bridgeTrackCount: 4,
};

describe('local merge insight', () => {
  it('states the real shared artists, genres and counts', async () => {
    const { insightSummary, playlistName } = await engine.mergeInsight(mergeInput);
    expect(insightSummary).toContain('Radiohead');
    expect(insightSummary).toContain('Björk');
    expect(insightSummary.toLowerCase()).toContain('art rock');
    expect(insightSummary).toContain('7 of the 40 tracks');
    expect(insightSummary).toContain('18%');
    expect(insightSummary).toContain('60% you / 40% Sam');
    expect(insightSummary).toContain('4 bridge tracks');
    expect(playlistName).toContain('Ana × Sam');
    expect(playlistName).toContain('Art Rock');
  });

  it('names both people and never says "you" when anyone may read it (the public page)', async () => {
    for (const input of [
      { ...mergeInput, audience: 'public' as const },
      {
        ...mergeInput,
        audience: 'public' as const,
        sharedGenres: [],
        sharedArtists: [],
        overlapTrackCount: 0,
      },
    ]) {
      const { insightSummary } = await engine.mergeInsight(input);
      expect(insightSummary).not.toMatch(/\byou(r)?\b/i);
      expect(insightSummary).toContain('60% Ana / 40% Sam');
      expect(insightSummary).toMatch(/Ana/);
    }
  });

  it('fits the verb to one name or several', () => {
    const seeds = Array.from({ length: 40 }, (_, n) => ({
      ...mergeInput,
      overlapTrackCount: n % 7,
      friendName: `Sam${n}`,
    }));
    const sentences = (artists: string[]) =>
      seeds.map((input) => localMergeInsight({ ...input, sharedArtists: artists }).insightSummary);
    const one = sentences(['Priya Fischer']).join(' ');
    expect(one).toContain('Priya Fischer shows up on both sides');
    expect(one).not.toContain('Priya Fischer show up');
    expect(one).not.toContain('Priya Fischer are');
    const several = sentences(['Priya Fischer', 'Björk']).join(' ');
    expect(several).toContain('Priya Fischer and Björk show up on both sides');
  });

  it('never states a number the input does not hold', async () => {
    const inputs: MergeInsightInput[] = [
      mergeInput,
      {
        ...mergeInput,
        sharedArtists: ['blink-182', 'A', 'B', 'C', 'D'],
        overlapTrackCount: 0,
        bridgeTrackCount: 0,
      },
      {
        ...mergeInput,
        sharedGenres: [],
        sharedArtists: [],
        mixRatio: [20, 80],
        totalTracks: 3,
        overlapTrackCount: 1,
      },
    ];
    for (const input of inputs) {
      const { insightSummary, playlistName } = await engine.mergeInsight(input);
      expect(inventedNumbers(`${insightSummary} ${playlistName}`, input)).toEqual([]);
    }
  });

  it('says plainly when nothing is shared', async () => {
    const { insightSummary } = await engine.mergeInsight({
      ...mergeInput,
      sharedArtists: [],
      sharedGenres: [],
      overlapTrackCount: 0,
    });
    expect(insightSummary).toContain('no artist in common');
    expect(insightSummary).toContain('your side leans art rock and electronic');
    expect(insightSummary).toContain('None of the 40 tracks');
  });

  it('is deterministic, and its wording varies with the input', async () => {
    expect(await engine.mergeInsight(mergeInput)).toEqual(await engine.mergeInsight(mergeInput));
    const phrasings = new Set<string>();
    for (const friendName of ['Sam', 'Lee', 'Kai', 'Noor', 'Ola', 'Tom', 'Eli', 'Mia']) {
      const { insightSummary } = await engine.mergeInsight({ ...mergeInput, friendName });
      phrasings.add(insightSummary.split('.')[0]?.replace(friendName, 'X') ?? '');
    }
    expect(phrasings.size).toBeGreaterThan(1);
  });
});

describe('local region explanation', () => {
  it('names the track, the region and what kind of alternative was found', async () => {
    const alternative = { ...source, album: 'Rumours (Super Deluxe)', versionLabels: ['remaster'] };
    const same = await engine.geoLockExplanation({
      track: source,
      targetRegion: 'jp',
      alternative,
      kind: 'same_recording',
    });
    expect(same.explanation).toContain('"Dreams" by Fleetwood Mac');
    expect(same.explanation).toContain('Japan (JP)');
    expect(same.explanation).toContain('same recording');

    const other = await engine.geoLockExplanation({
      track: source,
      targetRegion: 'BR',
      alternative: { ...source, name: 'Dreams (Live)', versionLabels: ['live'] },
      kind: 'other_version',
    });
    expect(other.explanation).toContain('"Dreams (Live)" (live)');
    expect(other.explanation).toContain('sound different');

    const none = await engine.geoLockExplanation({
      track: source,
      targetRegion: 'KR',
      alternative: null,
      kind: 'none',
    });
    expect(none.explanation).toContain('No other release');
  });
});

const user = (content: string): ChatMessage => ({ type: 'user', content });

describe('local onboarding reply', () => {
  it('opens with a welcome and one quick reply per destination', async () => {
    const reply = await engine.onboardingReply({ messages: [] });
    expect(reply.content).toContain('Welcome to Crossfade');
    expect(reply.options).toEqual([
      'Transfer a playlist',
      'Set up a backup',
      'Merge with a friend',
      'Recover something I lost',
    ]);
    expect(reply.suggestedRoute).toBe('/transfer');
  });

  it('answers specific questions with the facts', async () => {
    const ask = async (text: string) => (await engine.onboardingReply({ messages: [user(text)] })).content;
    expect(await ask('How does matching work?')).toContain('ISRC');
    expect(await ask('Why can I only append on Apple Music?')).toMatch(/create a playlist and add tracks/);
    expect(await ask("I'm self-hosting, anything to know about the Spotify developer dashboard?")).toContain(
      'at most 5 users',
    );
    const plans = await ask('How much does Pro cost?');
    expect(plans).toContain('1 transfer per month');
    expect(plans).toContain('unlimited');
    expect(plans).toMatch(/Vault\+ adds backups.*ZIP.*cloud/);
  });

  it('suggests the route from the spec rule', async () => {
    const reply = await engine.onboardingReply({ messages: [user('I need a backup')] });
    expect(reply.suggestedRoute).toBe('/vault');
    expect(reply.content).toContain('Vault+');
  });

  it('keeps each quick reply pointing where it says once the answer joins the chat', async () => {
    const welcome = await engine.onboardingReply({ messages: [] });
    const expected: Record<string, string> = {
      'Transfer a playlist': '/transfer',
      'Set up a backup': '/vault',
      'Merge with a friend': '/merge',
      'Recover something I lost': '/recreate',
    };
    for (const option of welcome.options ?? []) {
      const chat: ChatMessage[] = [{ type: 'assistant', content: welcome.content }, user(option)];
      const answer = await engine.onboardingReply({ messages: chat });
      expect(answer.suggestedRoute).toBe(expected[option]);
      // The person presses Complete after the answer: the route must not drift.
      expect(routeFromMessages([...chat, { type: 'assistant', content: answer.content }])).toBe(
        expected[option],
      );
    }
  });

  it('classifies intents by keywords, specific ones before generic transfer words', () => {
    expect(classifyIntent([user('I lost my Spotify playlist')])).toBe('recreate');
    expect(classifyIntent([user('What does Vault+ cost?')])).toBe('vault_cost');
    expect(classifyIntent([user('Rebuild from an old export')])).toBe('recreate_export');
    expect(classifyIntent([user('How are bridge tracks chosen?')])).toBe('bridge_tracks');
    expect(classifyIntent([user('Can I keep my playlists in sync?')])).toBe('sync');
    expect(classifyIntent([user('asdf')])).toBe('unknown');
  });

  it('gives every follow-up its own answer, never the paragraph just said (issue 23)', async () => {
    // Walk the quick replies three answers deep: no answer repeats the assistant's message before it.
    let frontier: ChatMessage[][] = [[]];
    let asked = 0;
    for (let depth = 0; depth < 3; depth += 1) {
      const next: ChatMessage[][] = [];
      for (const chat of frontier) {
        const reply = await engine.onboardingReply({ messages: chat });
        const previous = chat.findLast((message) => message.type === 'assistant')?.content;
        expect(reply.content, JSON.stringify(chat.at(-1))).not.toBe(previous);
        asked += 1;
        const answered: ChatMessage[] = [...chat, { type: 'assistant', content: reply.content }];
        for (const option of reply.options ?? []) next.push([...answered, user(option)]);
      }
      frontier = next;
    }
    expect(asked).toBeGreaterThan(10);

    const merge = await engine.onboardingReply({ messages: [user('Merge with a friend')] });
    const bridges = await engine.onboardingReply({
      messages: [
        user('Merge with a friend'),
        { type: 'assistant', content: merge.content },
        user('How are bridge tracks chosen?'),
      ],
    });
    expect(bridges.content).not.toBe(merge.content);
    expect(bridges.content).toMatch(/^Bridge tracks are songs/);
    expect(bridges.suggestedRoute).toBe('/merge');
  });

  it('routes a question about keeping playlists in sync to /syncs', async () => {
    const reply = await engine.onboardingReply({
      messages: [user('Can I keep my Spotify and Apple Music playlists in sync?')],
    });
    expect(reply.suggestedRoute).toBe('/syncs');
    expect(reply.content).toMatch(/^Sync keeps two lists the same/);
  });

  it('answers the same conversation the same way', async () => {
    const messages = [
      user('hi'),
      { type: 'assistant' as const, content: 'Hello' },
      user('merge with my friend'),
    ];
    expect(await engine.onboardingReply({ messages })).toEqual(await engine.onboardingReply({ messages }));
  });
});
