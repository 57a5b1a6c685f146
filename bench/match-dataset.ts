import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { splitArtists } from '../src/server/matching/credits';
import { foldText } from '../src/server/matching/normalize';
import { prepareTrack } from '../src/server/matching/prepare';
import { parseTitle } from '../src/server/matching/versions';
import type { NormalizedTrack } from '../src/server/providers/types';
import { seededRandom } from '../src/shared/seeded-random';

/**
 * A matching benchmark built from the Spotify playlist archive: its rows are the Spotify-side sources, and
 * an Apple-style catalog is derived from them by Apple's own presentation rules (one "A & B" artist
 * string, "(feat. X)" in the title, " - Single" albums, ±1 s durations, missing ISRCs), plus decoy versions
 * of the same songs (live, remix, acoustic, instrumental, clean, karaoke, sped up, slowed) and songs that
 * are missing altogether. Deterministic for a given seed.
 */

/** The setting that names the archive CSV (spotify-playlist-archive-tracks.csv, 63k rows) on this machine. */
export const ARCHIVE_SETTING = 'CROSSFADE_ARCHIVE_CSV';

/** The archive's path from CROSSFADE_ARCHIVE_CSV; stops the benchmark with what to pass when it is unset. */
export function archiveCsvPath(): string {
  const path = process.env[ARCHIVE_SETTING];
  if (path) return path;
  console.error(
    `${ARCHIVE_SETTING} is not set. This benchmark reads the Spotify playlist archive: pass the path of ` +
      `spotify-playlist-archive-tracks.csv, e.g. ${ARCHIVE_SETTING}=/path/to/spotify-playlist-archive-tracks.csv npm run bench:match`,
  );
  process.exit(2);
}

export type DecoyKind =
  | 'live'
  | 'remix'
  | 'acoustic'
  | 'instrumental'
  | 'clean'
  | 'karaoke'
  | 'sped_up'
  | 'slowed'
  | 'cover';
export type DestinationVariant = 'original' | DecoyKind;

export interface DestinationTrack extends NormalizedTrack {
  /** The source row this entry was derived from (bench bookkeeping, not shown to the matcher). */
  originId: string;
  variant: DestinationVariant;
}

export interface TruthEntry {
  sourceId: string;
  /** Whether the source's recording exists in the destination catalog at all. */
  present: boolean;
  /** Destination ids that are the same recording (the copy of this row, or of an identical row on another release). */
  acceptableIds: string[];
  /** Why it is absent: removed entirely, or only other versions of it remain. */
  absence?: 'removed' | 'only-decoys' | 'unmarked-decoys';
}

export interface MatchDataset {
  sources: NormalizedTrack[];
  destination: DestinationTrack[];
  truth: Map<string, TruthEntry>;
}

export interface DatasetOptions {
  csvPath?: string;
  seed?: number;
  /** Use only the first N rows (after a seeded shuffle). */
  limit?: number;
  /** Share of sources absent from the destination with no trace. */
  removedShare?: number;
  /** Share of sources whose original is absent but whose decoy versions remain. */
  onlyDecoysShare?: number;
  /** Share of sources that get decoy versions. */
  decoyShare?: number;
  /** Share of sources that carry an ISRC (0 measures metadata matching alone). */
  isrcShare?: number;
  /**
   * Share of the removed sources that leave one "unmarked" decoy behind: a cover, karaoke, sped-up or live
   * recording whose title is the original's word for word, so only the credits, the album and the length
   * tell it apart (the wrong versions real catalogs propose when the original is missing).
   */
  unmarkedDecoyShare?: number;
}

interface CsvRow {
  track_id: string;
  title: string;
  artists: string;
  album: string;
  duration_s: string;
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const REGISTRANTS = ['US', 'GB', 'SE', 'DE', 'FR', 'JP', 'KR', 'QZ', 'NL', 'BR'];
const REMIXERS = ['Kygo', 'Tiësto', 'Melad', 'R3HAB', 'Oliver Heldens', 'Frank Walker', 'MK', 'Joel Corry'];
const VENUES = ['Wembley Stadium', 'Madison Square Garden', 'the BBC', 'Red Rocks', 'Spotify Sessions'];

function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

function makeIsrc(random: () => number): string {
  let code = pick(random, REGISTRANTS);
  for (let i = 0; i < 3; i++) code += LETTERS[Math.floor(random() * 26)] ?? 'A';
  code += String(10 + Math.floor(random() * 15)).padStart(2, '0');
  code += String(Math.floor(random() * 100_000)).padStart(5, '0');
  return code;
}

/** "A", "A & B", "A, B & C": how Apple writes several artists in its one artistName string. */
export function joinAppleArtists(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} & ${names[names.length - 1]}`;
}

/**
 * Two rows are the same recording when title (credits and neutral notes aside), artist set, version and
 * rating agree. This reuses the engine's parser; it only decides which *other* rows also count as right.
 */
function songKey(track: NormalizedTrack): string {
  const p = prepareTrack(track);
  return `${p.titleKey}|${[...p.artistKeys].sort().join(',')}|${p.hardKey}|${p.softKey}|${String(track.explicit)}`;
}

const CREDIT_IN_TITLE_RE = /[([](?:feat\.?|ft\.?|with|featuring)\s/i;
const DASH_SUFFIX_RE = /^(.+?) - (.+)$/;

function toAppleTitle(name: string, random: () => number): string {
  // Apple writes version notes in brackets where Spotify uses " - X".
  const dash = DASH_SUFFIX_RE.exec(name);
  if (dash?.[1] && dash[2] && random() < 0.8) return `${dash[1]} (${dash[2]})`;
  return name;
}

function toAppleTrack(source: NormalizedTrack, index: number, random: () => number): DestinationTrack {
  let name = toAppleTitle(source.name, random);
  let mainArtists = [...source.artists];
  const creditSegment = CREDIT_IN_TITLE_RE.exec(source.name);
  if (creditSegment) {
    const titleLower = source.name.toLowerCase();
    const credited = mainArtists.filter((a, i) => i > 0 && titleLower.includes(a.toLowerCase()));
    mainArtists = mainArtists.filter((a) => !credited.includes(a));
  } else if (mainArtists.length >= 2 && random() < 0.45) {
    const featured = mainArtists.slice(1);
    mainArtists = mainArtists.slice(0, 1);
    name = `${name} (feat. ${joinAppleArtists(featured)})`;
  }
  let album = source.album;
  if (foldText(source.album) === foldText(source.name)) {
    const roll = random();
    if (roll < 0.65) album = `${album} - Single`;
    else if (roll < 0.75) album = `${album} - EP`;
  }
  const jitter = Math.round((random() * 2 - 1) * 1000);
  let isrc = source.isrc?.toUpperCase();
  const isrcRoll = random();
  if (isrc && isrcRoll < 0.12) isrc = undefined;
  else if (isrc && isrcRoll < 0.15) isrc = makeIsrc(random);
  const id = `a${(1_000_000_000 + index).toString()}`;
  return {
    id,
    uri: id,
    name,
    artists: [joinAppleArtists(mainArtists)],
    album,
    durationMs: Math.max(1_000, source.durationMs + jitter),
    ...(isrc ? { isrc } : {}),
    ...(source.explicit !== undefined ? { explicit: source.explicit } : {}),
    originId: source.id,
    variant: 'original',
  };
}

function makeDecoy(
  original: DestinationTrack,
  source: NormalizedTrack,
  kind: DecoyKind,
  index: number,
  random: () => number,
): DestinationTrack {
  const base = parseTitle(source.name).title;
  const spotifyStyle = random() < 0.35;
  const suffix = (label: string) => (spotifyStyle ? `${base} - ${label}` : `${base} (${label})`);
  let name = suffix('Live');
  let album = original.album;
  let artists = original.artists;
  let explicit = original.explicit;
  switch (kind) {
    case 'live':
      name = random() < 0.5 ? suffix('Live') : suffix(`Live at ${pick(random, VENUES)}`);
      if (random() < 0.5) album = `${source.album} (Live)`;
      break;
    case 'remix':
      name = random() < 0.2 ? suffix('Remix') : suffix(`${pick(random, REMIXERS)} Remix`);
      break;
    case 'acoustic':
      name = suffix(random() < 0.5 ? 'Acoustic' : 'Acoustic Version');
      break;
    case 'instrumental':
      name = suffix('Instrumental');
      break;
    case 'clean':
      name = original.name;
      explicit = false;
      break;
    case 'karaoke':
      name = suffix(random() < 0.5 ? 'Karaoke Version' : 'Karaoke');
      if (random() < 0.3) artists = ['Karaoke Hits Band'];
      break;
    case 'sped_up':
      name = suffix('Sped Up');
      break;
    case 'slowed':
      name = suffix(random() < 0.5 ? 'Slowed + Reverb' : 'Slowed');
      break;
  }
  // Similar duration on purpose: the version words, not the length, must tell these apart.
  const jitter = Math.round((random() * 2 - 1) * 2_500);
  const id = `d${(1_000_000_000 + index).toString()}`;
  return {
    id,
    uri: id,
    name,
    artists,
    album,
    durationMs: Math.max(1_000, original.durationMs + jitter),
    isrc: makeIsrc(random),
    ...(explicit !== undefined ? { explicit } : {}),
    originId: source.id,
    variant: kind,
  };
}

const KARAOKE_ARTISTS = ['Sing2Piano', 'Ameritz Karaoke Band', 'Party Tyme Karaoke', 'The Karaoke Channel'];
const UNMARKED_KINDS = ['cover', 'karaoke', 'sped_up', 'live'] as const;

/** A different recording with the original's exact title: credits, album and length are the evidence. */
function makeUnmarkedDecoy(
  template: DestinationTrack,
  source: NormalizedTrack,
  kind: (typeof UNMARKED_KINDS)[number],
  index: number,
  random: () => number,
): DestinationTrack {
  const primary = source.artists[0] ?? 'Unknown';
  let artists = template.artists;
  let album = template.album;
  let durationMs = template.durationMs;
  const shift = (low: number, high: number) => Math.round(low + random() * (high - low));
  switch (kind) {
    case 'cover':
      artists = [
        pick(random, [
          `${primary} Tribute Band`,
          'The Cover Collective',
          `Tribute to ${primary}`,
          'Vitamin Quartet',
        ]),
      ];
      album = pick(random, [`A Tribute to ${primary}`, 'Covers, Vol. 2', `${source.album} (Covers)`]);
      durationMs += shift(-12_000, 12_000);
      break;
    case 'karaoke':
      artists = [pick(random, KARAOKE_ARTISTS)];
      album = pick(random, [
        `Karaoke Hits of ${primary}`,
        'Sing Like the Stars (Karaoke)',
        `${primary} Karaoke`,
      ]);
      durationMs += shift(-2_000, 2_000);
      break;
    case 'sped_up':
      artists = random() < 0.5 ? [...template.artists, 'sped up nightcore'] : template.artists;
      album = pick(random, [`${source.album} (Sped Up)`, 'Sped Up Hits 2024', `${source.album} [sped up]`]);
      durationMs = Math.round(durationMs * (0.78 + random() * 0.08));
      break;
    case 'live':
      album = pick(random, [`Live at ${pick(random, VENUES)}`, `${source.album} (Live)`, `${primary} Live`]);
      durationMs += shift(6_000, 40_000);
      break;
  }
  const id = `u${(1_000_000_000 + index).toString()}`;
  return {
    id,
    uri: id,
    name: template.name,
    artists,
    album,
    durationMs: Math.max(1_000, durationMs),
    isrc: makeIsrc(random),
    ...(template.explicit !== undefined ? { explicit: template.explicit } : {}),
    originId: source.id,
    variant: kind,
  };
}

const DECOY_KINDS: readonly DecoyKind[] = [
  'live',
  'remix',
  'acoustic',
  'instrumental',
  'karaoke',
  'sped_up',
  'slowed',
];

function readSources(csvPath: string, random: () => number, isrcShare: number): NormalizedTrack[] {
  const rows = parse(readFileSync(csvPath, 'utf8'), { columns: true, skip_empty_lines: true }) as CsvRow[];
  const seen = new Set<string>();
  const sources: NormalizedTrack[] = [];
  for (const row of rows) {
    if (!row.track_id || seen.has(row.track_id)) continue;
    seen.add(row.track_id);
    let artists: string[] = [];
    try {
      const parsed: unknown = JSON.parse(row.artists);
      if (Array.isArray(parsed)) artists = parsed.filter((a): a is string => typeof a === 'string');
    } catch {
      artists = [row.artists];
    }
    const seconds = Number(row.duration_s);
    // The same song on two releases carries the same rating, so the flag follows the song, not the row.
    const parsed = parseTitle(row.title);
    const credited = splitArtists([...artists, ...parsed.featured])
      .map(foldText)
      .sort();
    const explicit = hashUnit(`${foldText(parsed.title)}|${credited.join(',')}`) < 0.12;
    const hasIsrc = random() < isrcShare;
    sources.push({
      id: row.track_id,
      uri: `spotify:track:${row.track_id}`,
      name: row.title,
      artists,
      album: row.album,
      durationMs: Number.isFinite(seconds) ? seconds * 1000 + Math.floor(random() * 1000) : 0,
      ...(hasIsrc ? { isrc: random() < 0.05 ? makeIsrc(random).toLowerCase() : makeIsrc(random) } : {}),
      explicit,
    });
  }
  return sources;
}

function hashUnit(text: string): number {
  let hash = 2_166_136_261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16_777_619);
  return (hash >>> 0) / 4294967296;
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const a = items[i];
    const b = items[j];
    if (a !== undefined && b !== undefined) {
      items[i] = b;
      items[j] = a;
    }
  }
  return items;
}

export function buildMatchDataset(options: DatasetOptions = {}): MatchDataset {
  const random = seededRandom(options.seed ?? 20_260_222);
  const removedShare = options.removedShare ?? 0.05;
  const onlyDecoysShare = options.onlyDecoysShare ?? 0.02;
  const decoyShare = options.decoyShare ?? 0.35;

  let sources = shuffle(
    readSources(options.csvPath ?? archiveCsvPath(), random, options.isrcShare ?? 0.92),
    random,
  );
  if (options.limit !== undefined) sources = sources.slice(0, options.limit);

  const destination: DestinationTrack[] = [];
  const absence = new Map<string, NonNullable<TruthEntry['absence']>>();
  let decoyIndex = 0;
  sources.forEach((source, index) => {
    const roll = random();
    if (roll < removedShare) {
      absence.set(source.id, 'removed');
      return;
    }
    const original = toAppleTrack(source, index, random);
    const onlyDecoys = roll < removedShare + onlyDecoysShare;
    if (onlyDecoys) absence.set(source.id, 'only-decoys');
    else destination.push(original);

    const untagged = parseTitle(source.name).tags.length === 0;
    if (!untagged || (!onlyDecoys && random() >= decoyShare)) return;
    const kinds = shuffle([...DECOY_KINDS], random).slice(0, 1 + Math.floor(random() * 3));
    if (source.explicit) kinds.push('clean');
    for (const kind of kinds) destination.push(makeDecoy(original, source, kind, decoyIndex++, random));
  });

  // Unmarked decoys draw from their own generator, so the rest of the data set stays as it was.
  const decoyRandom = seededRandom((options.seed ?? 20_260_222) ^ 0x5eed);
  const unmarkedShare = options.unmarkedDecoyShare ?? 0.6;
  sources.forEach((source, index) => {
    if (absence.get(source.id) !== 'removed' || decoyRandom() >= unmarkedShare) return;
    const template = toAppleTrack(source, index, decoyRandom);
    const kind = pick(decoyRandom, UNMARKED_KINDS);
    destination.push(makeUnmarkedDecoy(template, source, kind, decoyIndex++, decoyRandom));
    absence.set(source.id, 'unmarked-decoys');
  });

  // Identical rows on other releases (the single and the album) are the same recording: either is right.
  const originalsByKey = new Map<string, DestinationTrack[]>();
  const sourceById = new Map(sources.map((s) => [s.id, s]));
  for (const track of destination) {
    if (track.variant !== 'original') continue;
    const origin = sourceById.get(track.originId);
    if (!origin) continue;
    const key = songKey(origin);
    const list = originalsByKey.get(key) ?? [];
    list.push(track);
    originalsByKey.set(key, list);
  }
  const truth = new Map<string, TruthEntry>();
  for (const source of sources) {
    const acceptableIds = (originalsByKey.get(songKey(source)) ?? [])
      .filter((t) => {
        const origin = sourceById.get(t.originId);
        return origin !== undefined && Math.abs(origin.durationMs - source.durationMs) <= 3_000;
      })
      .map((t) => t.id);
    const why = absence.get(source.id);
    truth.set(source.id, {
      sourceId: source.id,
      present: acceptableIds.length > 0,
      acceptableIds,
      ...(why && acceptableIds.length === 0 ? { absence: why } : {}),
    });
  }
  return { sources, destination, truth };
}

/** Writes sources.jsonl, destination.jsonl and truth.jsonl so other benchmarks (the CLI) can reuse the set. */
export async function writeMatchDataset(dir: string, dataset: MatchDataset): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const lines = (items: readonly unknown[]) => `${items.map((item) => JSON.stringify(item)).join('\n')}\n`;
  const files = {
    'sources.jsonl': lines(dataset.sources),
    'destination.jsonl': lines(dataset.destination),
    'truth.jsonl': lines([...dataset.truth.values()]),
  };
  const written: string[] = [];
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    await writeFile(path, content, 'utf8');
    written.push(path);
  }
  return written;
}
