import type { NormalizedTrack } from '../providers/types';
import { splitArtists } from './credits';
import { normalizeIsrc } from './isrc';
import { foldText, unifyText } from './normalize';
import { hasOtherScript } from './scripts';
import {
  type HardVersionKind,
  isHardKind,
  parseAlbum,
  parseTitle,
  type SoftVersionKind,
  type VersionKind,
  type VersionTag,
  versionLabel,
} from './versions';

/**
 * Everything the scorer needs from a track, computed once. Scoring runs thousands of times per second
 * against the same tracks, so all regex work happens here and the hot loop only compares strings.
 */
export interface PreparedTrack {
  readonly track: NormalizedTrack;
  /** Readable title without credits or version segments (used for searches). */
  readonly title: string;
  readonly titleKey: string;
  /** The title to search for: hard version segments kept as written, credits and soft notes left out. */
  readonly queryTitle: string;
  /** The title key without the segments nobody recognised (see `ParsedTitle.extras`), and their words in order. */
  readonly coreKey: string;
  readonly extrasKey: string;
  /** Title, artists or album hold letters of another script than Latin (compared transliterated too). */
  readonly otherScript: boolean;
  /** Credited artists: the artist list split on "&", ",", " x ", plus those named in the title. */
  readonly artists: readonly string[];
  readonly artistKeys: readonly string[];
  readonly primaryArtist: string;
  readonly primaryArtistKey: string;
  readonly artistsJoinedKey: string;
  /** Album without " - Single", edition notes or version segments. */
  readonly album: string;
  readonly albumKey: string;
  readonly tags: readonly VersionTag[];
  readonly hard: ReadonlyMap<HardVersionKind, string>;
  readonly soft: ReadonlyMap<SoftVersionKind, string>;
  readonly versionLabels: readonly string[];
  /** Hard and soft tags as one string each: equal keys mean nothing to compare in the hot loop. */
  readonly hardKey: string;
  readonly softKey: string;
  readonly isrc: string | null;
}

// An album name says what kind of recording its tracks are only for these kinds ("Live at Wembley",
// "Karaoke Hits"); a "Remixes" album or a remastered reissue also holds plain tracks.
const ALBUM_KINDS: ReadonlySet<VersionKind> = new Set<VersionKind>([
  'live',
  'karaoke',
  'instrumental',
  'acapella',
  'sped_up',
  'slowed',
  'cover',
  'acoustic',
]);

const ARTIST_VERSION_WORDS: readonly [RegExp, VersionKind][] = [
  [/karaoke/, 'karaoke'],
  [/\b(?:tribute|covers?)\b/, 'cover'],
  [/\b(?:nightcore|sped up)\b/, 'sped_up'],
  [/\bslowed\b/, 'slowed'],
];

function artistVersionKinds(artistKeys: readonly string[]): VersionKind[] {
  const kinds: VersionKind[] = [];
  for (const [pattern, kind] of ARTIST_VERSION_WORDS) {
    if (artistKeys.some((key) => pattern.test(key))) kinds.push(kind);
  }
  return kinds;
}

const NO_HARD: ReadonlyMap<HardVersionKind, string> = new Map();
const NO_SOFT: ReadonlyMap<SoftVersionKind, string> = new Map();
const EXPLICIT_LABELS: readonly string[] = ['explicit'];
const CLEAN_LABELS: readonly string[] = ['clean'];
const NO_LABELS: readonly string[] = [];

function explicitLabels(explicit: boolean | undefined): readonly string[] {
  if (explicit === true) return EXPLICIT_LABELS;
  if (explicit === false) return CLEAN_LABELS;
  return NO_LABELS;
}

/** The folded text, or for names made only of symbols ("･－･"), the symbols themselves. */
function keyOf(text: string): string {
  const folded = foldText(text);
  return folded !== '' ? folded : unifyText(text).toLowerCase();
}

// Artist names repeat across a library and a catalog far more than titles do.
const ARTIST_KEY_CACHE_LIMIT = 20_000;
const artistKeyCache = new Map<string, string>();

function foldArtist(name: string): string {
  const cached = artistKeyCache.get(name);
  if (cached !== undefined) return cached;
  const key = keyOf(name);
  if (artistKeyCache.size >= ARTIST_KEY_CACHE_LIMIT) artistKeyCache.clear();
  artistKeyCache.set(name, key);
  return key;
}

const cache = new WeakMap<NormalizedTrack, PreparedTrack>();

export function prepareTrack(track: NormalizedTrack): PreparedTrack {
  const cached = cache.get(track);
  if (cached) return cached;
  const prepared = buildPrepared(track);
  cache.set(track, prepared);
  return prepared;
}

function buildPrepared(track: NormalizedTrack): PreparedTrack {
  const parsedTitle = parseTitle(track.name);
  const parsedAlbum = parseAlbum(track.album ?? '');
  const artists =
    parsedTitle.featured.length === 0
      ? splitArtists(track.artists)
      : splitArtists([...track.artists, ...parsedTitle.featured]);
  const artistKeys: string[] = [];
  for (const name of artists) {
    const key = foldArtist(name);
    if (key !== '' && !artistKeys.includes(key)) artistKeys.push(key);
  }

  let tags: readonly VersionTag[] = parsedTitle.tags;
  const extra: VersionTag[] = [];
  for (const tag of parsedAlbum.tags) if (ALBUM_KINDS.has(tag.kind)) extra.push(tag);
  // Credits that name the kind of recording: "Party Tyme Karaoke", "X Tribute Band", "The Cover
  // Collective", "sped up nightcore".
  for (const kind of artistVersionKinds(artistKeys)) extra.push({ kind, detail: '' });
  if (extra.length > 0) {
    const merged = [...tags];
    for (const tag of extra) if (!merged.some((t) => t.kind === tag.kind)) merged.push(tag);
    tags = merged;
  }

  // Most tracks carry no version at all: they share these empty values instead of allocating their own.
  let hard: ReadonlyMap<HardVersionKind, string> = NO_HARD;
  let soft: ReadonlyMap<SoftVersionKind, string> = NO_SOFT;
  let hardKey = '';
  let softKey = '';
  let versionLabels: readonly string[] = explicitLabels(track.explicit);
  if (tags.length > 0) {
    const hardMap = new Map<HardVersionKind, string>();
    const softMap = new Map<SoftVersionKind, string>();
    for (const tag of tags) {
      if (isHardKind(tag.kind)) hardMap.set(tag.kind, tag.detail);
      else softMap.set(tag.kind, tag.detail);
    }
    hard = hardMap;
    soft = softMap;
    hardKey = [...hardMap]
      .map(([kind, detail]) => `${kind}:${detail}`)
      .sort()
      .join('|');
    softKey = [...softMap]
      .map(([kind, detail]) => `${kind}:${detail}`)
      .sort()
      .join('|');
    versionLabels = [...tags.map(versionLabel), ...versionLabels];
  }

  const titleKey = keyOf(parsedTitle.title) || keyOf(track.name);
  const extras = parsedTitle.extras;
  return {
    track,
    title: parsedTitle.title,
    titleKey,
    queryTitle: parsedTitle.query,
    coreKey: extras.length === 0 ? titleKey : keyOf(parsedTitle.core) || titleKey,
    extrasKey: extras.length === 0 ? '' : extras.map(keyOf).join(' '),
    otherScript:
      hasOtherScript(track.name) || track.artists.some(hasOtherScript) || hasOtherScript(track.album ?? ''),
    artists,
    artistKeys,
    primaryArtist: artists[0] ?? '',
    primaryArtistKey: artistKeys[0] ?? '',
    artistsJoinedKey: artistKeys.join(' '),
    album: parsedAlbum.album,
    albumKey: parsedAlbum.albumKey,
    tags,
    hard,
    soft,
    versionLabels,
    hardKey,
    softKey,
    isrc: normalizeIsrc(track.isrc),
  };
}
