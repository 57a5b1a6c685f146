import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NormalizedTrack } from '../providers/types';
import { ACCEPT_THRESHOLD, REVIEW_THRESHOLD, rankCandidates, scoreCandidate, statusFor } from './score';

let nextId = 0;
function track(
  fields: Partial<NormalizedTrack> & Pick<NormalizedTrack, 'name' | 'artists'>,
): NormalizedTrack {
  nextId++;
  return { id: `t${nextId}`, uri: `u${nextId}`, album: '', durationMs: 200_000, ...fields };
}

function spotifyAndApple(
  spotify: Partial<NormalizedTrack> & Pick<NormalizedTrack, 'name' | 'artists'>,
  apple: Partial<NormalizedTrack> & Pick<NormalizedTrack, 'name' | 'artists'>,
) {
  return scoreCandidate(track(spotify), track(apple));
}

describe('bands', () => {
  it('puts 90+ in accepted, 70-89 in review and the rest in unmatched', () => {
    expect([statusFor(90), statusFor(89), statusFor(70), statusFor(69)]).toEqual([
      'accepted',
      'review',
      'review',
      'unmatched',
    ]);
    expect([ACCEPT_THRESHOLD, REVIEW_THRESHOLD]).toEqual([90, 70]);
  });
});

describe('the same recording as each service writes it is accepted', () => {
  it.each<[string, Parameters<typeof spotifyAndApple>[0], Parameters<typeof spotifyAndApple>[1]]>([
    [
      'remaster note in either form',
      {
        name: 'Eight Days A Week - Remastered 2009',
        artists: ['The Beatles'],
        album: 'Beatles For Sale (Remastered)',
      },
      {
        name: 'Eight Days a Week (Remastered 2009)',
        artists: ['The Beatles'],
        album: 'Beatles for Sale',
        durationMs: 200_600,
      },
    ],
    [
      'feat. in the title on both sides',
      { name: 'ROCKSTAR (feat. Roddy Ricch)', artists: ['DaBaby', 'Roddy Ricch'], album: 'BLAME IT ON BABY' },
      {
        name: 'ROCKSTAR (feat. Roddy Ricch)',
        artists: ['DaBaby'],
        album: 'BLAME IT ON BABY',
        durationMs: 199_300,
      },
    ],
    [
      'Apple feat. in the title, Spotify feat. in the artists',
      { name: 'Hurt Somebody', artists: ['Noah Kahan', 'Julia Michaels'], album: 'Hurt Somebody' },
      {
        name: 'Hurt Somebody (feat. Julia Michaels)',
        artists: ['Noah Kahan'],
        album: 'Hurt Somebody - Single',
      },
    ],
    [
      'Apple "A & B" artist string',
      { name: 'One Kiss', artists: ['Calvin Harris', 'Dua Lipa'], album: 'One Kiss' },
      { name: 'One Kiss', artists: ['Calvin Harris & Dua Lipa'], album: 'One Kiss - Single' },
    ],
    [
      'a remix written two ways',
      {
        name: 'Despacito - Remix',
        artists: ['Luis Fonsi', 'Daddy Yankee', 'Justin Bieber'],
        album: 'Despacito Feat. Justin Bieber (Remix)',
      },
      {
        name: 'Despacito (Remix) [feat. Justin Bieber]',
        artists: ['Luis Fonsi & Daddy Yankee'],
        album: 'Despacito (Remix) [feat. Justin Bieber] - Single',
      },
    ],
    [
      'diacritics dropped by one catalog',
      { name: 'Halo', artists: ['Beyoncé'], album: 'I AM...SASHA FIERCE' },
      { name: 'Halo', artists: ['Beyonce'], album: 'I Am... Sasha Fierce' },
    ],
    [
      'a Japanese title',
      { name: '夜に駆ける', artists: ['YOASOBI'], album: '夜に駆ける' },
      { name: '夜に駆ける', artists: ['YOASOBI'], album: '夜に駆ける - Single' },
    ],
    [
      'a Korean title',
      { name: '빨간 맛 Red Flavor', artists: ['Red Velvet'], album: 'The Red Summer - Summer Mini Album' },
      { name: '빨간 맛 Red Flavor', artists: ['Red Velvet'], album: 'The Red Summer - Summer Mini Album' },
    ],
    [
      'both explicit',
      { name: 'HUMBLE.', artists: ['Kendrick Lamar'], album: 'DAMN.', explicit: true },
      { name: 'HUMBLE.', artists: ['Kendrick Lamar'], album: 'DAMN.', explicit: true },
    ],
  ])('%s', (_label, spotify, apple) => {
    const scored = spotifyAndApple(spotify, apple);
    expect(scored.confidence).toBeGreaterThanOrEqual(ACCEPT_THRESHOLD);
    expect(scored.sameVersion).toBe(true);
  });

  it('trusts an ISRC however the source spelled it', () => {
    const scored = spotifyAndApple(
      { name: 'Levitating', artists: ['Dua Lipa'], isrc: 'gb-ahs-20-00001' },
      {
        name: 'Levitating (feat. DaBaby)',
        artists: ['Dua Lipa'],
        album: 'Future Nostalgia',
        isrc: 'GBAHS2000001',
      },
    );
    expect(scored.isrcMatch).toBe(true);
    expect(scored.confidence).toBeGreaterThanOrEqual(95);
    expect(scored.reasons).toContain('ISRC match');
  });
});

describe('a different version never stands in for the original', () => {
  it.each<[string, string, string]>([
    ['Heaven', 'Heaven - Acoustic', 'different version: acoustic'],
    ['Heaven - Acoustic', 'Heaven', 'different version: not acoustic'],
    ['Firework', 'Firework (Melad Remix)', 'different version: remix melad'],
    ['Despacito', 'Despacito - Remix', 'different version: remix'],
    ['Creep', 'Creep (Live)', 'different version: live'],
    ['Creep', 'Creep - Live at the BBC', 'different version: live bbc'],
    ['Hallelujah', 'Hallelujah (Instrumental)', 'different version: instrumental'],
    ['Shallow', 'Shallow (Karaoke Version)', 'different version: karaoke'],
    ['Heather', 'Heather (Sped Up)', 'different version: sped up'],
    ['Heather', 'Heather - Slowed + Reverb', 'different version: slowed'],
    ['Royals', 'Royals (A Cappella)', 'different version: a cappella'],
    ['Love Story', "Love Story (Taylor's Version)", 'different version: taylors version'],
    ['Bailando', 'Bailando (English Version)', 'different version: english version'],
  ])('%j is not %j', (source, candidate, reason) => {
    const scored = spotifyAndApple(
      { name: source, artists: ['Artist'] },
      { name: candidate, artists: ['Artist'] },
    );
    expect(scored.confidence).toBeLessThan(REVIEW_THRESHOLD);
    expect(scored.sameVersion).toBe(false);
    expect(scored.reasons).toContain(reason);
  });

  it('does not let two different remixes of one song pass for each other', () => {
    const scored = spotifyAndApple(
      { name: 'Firework (Melad Remix)', artists: ['Katy Perry'] },
      { name: 'Firework (Frank Walker Remix)', artists: ['Katy Perry'] },
    );
    expect(scored.confidence).toBeLessThan(REVIEW_THRESHOLD);
  });

  it('rejects the clean edit of an explicit track, and only asks about the reverse', () => {
    const explicitSource = spotifyAndApple(
      { name: 'HUMBLE.', artists: ['Kendrick Lamar'], explicit: true },
      { name: 'HUMBLE.', artists: ['Kendrick Lamar'], explicit: false },
    );
    expect(explicitSource.confidence).toBeLessThan(REVIEW_THRESHOLD);
    expect(explicitSource.reasons).toContain('different version: clean (source is explicit)');

    const cleanSource = spotifyAndApple(
      { name: 'HUMBLE.', artists: ['Kendrick Lamar'], explicit: false },
      { name: 'HUMBLE.', artists: ['Kendrick Lamar'], explicit: true },
    );
    expect(statusFor(cleanSource.confidence)).toBe('review');
  });

  // The wrong versions real catalogs propose when the original is missing carry the original's exact
  // title: the credits, the album and the length are the evidence, and none may reach the review band.
  it.each([
    ['a tribute band', { artists: ['James Arthur Tribute Band'], album: 'A Tribute to James Arthur' }],
    ['a cover collective', { artists: ['The Cover Collective'], album: 'Covers, Vol. 2' }],
    ['a karaoke label', { artists: ['Sing2Piano'], album: 'Karaoke Hits of James Arthur' }],
    ['a karaoke album by the same name', { artists: ['James Arthur'], album: 'James Arthur Karaoke' }],
    ['a sped-up compilation', { artists: ['James Arthur'], album: 'Sped Up Hits 2024', durationMs: 170_000 }],
    [
      'sped-up credits',
      { artists: ['James Arthur', 'sped up nightcore'], album: 'YOU', durationMs: 190_000 },
    ],
    ['a live album', { artists: ['James Arthur'], album: 'James Arthur Live', durationMs: 222_000 }],
    [
      'a longer cut with nothing else to tell',
      { artists: ['James Arthur'], album: 'YOU', durationMs: 220_000 },
    ],
  ])('does not propose %s for an untagged original', (_label, fields) => {
    const scored = spotifyAndApple(
      { name: 'Falling Like The Stars', artists: ['James Arthur'], album: 'YOU', durationMs: 200_000 },
      { name: 'Falling Like The Stars', durationMs: 201_000, ...fields },
    );
    expect(scored.confidence).toBeLessThan(REVIEW_THRESHOLD);
  });

  it('still accepts the original from a compilation or with a trusted ISRC', () => {
    const fromHits = spotifyAndApple(
      { name: 'Falling Like The Stars', artists: ['James Arthur'], album: 'YOU' },
      { name: 'Falling Like The Stars', artists: ['James Arthur'], album: 'Greatest Hits' },
    );
    expect(fromHits.confidence).toBeGreaterThanOrEqual(ACCEPT_THRESHOLD);
    const transliterated = spotifyAndApple(
      { name: 'Море', artists: ['Громов Алина'], isrc: 'RUA1D2300001' },
      { name: 'Море', artists: ['Alina Gromova'], isrc: 'RUA1D2300001' },
    );
    expect(transliterated.confidence).toBeGreaterThanOrEqual(ACCEPT_THRESHOLD);
  });

  it('reads a live album as a live recording even when the title says nothing', () => {
    const scored = spotifyAndApple(
      { name: 'Wonderwall', artists: ['Oasis'], album: '(What’s the Story) Morning Glory?' },
      { name: 'Wonderwall', artists: ['Oasis'], album: 'Live at Knebworth' },
    );
    expect(scored.reasons).toContain('different version: live');
    expect(scored.confidence).toBeLessThan(REVIEW_THRESHOLD);
  });

  it('treats a remaster against the original release as the same song, with a note', () => {
    const scored = spotifyAndApple(
      { name: 'Eight Days A Week - Remastered 2009', artists: ['The Beatles'] },
      { name: 'Eight Days A Week', artists: ['The Beatles'] },
    );
    expect(scored.confidence).toBeGreaterThanOrEqual(ACCEPT_THRESHOLD);
    expect(scored.reasons.some((r) => r.includes('remaster'))).toBe(true);
  });
});

describe('other evidence', () => {
  it('sends a track 8 s longer to review at best, and says why', () => {
    const scored = spotifyAndApple(
      { name: 'Yellow', artists: ['Coldplay'], album: 'Parachutes', durationMs: 266_000 },
      { name: 'Yellow', artists: ['Coldplay'], album: 'Parachutes', durationMs: 274_000 },
    );
    expect(scored.confidence).toBeLessThan(ACCEPT_THRESHOLD);
    expect(scored.reasons).toContain('duration differs by 8 s');
  });

  it('does not take a same-titled song by another artist', () => {
    const scored = spotifyAndApple(
      { name: 'Believer', artists: ['Marc Scibilia'], durationMs: 211_000 },
      { name: 'Believer', artists: ['Imagine Dragons'], album: 'Evolve', durationMs: 204_000 },
    );
    expect(statusFor(scored.confidence)).toBe('unmatched');
  });

  it('does not confuse two songs by one artist', () => {
    const scored = spotifyAndApple(
      { name: '夜に駆ける', artists: ['YOASOBI'] },
      { name: '群青', artists: ['YOASOBI'] },
    );
    expect(statusFor(scored.confidence)).toBe('unmatched');
  });

  it('ranks the original above its versions and drops duplicate candidates', () => {
    const source = track({ name: 'Creep', artists: ['Radiohead'], album: 'Pablo Honey', explicit: true });
    const live = track({
      name: 'Creep (Live)',
      artists: ['Radiohead'],
      album: 'Pablo Honey',
      explicit: true,
    });
    const clean = track({ name: 'Creep', artists: ['Radiohead'], album: 'Pablo Honey', explicit: false });
    const original = track({
      name: 'Creep',
      artists: ['Radiohead'],
      album: 'Pablo Honey',
      explicit: true,
      durationMs: 200_900,
    });
    const ranked = rankCandidates(source, [live, clean, original, original]);
    expect(ranked).toHaveLength(3);
    expect(ranked[0]?.track.id).toBe(original.id);
    expect(ranked[1]?.versionLabels.length).toBeGreaterThan(0);
  });
});

const WORDS = [
  'love',
  'night',
  'heart',
  'fire',
  'summer',
  'dance',
  'blue',
  'rain',
  'gold',
  'road',
  '夜',
  '사랑',
  'звезда',
];
const titleArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
const artistArb = fc.constantFrom(
  'Adele',
  'Drake',
  'Beyoncé',
  'YOASOBI',
  'Red Velvet',
  'Кино',
  'Calvin Harris & Dua Lipa',
);
const trackArb = fc.record({
  name: titleArb,
  artists: fc.array(artistArb, { minLength: 1, maxLength: 3 }),
  album: titleArb,
  durationMs: fc.integer({ min: 60_000, max: 400_000 }),
});

describe('properties', () => {
  it('scores the same pair the same way in both directions when no explicit flag is involved', () => {
    fc.assert(
      fc.property(trackArb, trackArb, (a, b) => {
        const ta = track(a);
        const tb = track(b);
        expect(scoreCandidate(ta, tb).confidence).toBe(scoreCandidate(tb, ta).confidence);
      }),
      { numRuns: 300 },
    );
  });

  it('accepts a track against an exact copy of itself', () => {
    fc.assert(
      fc.property(trackArb, (a) => {
        expect(scoreCandidate(track(a), track(a)).confidence).toBe(100);
      }),
    );
  });

  const VERSION_WORDS = [
    'Live',
    'Live at Wembley',
    'Remix',
    'Kygo Remix',
    'Acoustic',
    'Instrumental',
    'Karaoke Version',
    'Cover',
    'Sped Up',
    'Slowed + Reverb',
    'A Cappella',
    'Demo',
  ];
  const FORMS: ((title: string, version: string) => string)[] = [
    (t, v) => `${t} - ${v}`,
    (t, v) => `${t} (${v})`,
    (t, v) => `${t} [${v}]`,
  ];

  it('never accepts a version-tagged candidate for an untagged source', () => {
    fc.assert(
      fc.property(
        trackArb,
        fc.constantFrom(...VERSION_WORDS),
        fc.constantFrom(...FORMS),
        fc.integer({ min: -2_000, max: 2_000 }),
        (a, version, form, jitter) => {
          const source = track(a);
          const candidate = track({ ...a, name: form(a.name, version), durationMs: a.durationMs + jitter });
          expect(scoreCandidate(source, candidate).confidence).toBeLessThan(ACCEPT_THRESHOLD);
          expect(scoreCandidate(candidate, source).confidence).toBeLessThan(ACCEPT_THRESHOLD);
        },
      ),
      { numRuns: 300 },
    );
  });
});
