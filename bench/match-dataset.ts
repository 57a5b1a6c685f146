import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { transliterate } from 'transliteration';
import type { NormalizedTrack } from '../src/server/providers/types';
import { seededRandom } from '../src/shared/seeded-random';
import { messUp, type RowKind, type SourceRow } from './match-mess';
import { HELD_OUT_LABELS, hasOtherScript, latinHalf, OTHER_PERFORMERS, romanize } from './match-vocabulary';

/**
 * The match benchmark's data set. Its source rows are real (the Spotify playlist archive) or made up
 * (`match-synthetic.ts`); the destination catalog is built from them: each present song once or twice in
 * Apple's presentation, with real-world differences on either side (match-mess.ts), names in another
 * script romanized on one side, other recordings labelled with words the matcher never names, covers by
 * other performers, clean edits, and unrelated catalog noise.
 *
 * The truth is how each row was built: a destination copy is right for the source it was made from and
 * for every source row of the same song (same written title and artists, lengths within 5 s), decided
 * here with the benchmark's own plain normalization, never the matcher's parser.
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

/** A source row as the archive gives it (Spotify's presentation). */
export type { SourceRow } from './match-mess';

export type DestinationVariant = 'original' | 'label' | 'clean' | 'other-performer' | 'other-cut' | 'noise';

export interface DestinationTrack extends NormalizedTrack {
  /** The source row this entry was derived from (bench bookkeeping, not shown to the matcher). */
  originId: string;
  variant: DestinationVariant;
}

export interface TruthEntry {
  sourceId: string;
  present: boolean;
  /** Destination ids of the same recording. */
  acceptableIds: string[];
  /** What made the row hard: the script difference and the real-world differences applied to it. */
  kinds: RowKind[];
}

export interface MatchDataset {
  sources: NormalizedTrack[];
  destination: DestinationTrack[];
  truth: Map<string, TruthEntry>;
}

export interface DatasetOptions {
  seed?: number;
  /** Use only the first N rows (after a seeded shuffle). */
  limit?: number;
  /** Share of sources that carry an ISRC (0: metadata alone, the headline figures). */
  isrcShare?: number;
  /** Share of sources absent from the destination. */
  absentShare?: number;
  /** Share of present songs that also have other recordings in the catalog. */
  decoyShare?: number;
  /** Share of rows with real-world differences between the two sides. */
  messShare?: number;
  /** Unrelated catalog tracks, as a share of the sources. */
  noiseShare?: number;
}

interface CsvRow {
  track_id: string;
  title: string;
  artists: string;
  album: string;
  duration_s: string;
}

export function readArchiveRows(csvPath: string): SourceRow[] {
  const records = parse(readFileSync(csvPath, 'utf8'), { columns: true, skip_empty_lines: true }) as CsvRow[];
  const seen = new Set<string>();
  const rows: SourceRow[] = [];
  for (const record of records) {
    if (!record.track_id || seen.has(record.track_id)) continue;
    seen.add(record.track_id);
    let artists: string[] = [];
    try {
      const parsed: unknown = JSON.parse(record.artists);
      if (Array.isArray(parsed))
        artists = parsed.filter((a): a is string => typeof a === 'string' && a !== '');
    } catch (error) {
      // Not a JSON list: the field is one artist's name.
      if (!(error instanceof SyntaxError)) throw error;
      artists = [record.artists];
    }
    const seconds = Number(record.duration_s);
    if (artists.length === 0 || !Number.isFinite(seconds) || seconds <= 0) continue;
    rows.push({
      id: record.track_id,
      title: record.title,
      artists,
      album: record.album,
      durationMs: seconds * 1000,
    });
  }
  return rows;
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const REGISTRANTS = ['US', 'GB', 'SE', 'DE', 'FR', 'JP', 'KR', 'QZ', 'NL', 'BR'];

function makeIsrc(random: () => number): string {
  let code = REGISTRANTS[Math.floor(random() * REGISTRANTS.length)] ?? 'QZ';
  for (let i = 0; i < 3; i++) code += LETTERS[Math.floor(random() * 26)] ?? 'A';
  code += String(10 + Math.floor(random() * 15)).padStart(2, '0');
  return code + String(Math.floor(random() * 100_000)).padStart(5, '0');
}

/** "A", "A & B", "A, B & C": how Apple writes several artists in its one artistName string. */
export function joinAppleArtists(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} & ${names[names.length - 1]}`;
}

// The benchmark's own reading of a row's identity (never the matcher's): credits in any form, remaster
// and edition notes, punctuation and script left out, every credited name counted.
const CREDIT_RE = /\s*(?:[([]|\s-\s)?\s*\b(?:feat\.?|ft\.?|featuring|with)\s+([^)\]]*?)\s*(?:[)\]]|$)/gi;
const NOTE_RE =
  /\s*(?:[([]|\s-\s)\s*(?:\d{4}\s+)?(?:remaster(?:ed)?|deluxe|bonus track|from |single version|album version|original motion picture)[^)\]]*(?:[)\]]|$)/gi;

function plain(text: string): string {
  return transliterate(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

/** The benchmark's plain identity of a song: its title and every name it credits, however written. */
function songKey(row: SourceRow): string {
  const credited = [...row.title.matchAll(CREDIT_RE)].flatMap((m) => (m[1] ?? '').split(/,|&| and /));
  const title = plain(row.title.replace(CREDIT_RE, ' ').replace(NOTE_RE, ' '));
  const names = [...new Set([...row.artists, ...credited].map(plain).filter((name) => name !== ''))].sort();
  return `${title}|${names.join(',')}`;
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

/** Apple's presentation: "(X)" for Spotify's " - X", featured artists in the title, " - Single" albums. */
function appleStyle(row: SourceRow, random: () => number): SourceRow {
  let title = row.title;
  const dash = /^(.+?) - (.+)$/.exec(title);
  if (dash?.[1] && dash[2] && random() < 0.8) title = `${dash[1]} (${dash[2]})`;
  let artists = [...row.artists];
  if (/[([](?:feat\.?|ft\.?|with)\s/i.test(title)) {
    const lower = title.toLowerCase();
    artists = artists.filter((artist, i) => i === 0 || !lower.includes(artist.toLowerCase()));
  } else if (artists.length >= 2 && random() < 0.45) {
    title = `${title} (feat. ${joinAppleArtists(artists.slice(1))})`;
    artists = artists.slice(0, 1);
  }
  const single = row.album.trim().toLowerCase() === row.title.trim().toLowerCase();
  const album = single && random() < 0.65 ? `${row.album} - Single` : row.album;
  return { ...row, title, artists: [joinAppleArtists(artists)], album };
}

/** One side shows a name in another script in Latin letters: romanized, or only its Latin half. */
function crossScript(row: SourceRow, random: () => number): SourceRow {
  const latin = (text: string) => {
    if (!hasOtherScript(text)) return text;
    const half = latinHalf(text);
    return half && random() < 0.5 ? half : romanize(text, random);
  };
  return {
    ...row,
    title: latin(row.title),
    artists: row.artists.map((artist) => (random() < 0.7 ? latin(artist) : artist)),
    album: random() < 0.7 ? latin(row.album) : row.album,
  };
}

export function buildMatchDataset(rows: readonly SourceRow[], options: DatasetOptions = {}): MatchDataset {
  const seed = options.seed ?? 20_261_127;
  const random = seededRandom(seed);
  const shuffled = shuffle([...rows], random);
  const sample = options.limit !== undefined ? shuffled.slice(0, options.limit) : shuffled;
  const builder = new DestinationBuilder(random, options, new Set(rows.map(songKey)));
  const sources = sample.map((row, index) => builder.add(row, index));
  // Unrelated catalog noise: rows of other songs, and songs sharing a source's title by someone else.
  const sampledKeys = new Set(sample.map(songKey));
  const noise = shuffled.slice(sample.length).filter((row) => !sampledKeys.has(songKey(row)));
  builder.addNoise(noise.slice(0, Math.round(sample.length * (options.noiseShare ?? 0.3))), sample);
  return { sources, destination: builder.destination, truth: builder.truth() };
}

class DestinationBuilder {
  readonly destination: DestinationTrack[] = [];
  private readonly groups = new Map<string, { durationMs: number; ids: string[]; entries: TruthEntry[] }[]>();
  private readonly entries: TruthEntry[] = [];
  private next = 0;

  constructor(
    private readonly random: () => number,
    private readonly options: DatasetOptions,
    /** Every row's song key: a made-up other recording must not be one of them. */
    private readonly knownSongs: ReadonlySet<string>,
  ) {}

  private id(prefix: string): string {
    return `${prefix}${(1_000_000_000 + this.next++).toString()}`;
  }

  private push(track: Omit<DestinationTrack, 'id' | 'uri'>, prefix: string): string {
    const id = this.id(prefix);
    this.destination.push({ ...track, id, uri: id });
    return id;
  }

  /** Adds one source row's destination entries and returns the source track. */
  add(row: SourceRow, index: number): NormalizedTrack {
    const random = this.random;
    const key = songKey(row);
    const explicit = hashUnit(key) < 0.12;
    const isrc = makeIsrc(random);
    const kinds: RowKind[] = [];
    let sourceSide = row;
    let destinationSide = appleStyle(row, random);
    if (hasOtherScript(`${row.title} ${row.artists.join(' ')} ${row.album}`) && random() < 0.8) {
      if (random() < 0.5) sourceSide = crossScript(row, random);
      else destinationSide = crossScript(destinationSide, random);
      kinds.push('script');
    }
    if (random() < (this.options.messShare ?? 0.4)) {
      if (random() < 0.5) sourceSide = messUp(sourceSide, random, kinds);
      else destinationSide = messUp(destinationSide, random, kinds);
    }
    const source: NormalizedTrack = {
      id: row.id,
      uri: `spotify:track:${row.id}`,
      name: sourceSide.title,
      artists: sourceSide.artists,
      album: sourceSide.album,
      durationMs: Math.round(row.durationMs + random() * 999),
      ...(random() < (this.options.isrcShare ?? 0.9) ? { isrc } : {}),
      explicit,
    };
    const present = random() >= (this.options.absentShare ?? 0.06);
    const ids = present ? this.addOriginal(source, destinationSide, isrc, index) : [];
    this.addDecoys(source, destinationSide, present);
    this.remember(row, key, { sourceId: row.id, present, acceptableIds: ids, kinds });
    return source;
  }

  private addOriginal(source: NormalizedTrack, side: SourceRow, isrc: string, index: number): string[] {
    const random = this.random;
    const base = {
      name: side.title,
      artists: side.artists,
      album: side.album,
      durationMs: Math.max(30_000, source.durationMs + Math.round((random() * 2 - 1) * 1_800)),
      ...(source.explicit !== undefined ? { explicit: source.explicit } : {}),
      originId: source.id,
      variant: 'original' as const,
    };
    const ids = [this.push({ ...base, ...(random() < 0.85 ? { isrc } : {}) }, 'a')];
    // The same recording on a second release: the single and the album, or a compilation.
    if (index % 17 === 0) {
      const album = random() < 0.5 ? 'Greatest Hits' : `${side.album} (Deluxe)`;
      ids.push(
        this.push({ ...base, album, durationMs: base.durationMs + Math.round(random() * 800 - 400) }, 'a'),
      );
    }
    return ids;
  }

  /** Other recordings of the song: labelled with held-out words, clean edits, covers, other cuts. */
  private addDecoys(source: NormalizedTrack, side: SourceRow, present: boolean): void {
    const random = this.random;
    const near = (spread: number) =>
      Math.max(30_000, source.durationMs + Math.round((random() * 2 - 1) * spread));
    const common = { artists: side.artists, album: side.album, originId: source.id };
    const bare = side.title.replace(/\s*[-([].*$/, '').trim() || side.title;
    if (random() < (present ? (this.options.decoyShare ?? 0.35) : 0.75)) {
      const count = 1 + Math.floor(random() * 3);
      for (let k = 0; k < count; k++) {
        const label = HELD_OUT_LABELS[Math.floor(random() * HELD_OUT_LABELS.length)] ?? 'Reimagined';
        const name = random() < 0.4 ? `${bare} - ${label}` : `${bare} (${label})`;
        // Never a song the archive really has ("Deck the Halls - Piano Version" is one).
        if (this.knownSongs.has(songKey({ ...side, title: name }))) continue;
        this.push(
          { ...common, name, durationMs: near(3_000), isrc: makeIsrc(random), variant: 'label' },
          'd',
        );
      }
    }
    if (source.explicit && random() < 0.5) {
      const name = side.title;
      this.push({ ...common, name, durationMs: near(400), explicit: false, variant: 'clean' }, 'd');
    }
    if (!present && random() < 0.5) {
      const performer =
        OTHER_PERFORMERS[Math.floor(random() * OTHER_PERFORMERS.length)] ?? 'Northbound Players';
      const cover = { ...common, name: side.title, artists: [performer], durationMs: near(4_000) };
      this.push({ ...cover, variant: 'other-performer' }, 'u');
    }
    if (!present && random() < 0.3) {
      const longer = source.durationMs + 15_000 + Math.round(random() * 25_000);
      this.push({ ...common, name: side.title, durationMs: longer, variant: 'other-cut' }, 'u');
    }
  }

  addNoise(rows: readonly SourceRow[], sample: readonly SourceRow[]): void {
    for (const row of rows) {
      const side = appleStyle(row, this.random);
      this.push({ ...side, name: side.title, originId: row.id, variant: 'noise' }, 'n');
    }
    // Songs sharing a title with a source, by unrelated artists.
    for (const row of sample.slice(0, Math.round(sample.length * 0.1))) {
      const other = rows[Math.floor(this.random() * rows.length)];
      if (!other) break;
      const name = row.title.replace(/\s*[-([].*$/, '').trim() || row.title;
      const durationMs = 120_000 + Math.floor(this.random() * 180_000);
      this.push(
        { name, artists: other.artists, album: other.album, durationMs, originId: row.id, variant: 'noise' },
        'n',
      );
    }
  }

  private remember(row: SourceRow, key: string, entry: TruthEntry): void {
    const groups = this.groups.get(key) ?? [];
    this.groups.set(key, groups);
    let group = groups.find((g) => Math.abs(g.durationMs - row.durationMs) <= 5_000);
    if (!group) {
      group = { durationMs: row.durationMs, ids: [], entries: [] };
      groups.push(group);
    }
    group.ids.push(...entry.acceptableIds);
    group.entries.push(entry);
    this.entries.push(entry);
  }

  /** Every copy of a song is right for every source row of that song. */
  truth(): Map<string, TruthEntry> {
    for (const group of [...this.groups.values()].flat()) {
      for (const entry of group.entries) {
        entry.acceptableIds = [...new Set([...entry.acceptableIds, ...group.ids])];
        entry.present = entry.acceptableIds.length > 0;
      }
    }
    return new Map(this.entries.map((entry) => [entry.sourceId, entry]));
  }
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
