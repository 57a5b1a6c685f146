import { readFileSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { buildDemoLibraries } from './demo-library';
import { generateCatalog } from './generator';
import { appleIdFor, hashFloat, hashInt, IsrcIssuer, spotifyIdFor } from './ids';
import { Rng } from './random';
import type { Catalog, CatalogRelease, CatalogTrack, ReleaseType } from './types';
import { LABEL_REGISTRANTS, MARKETS } from './words';

/** A catalog file that cannot be read: the message names the file and line so the user can fix it. */
export class CatalogFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogFileError';
  }
}

export interface LoadCatalogFileOptions {
  /** For JSON Lines: which service's ids the `id` field holds when a line has no `service` (default spotify). */
  service?: 'spotify' | 'apple';
}

const STOREFRONTS = MARKETS.map((market) => market.toLowerCase());

/**
 * Reads a catalog from a file: the playlist-archive CSV (see the README's SANDBOX_CATALOG) or JSON Lines (the benchmark
 * CLI's format). Whatever the file lacks (ISRCs, release dates, the other service's ids) is synthesized
 * deterministically, so the same file always gives the same catalog.
 */
export function loadCatalogFile(path: string, options: LoadCatalogFileOptions = {}): Catalog {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CatalogFileError(`Cannot read catalog file ${path}: ${(error as Error).message}`);
  }
  const builder = new FileCatalogBuilder();
  const extension = extname(path).toLowerCase();
  const looksLikeJson = text.trimStart().startsWith('{');
  if (extension === '.jsonl' || extension === '.ndjson' || (extension !== '.csv' && looksLikeJson)) {
    readJsonLines(text, path, builder, options.service ?? 'spotify');
  } else {
    readArchiveCsv(text, path, builder);
  }
  if (builder.tracks.length === 0) throw new CatalogFileError(`Catalog file ${path} has no tracks`);
  return builder.finish(`file:${basename(path)}`);
}

// --- shared building ---------------------------------------------------------------------------------

interface RowInput {
  spotifyId?: string | undefined;
  appleId?: string | undefined;
  title: string;
  artists: string[];
  album: string;
  albumKey: string;
  durationMs: number;
  isrc?: string | undefined;
  explicit?: boolean | undefined;
  genres: string[];
  /** Upper bound for the synthesized release date (the row was seen in a playlist then). */
  latestDate?: string | undefined;
  decade?: number | undefined;
  script?: string | undefined;
}

interface ReleaseDraft {
  release: CatalogRelease;
  artists: Set<string>;
}

class FileCatalogBuilder {
  readonly tracks: CatalogTrack[] = [];
  private readonly releases = new Map<string, ReleaseDraft>();
  private readonly isrcByRecording = new Map<string, string>();
  private readonly isrcs = new IsrcIssuer();
  private readonly spotifyIds = new Set<string>();
  private readonly appleIds = new Set<string>();
  private readonly seenIds = new Map<string, number>();

  /** Release dates must precede every row of the album, so albums are dated after all rows are read. */
  addAll(rows: { row: RowInput; line: number }[], where: string): void {
    const earliest = new Map<string, string>();
    for (const { row } of rows) {
      const seen = earliest.get(row.albumKey);
      if (row.latestDate && (!seen || row.latestDate < seen)) earliest.set(row.albumKey, row.latestDate);
    }
    for (const { row, line } of rows)
      this.add({ ...row, latestDate: earliest.get(row.albumKey) }, where, line);
  }

  private add(row: RowInput, where: string, line: number): void {
    const serviceId = row.spotifyId ? `spotify:${row.spotifyId}` : `apple:${row.appleId ?? ''}`;
    const previous = this.seenIds.get(serviceId);
    if (previous !== undefined) {
      throw new CatalogFileError(
        `${where} line ${line}: duplicate id ${serviceId} (first on line ${previous})`,
      );
    }
    this.seenIds.set(serviceId, line);
    if (row.spotifyId) this.spotifyIds.add(row.spotifyId);
    if (row.appleId) this.appleIds.add(row.appleId);

    const draft = this.releaseFor(row);
    const trackNumber = draft.release.totalTracks + 1;
    draft.release.totalTracks = trackNumber;
    draft.artists.add(row.artists[0] ?? '');
    const year = Number.parseInt(draft.release.releaseDate.slice(0, 4), 10);
    const recording = `${normalize(row.title)}|${normalize(row.artists[0] ?? '')}|${Math.round(row.durationMs / 1000)}`;
    let isrc = row.isrc ?? this.isrcByRecording.get(recording);
    if (!isrc) {
      isrc = this.isrcs.issue(countryFor(row.script), registrantFor(row.artists[0] ?? ''), year);
      this.isrcByRecording.set(recording, isrc);
    }
    const idSeed = row.spotifyId ?? row.appleId ?? recording;
    const hipHop = row.genres.includes('hip-hop');
    const explicit =
      row.explicit ??
      (!/\bclean\b/i.test(row.title) && hashFloat(`explicit:${idSeed}`) < (hipHop ? 0.45 : 0.08));
    // The file lists one service; the other carries nearly everything, as in reality.
    const missingOnOther = hashFloat(`presence:${idSeed}`) < 0.03;
    const key = `f${String(this.tracks.length).padStart(7, '0')}`;
    this.tracks.push({
      key,
      isrc,
      title: row.title,
      artists: row.artists,
      featured: featuredIn(row.title, row.artists),
      releaseKey: draft.release.key,
      trackNumber,
      discNumber: 1,
      durationMs: row.durationMs,
      explicit,
      genres: row.genres,
      spotify: row.spotifyId
        ? { id: row.spotifyId, markets: [...MARKETS] }
        : missingOnOther
          ? null
          : { id: spotifyIdFor(`file:${idSeed}`, this.spotifyIds), markets: [...MARKETS] },
      apple: row.appleId
        ? { id: row.appleId, storefronts: [...STOREFRONTS] }
        : missingOnOther
          ? null
          : { id: appleIdFor(`file:${idSeed}`, this.appleIds), storefronts: [...STOREFRONTS] },
    });
  }

  private releaseFor(row: RowInput): ReleaseDraft {
    const existing = this.releases.get(row.albumKey);
    if (existing) return existing;
    const name = row.album || row.title;
    const draft: ReleaseDraft = {
      release: {
        key: `fr${String(this.releases.size).padStart(6, '0')}`,
        name,
        type: releaseType(name, row.title),
        artists: [row.artists[0] ?? 'Unknown Artist'],
        releaseDate: synthesizeReleaseDate(row),
        totalTracks: 0,
        upc: String(190_000_000_000 + hashInt(`upc:${row.albumKey}`, 9_999_999_999)),
      },
      artists: new Set(),
    };
    this.releases.set(row.albumKey, draft);
    return draft;
  }

  finish(seed: string): Catalog {
    const releases = new Map<string, CatalogRelease>();
    for (const { release, artists } of this.releases.values()) {
      if (artists.size > 2) {
        release.type = 'compilation';
        release.artists = ['Various Artists'];
      }
      releases.set(release.key, release);
    }
    const catalog: Catalog = { tracks: this.tracks, releases, demoLibraries: { spotify: [], apple: [] } };
    catalog.demoLibraries = buildDemoLibraries(catalog, new Rng(`${seed}:library`));
    return catalog;
  }
}

function normalize(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

function releaseType(album: string, title: string): ReleaseType {
  if (/greatest hits|best of|the essential|collection|anthology|now that's|\bhits\b/i.test(album))
    return 'compilation';
  const base = (text: string) => normalize(text.replace(/\s+-\s+.*$|\s*[([].*$/, ''));
  return base(album) === base(title) ? 'single' : 'album';
}

function featuredIn(title: string, artists: string[]): string[] {
  const match = /\((?:feat\.|with)\s+([^)]+)\)/i.exec(title);
  if (!match?.[1]) return [];
  const credited = match[1].split(/,|&| and /).map((name) => normalize(name));
  return artists.filter((artist) => credited.includes(normalize(artist)));
}

const SCRIPT_COUNTRIES: Record<string, string> = {
  HANGUL: 'KR',
  JAPANESE_KANA: 'JP',
  CJK: 'TW',
  CYRILLIC: 'RU',
  GREEK: 'GR',
  ARABIC: 'EG',
  HEBREW: 'IL',
  THAI: 'TH',
};

function countryFor(script: string | undefined): string {
  return (script && SCRIPT_COUNTRIES[script]) || 'US';
}

function registrantFor(artist: string): string {
  return LABEL_REGISTRANTS[hashInt(`label:${artist}`, LABEL_REGISTRANTS.length)] ?? 'QZ1';
}

function synthesizeReleaseDate(row: RowInput): string {
  const h = hashFloat(`date:${row.albumKey}`);
  const latest = row.latestDate ?? '2025-12-31';
  const latestYear = Number.parseInt(latest.slice(0, 4), 10);
  const remaster = /remaster(?:ed)?\s*(\d{4})|(\d{4})\s*remaster/i.exec(`${row.title} ${row.album}`);
  const remasterYear = Number.parseInt(remaster?.[1] ?? remaster?.[2] ?? '', 10);
  let year: number;
  if (Number.isFinite(remasterYear) && remasterYear <= latestYear) year = remasterYear;
  else if (row.decade) year = row.decade + Math.floor(h * 10);
  else year = latestYear - Math.floor(h * h * 15);
  year = Math.max(1950, Math.min(latestYear, year));
  const month = 1 + hashInt(`month:${row.albumKey}`, 12);
  const day = 1 + hashInt(`day:${row.albumKey}`, 28);
  const date = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return date > latest ? latest : date;
}

// --- the archive CSV -----------------------------------------------------------------------------------

const REQUIRED_COLUMNS = ['track_id', 'title', 'artists', 'album', 'album_id', 'duration_s'] as const;

/** Playlist names work as genre tags: "RapCaviar" → hip-hop, "K-Pop Rising" → k-pop. */
const PLAYLIST_GENRES: [RegExp, string][] = [
  [/rap|hip.?hop|trap|drill/i, 'hip-hop'],
  [/k-?pop|korea/i, 'k-pop'],
  [/j-?pop|japan|anime|city pop/i, 'j-pop'],
  [/jazz/i, 'jazz'],
  [/piano|classical|peaceful|instrumental study/i, 'classical'],
  [/metal/i, 'metal'],
  [/punk/i, 'punk'],
  [/rock/i, 'rock'],
  [/country/i, 'country'],
  [/reggaeton|perreo/i, 'reggaeton'],
  [/latin|baila|viva|éxitos/i, 'latin'],
  [/dance|edm|electro|house|mint|techno/i, 'electronic'],
  [/r&b|soul/i, 'r&b'],
  [/indie/i, 'indie'],
  [/folk|acoustic/i, 'folk'],
  [/lo-?fi|chill|coffee/i, 'lo-fi'],
  [/ambient|sleep/i, 'ambient'],
  [/afro/i, 'afrobeats'],
  [/reggae/i, 'reggae'],
  [/blues/i, 'blues'],
];

function genresFromPlaylists(playlists: string[]): string[] {
  const genres = new Set<string>();
  for (const name of playlists) {
    for (const [pattern, genre] of PLAYLIST_GENRES) if (pattern.test(name)) genres.add(genre);
  }
  if (genres.size === 0) genres.add('pop');
  return [...genres].slice(0, 3);
}

const jsonStringArray = z.array(z.string());

function readArchiveCsv(text: string, path: string, builder: FileCatalogBuilder): void {
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    rows = parse(text, { bom: true, skip_empty_lines: true, info: true }) as unknown as typeof rows;
  } catch (error) {
    throw new CatalogFileError(`${path}: not valid CSV: ${(error as Error).message}`);
  }
  const header = rows[0]?.record;
  if (!header) throw new CatalogFileError(`${path}: the file is empty`);
  const column = new Map(header.map((name, index) => [name.trim(), index]));
  const missing = REQUIRED_COLUMNS.filter((name) => !column.has(name));
  if (missing.length > 0) {
    throw new CatalogFileError(`${path} line 1: missing column(s) ${missing.join(', ')}`);
  }
  // Names stay exactly as the service shows them (trailing spaces, stray BOMs and all); only codes are trimmed.
  const raw = (record: string[], name: string) => {
    const index = column.get(name);
    return index === undefined ? '' : (record[index] ?? '');
  };
  const cell = (record: string[], name: string) => raw(record, name).trim();
  const pending: { row: RowInput; line: number }[] = [];
  for (const { record, info } of rows.slice(1)) {
    const line = info.lines;
    const fail = (reason: string): never => {
      throw new CatalogFileError(`${path} line ${line}: ${reason}`);
    };
    const trackId = cell(record, 'track_id');
    if (!/^[A-Za-z0-9]{22}$/.test(trackId)) fail(`track_id "${trackId}" is not a 22-character Spotify id`);
    const title = raw(record, 'title');
    if (!title.trim()) fail('title is empty');
    const listed = parseJsonList(cell(record, 'artists'));
    if (!listed) fail('artists must be a JSON array of names, e.g. ["Artist"]');
    // The archive has a few rows whose metadata Spotify withheld (artists `[""]`); keep them, credited as unknown.
    const named = (listed ?? []).filter((name) => name.trim() !== '');
    const artists = named.length > 0 ? named : ['Unknown Artist'];
    const durationText = cell(record, 'duration_s');
    let durationMs: number;
    if (durationText === '') {
      // The archive lacks a length for a few rows; a plausible, stable one keeps them usable.
      durationMs = (120 + hashInt(`duration:${trackId}`, 180)) * 1000;
    } else {
      const seconds = Number(durationText);
      if (!Number.isFinite(seconds) || seconds <= 0)
        fail(`duration_s "${durationText}" is not a positive number`);
      durationMs = Math.round(seconds * 1000);
    }
    const playlistsText = cell(record, 'playlists');
    const playlists = playlistsText ? parseJsonList(playlistsText) : [];
    if (!playlists) fail('playlists must be a JSON array of names');
    const firstAdded = cell(record, 'first_added');
    if (firstAdded && !/^\d{4}-\d{2}-\d{2}$/.test(firstAdded))
      fail(`first_added "${firstAdded}" is not YYYY-MM-DD`);
    const decadeMatch = (playlists ?? []).map((name) => /All Out (\d)0s/i.exec(name)?.[1]).find(Boolean);
    const album = raw(record, 'album');
    pending.push({
      row: {
        spotifyId: trackId,
        title,
        artists,
        album,
        albumKey: cell(record, 'album_id') || `${album}|${artists[0]}`,
        durationMs,
        genres: genresFromPlaylists(playlists ?? []),
        latestDate: firstAdded || undefined,
        decade: decadeMatch
          ? 1900 + Number(decadeMatch) * 10 + (Number(decadeMatch) < 3 ? 100 : 0)
          : undefined,
        script: cell(record, 'script') || undefined,
      },
      line,
    });
  }
  builder.addAll(pending, path);
}

function parseJsonList(text: string): string[] | undefined {
  try {
    const parsed = jsonStringArray.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

// --- JSON Lines ----------------------------------------------------------------------------------------

/**
 * Lenient where real exports are messy (numeric ids, blank artist names, missing durations, malformed
 * ISRCs): such values are repaired or dropped rather than failing a whole catalog.
 */
const jsonLineSchema = z.object({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  name: z.string(),
  artists: z
    .array(z.string())
    .transform((names) => names.map((name) => name.trim()).filter(Boolean))
    .transform((names) => (names.length > 0 ? names : ['Unknown Artist'])),
  album: z
    .string()
    .nullish()
    .transform((album) => album ?? ''),
  durationMs: z
    .number()
    .nonnegative()
    .nullish()
    .transform((ms) => Math.round(ms ?? 0)),
  isrc: z
    .string()
    .nullish()
    .transform((isrc) => {
      const cleaned = isrc?.replace(/[-\s]/g, '').toUpperCase();
      return cleaned && /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/.test(cleaned) ? cleaned : undefined;
    }),
  explicit: z
    .boolean()
    .nullish()
    .transform((explicit) => explicit ?? undefined),
  genres: z.array(z.string()).optional(),
  service: z.enum(['spotify', 'apple']).optional(),
});

function readJsonLines(
  text: string,
  path: string,
  builder: FileCatalogBuilder,
  service: 'spotify' | 'apple',
): void {
  const lines = text.split(/\r?\n/);
  const pending: { row: RowInput; line: number }[] = [];
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      throw new CatalogFileError(`${path} line ${line}: not valid JSON (${(error as Error).message})`);
    }
    const parsed = jsonLineSchema.safeParse(json);
    if (!parsed.success) {
      const problems = parsed.error.issues
        .map((issue) => `${issue.path.join('.') || 'line'}: ${issue.message}`)
        .join('; ');
      throw new CatalogFileError(`${path} line ${line}: ${problems}`);
    }
    const row = parsed.data;
    const rowService = row.service ?? service;
    pending.push({
      row: {
        spotifyId: rowService === 'spotify' ? row.id : undefined,
        appleId: rowService === 'apple' ? row.id : undefined,
        title: row.name,
        artists: row.artists,
        album: row.album,
        albumKey: `${row.album || row.name}|${row.artists[0]}`,
        durationMs: Math.round(row.durationMs),
        isrc: row.isrc,
        explicit: row.explicit,
        genres: row.genres && row.genres.length > 0 ? row.genres : ['pop'],
      },
      line,
    });
  });
  builder.addAll(pending, path);
}

// --- choosing a catalog ----------------------------------------------------------------------------------

export interface CatalogSettings {
  /** A catalog file (CSV or JSON Lines); without it the generator makes one. */
  path?: string | undefined;
  seed?: string | undefined;
  trackCount?: number | undefined;
}

const cache = new Map<string, Catalog>();

/**
 * The catalog for these settings, built once per process: emulators, tests and the benchmark share the
 * same (read-only) catalog instead of regenerating or re-reading it.
 */
export function loadCatalog(settings: CatalogSettings = {}): Catalog {
  const key = settings.path
    ? `file:${resolve(settings.path)}`
    : `generated:${settings.seed ?? 'crossfade'}:${settings.trackCount ?? 24_000}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const catalog = settings.path
    ? loadCatalogFile(settings.path)
    : generateCatalog({ seed: settings.seed, trackCount: settings.trackCount });
  cache.set(key, catalog);
  return catalog;
}
