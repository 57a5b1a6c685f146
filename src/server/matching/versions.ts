import { parseCreditSegment } from './credits';
import { foldText, unifyText } from './normalize';

/**
 * Version tokens live in title (and album) segments: "Title - Live", "Title (Live at X)", "Title [Live]",
 * "Title (feat. X) [Melad Remix]". Each segment is read once per track; recognised segments (credits,
 * versions, neutral release notes) leave the title, unknown ones stay part of it so "(Don't Fear) The Reaper"
 * keeps its words.
 *
 * Hard kinds are different recordings: one never stands in for another. Soft kinds are the same song
 * presented differently (a remaster, a radio edit): they cost a few points but can still be accepted.
 */
export type HardVersionKind =
  | 'live'
  | 'remix'
  | 'acoustic'
  | 'instrumental'
  | 'acapella'
  | 'karaoke'
  | 'cover'
  | 'sped_up'
  | 'slowed'
  | 'demo'
  | 'language'
  | 'alternate';
export type SoftVersionKind = 'remaster' | 'radio_edit' | 'extended' | 'mono';
export type VersionKind = HardVersionKind | SoftVersionKind;

export interface VersionTag {
  kind: VersionKind;
  /** Remixer, language, remaster year or the words of an unknown "X Version"; '' when none. */
  detail: string;
}

export interface ParsedTitle {
  /** The title without credits and recognised version/neutral segments, readable (case kept). */
  title: string;
  /** Artists credited inside the title ("feat.", "with", "ft."). */
  featured: readonly string[];
  tags: readonly VersionTag[];
  /**
   * Segments nobody recognised that stayed in `title`: a subtitle, a translation ("(Everlasting Shine)"),
   * or a kind of recording no word list names. Two titles that differ only by such a segment are the same
   * song but perhaps not the same recording.
   */
  extras: readonly string[];
  /** `title` without its `extras`. */
  core: string;
  /**
   * What to search for: the title with the segments that name another recording kept as written
   * ("Heaven - Acoustic", "Yellow - Live at Glastonbury 2016"), and the ones services word differently
   * (remaster and edit notes, release notes, credits) left out.
   */
  query: string;
}

/** What reading a title's segments noticed besides credits and tags. */
interface SegmentNotes {
  extras: string[];
  /** Raw text of the segments that carry a hard version tag. */
  hard: string[];
}

const HARD_KINDS: ReadonlySet<VersionKind> = new Set<VersionKind>([
  'live',
  'remix',
  'acoustic',
  'instrumental',
  'acapella',
  'karaoke',
  'cover',
  'sped_up',
  'slowed',
  'demo',
  'language',
  'alternate',
]);

export function isHardKind(kind: VersionKind): kind is HardVersionKind {
  return HARD_KINDS.has(kind);
}

const LANGUAGES: Record<string, string> = {
  spanish: 'spanish',
  espanol: 'spanish',
  castellano: 'spanish',
  english: 'english',
  ingles: 'english',
  japanese: 'japanese',
  korean: 'korean',
  chinese: 'chinese',
  mandarin: 'chinese',
  cantonese: 'cantonese',
  french: 'french',
  francais: 'french',
  german: 'german',
  deutsch: 'german',
  italian: 'italian',
  italiano: 'italian',
  portuguese: 'portuguese',
  portugues: 'portuguese',
  hindi: 'hindi',
  russian: 'russian',
  spanglish: 'spanglish',
};

const REMIX_WORDS = new Set([
  'remix',
  'rmx',
  'remixed',
  'rework',
  'reworked',
  'bootleg',
  'vip',
  'flip',
  'refix',
  'mashup',
  'dub',
]);
const NAMING_REMIX_WORDS = new Set(['vip', 'flip', 'bootleg', 'refix', 'mashup', 'dub']);
// "X Mix (Edit)" read flat is "x mix edit": an edit of that mix, not a remix by someone called "mix".
const EDIT_SOFT_PREFIX = new Set([
  'radio',
  'single',
  'short',
  'clean',
  'explicit',
  'album',
  'original',
  'edit',
  '7',
  'mix',
  'remix',
]);
const FILLER_WORDS = new Set(['the', 'a', 'an', 'by', 'and', 'official', 'version', 'ver', 'mix', 'edit']);
const NEUTRAL_WORDS = new Set([
  'single',
  'album',
  'original',
  'version',
  'ver',
  'mix',
  'lp',
  'ep',
  'explicit',
  'clean',
  'dirty',
  'main',
  'stereo',
  'bonus',
  'track',
  'deluxe',
  'edition',
  'expanded',
  'anniversary',
  'special',
  'digital',
  'mixed',
  'official',
  'audio',
  'the',
  'a',
  'and',
  'of',
  'super',
  'collectors',
  'complete',
  'th',
  'soundtrack',
  'ost',
  'edited',
  'motion',
  'picture',
  'music',
  'film',
  'score',
  'censored',
  'uncensored',
]);
const NEUTRAL_PREFIXES = [
  'from ',
  'prod ',
  'produced by ',
  'theme from ',
  'taken from ',
  'music from ',
  'as heard',
  'as featured',
];
const YEAR_RE = /^(?:19|20)\d\d$/;
const ORDINAL_RE = /^\d+(?:st|nd|rd|th)?$/;

function isYear(word: string): boolean {
  return YEAR_RE.test(word);
}

function wordsBefore(words: string[], index: number): string {
  return words
    .slice(0, index)
    .filter((w) => !FILLER_WORDS.has(w))
    .join(' ');
}

const LIVE_FILLER = new Set(['at', 'in', 'from', 'on', 'the', 'a', 'and']);

/** Where and when a live recording was made ("at Wembley 1986"), when the title says: two concerts differ. */
function liveDetail(words: readonly string[]): string {
  const at = words.indexOf('live');
  return at < 0
    ? ''
    : words
        .slice(at + 1)
        .filter((word) => !LIVE_FILLER.has(word))
        .join(' ');
}

function hasPhrase(padded: string, phrase: string): boolean {
  return padded.includes(` ${phrase} `);
}

function addTag(tags: VersionTag[], kind: VersionKind, detail = ''): void {
  if (!tags.some((t) => t.kind === kind)) tags.push({ kind, detail });
}

/** Version tags named by one segment's folded words. */
export function detectVersionTags(folded: string): VersionTag[] {
  if (folded === '') return [];
  const words = folded.split(' ');
  const set = new Set(words);
  const padded = ` ${folded} `;
  const tags: VersionTag[] = [];

  if (
    set.has('live') ||
    set.has('unplugged') ||
    hasPhrase(padded, 'en vivo') ||
    hasPhrase(padded, 'ao vivo') ||
    hasPhrase(padded, 'in concert')
  )
    addTag(tags, 'live', liveDetail(words));
  if (set.has('acoustic') || set.has('acustico') || set.has('acustica') || set.has('stripped'))
    addTag(tags, 'acoustic');
  if (set.has('instrumental') || set.has('inst') || set.has('instrumentale')) addTag(tags, 'instrumental');
  if (
    set.has('acapella') ||
    set.has('acappella') ||
    hasPhrase(padded, 'a cappella') ||
    hasPhrase(padded, 'a capella')
  )
    addTag(tags, 'acapella');
  if (
    set.has('karaoke') ||
    hasPhrase(padded, 'originally performed') ||
    hasPhrase(padded, 'in the style of') ||
    hasPhrase(padded, 'backing track') ||
    hasPhrase(padded, 'made famous')
  )
    addTag(tags, 'karaoke');
  if (set.has('cover') || set.has('covers') || set.has('tribute')) addTag(tags, 'cover');
  if (
    hasPhrase(padded, 'sped up') ||
    hasPhrase(padded, 'speed up') ||
    set.has('spedup') ||
    set.has('nightcore') ||
    set.has('sped')
  )
    addTag(tags, 'sped_up');
  if (set.has('slowed') || set.has('reverb') || set.has('screwed')) addTag(tags, 'slowed');
  if (set.has('demo')) addTag(tags, 'demo');
  if (set.has('mono')) addTag(tags, 'mono');
  if (set.has('extended') || hasPhrase(padded, 'long version')) addTag(tags, 'extended');

  const remasterIndex = words.findIndex((w) => w.startsWith('remaster'));
  if (remasterIndex >= 0) addTag(tags, 'remaster', words.find(isYear) ?? '');

  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? '';
    if (REMIX_WORDS.has(w)) {
      if (w === 'remixed' && words[i + 1] === 'by') addTag(tags, 'remix', words.slice(i + 2).join(' '));
      // "VIP", "Dub", "Bootleg" name a kind of remix of their own: part of which remix it is.
      else if (NAMING_REMIX_WORDS.has(w)) addTag(tags, 'remix', [wordsBefore(words, i), w].join(' ').trim());
      else addTag(tags, 'remix', wordsBefore(words, i));
    } else if (w === 'mix') {
      const prev = words[i - 1];
      if (
        prev === undefined ||
        prev === 'original' ||
        prev === 'album' ||
        prev === 'single' ||
        prev === 'main'
      )
        continue;
      if (prev === 'extended' || prev === 'long') addTag(tags, 'extended');
      else if (prev === 'radio' || prev === 'short') addTag(tags, 'radio_edit');
      else addTag(tags, 'remix', wordsBefore(words, i));
    } else if (w === 'edit') {
      const prev = words[i - 1];
      if (prev === 'extended') addTag(tags, 'extended');
      else if (prev === undefined || EDIT_SOFT_PREFIX.has(prev) || isYear(prev)) addTag(tags, 'radio_edit');
      else addTag(tags, 'remix', wordsBefore(words, i));
    }
  }
  if (hasPhrase(padded, 'radio version') || hasPhrase(padded, 'short version')) addTag(tags, 'radio_edit');

  for (const w of words) {
    const language = LANGUAGES[w];
    if (
      language &&
      (set.has('version') ||
        set.has('ver') ||
        set.has('versao') ||
        set.has('language') ||
        hasPhrase(padded, `en ${w}`))
    ) {
      addTag(tags, 'language', language);
      break;
    }
  }

  const neutralLead = NEUTRAL_PREFIXES.some((p) => folded.startsWith(p));
  if (tags.length === 0 && !neutralLead && (set.has('version') || set.has('ver') || set.has('take'))) {
    const qualifiers = words.filter((w) => !NEUTRAL_WORDS.has(w) && !isYear(w) && w !== 's');
    if (qualifiers.length > 0) addTag(tags, 'alternate', qualifiers.join(' '));
  }
  return tags;
}

function isNeutralSegment(folded: string): boolean {
  if (folded === '') return true;
  if (NEUTRAL_PREFIXES.some((p) => folded.startsWith(p))) return true;
  return folded.split(' ').every((w) => NEUTRAL_WORDS.has(w) || isYear(w) || ORDINAL_RE.test(w));
}

type Segment =
  | { kind: 'credit'; names: readonly string[] }
  | { kind: 'version'; tags: readonly VersionTag[] }
  | { kind: 'neutral' }
  | { kind: 'unknown' };

const SLASH_RE = /\s*\/\s*/;

// Segments repeat across a catalog ("Live", "Remastered 2009", "Radio Edit"): classify each text once.
// Bounded so a long-running server does not grow without limit; results are never mutated.
const SEGMENT_CACHE_LIMIT = 20_000;
const segmentCache = new Map<string, Segment>();

function classifySegment(raw: string): Segment {
  const cached = segmentCache.get(raw);
  if (cached) return cached;
  const segment = classifySegmentUncached(raw);
  if (segmentCache.size >= SEGMENT_CACHE_LIMIT) segmentCache.clear();
  segmentCache.set(raw, segment);
  return segment;
}

function classifySegmentUncached(raw: string): Segment {
  // "Live / Remastered", "From "Frozen"/Soundtrack Version": each piece says something on its own.
  const pieces = raw.split(SLASH_RE);
  if (pieces.length > 1 && pieces.every((p) => p !== '')) {
    const classified = pieces.map(classifyPiece);
    if (classified.every((c) => c.kind === 'version' || c.kind === 'neutral')) {
      const tags: VersionTag[] = [];
      for (const c of classified) if (c.kind === 'version') mergeTags(tags, c.tags);
      return tags.length > 0 ? { kind: 'version', tags } : { kind: 'neutral' };
    }
  }
  return classifyPiece(raw);
}

function classifyPiece(raw: string): Segment {
  const names = parseCreditSegment(raw);
  if (names) return { kind: 'credit', names };
  const folded = foldText(raw);
  const tags = detectVersionTags(folded);
  if (tags.length > 0) return { kind: 'version', tags };
  if (isNeutralSegment(folded)) return { kind: 'neutral' };
  return { kind: 'unknown' };
}

const SEGMENT_HINT_RE = /[([{]|\s-\s|\s(?:feat|ft|featuring)\b/i;
const DASH_SPLIT_RE = /\s+-\s+/;
const INLINE_FEAT_RE = /\s(?:feat\.?|ft\.?|featuring)\s+(.+)$/i;
// Some catalogs cut long titles mid-credit: "Song (feat. A, B & C".
const OPEN_CREDIT_RE = /\s*[([]\s*((?:feat\.?|ft\.?|featuring|with)\s[^)\]]*)$/i;

function mergeTags(into: VersionTag[], tags: readonly VersionTag[]): void {
  for (const tag of tags) {
    const at = into.findIndex((t) => t.kind === tag.kind);
    if (at < 0) into.push(tag);
    // "(Duet Version) (Taylor’s Version)": both say which recording it is.
    else if (tag.kind === 'alternate' && !into[at]?.detail.includes(tag.detail))
      into[at] = { kind: 'alternate', detail: `${into[at]?.detail ?? ''} ${tag.detail}`.trim() };
  }
}

const CREDIT_OPEN_RE = /[([](?=\s*(?:feat\.?|ft\.?|featuring|with)\s)/gi;

/** Credits whose names hold brackets of their own ("(feat. LEON (Italy))"), matched to the balancing bracket. */
function extractBracketedCredits(title: string, featured: string[]): string {
  if (!title.includes('(') && !title.includes('[')) return title;
  let s = title;
  CREDIT_OPEN_RE.lastIndex = 0;
  for (let match = CREDIT_OPEN_RE.exec(s); match; match = CREDIT_OPEN_RE.exec(s)) {
    const start = match.index;
    if (start === 0) continue;
    let depth = 0;
    let end = -1;
    for (let i = start; i < s.length; i++) {
      const c = s[i];
      if (c === '(' || c === '[') depth++;
      else if (c === ')' || c === ']') {
        depth--;
        if (depth === 0) {
          end = i;
          break;
        }
      }
    }
    if (end < 0) break;
    const names = parseCreditSegment(s.slice(start + 1, end));
    if (!names) continue;
    featured.push(...names);
    s = `${s.slice(0, start)} ${s.slice(end + 1)}`;
    CREDIT_OPEN_RE.lastIndex = start;
  }
  return s;
}

function closingBracket(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x28 || c === 0x5b || c === 0x7b) depth++;
    else if (c === 0x29 || c === 0x5d || c === 0x7d) {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/**
 * Reads each top-level bracketed segment whole, nested brackets included
 * ("(Alternate Mix (Electronically Processed Stereo))"), and removes the ones it recognises.
 */
function stripBracketSegments(
  title: string,
  featured: string[],
  tags: VersionTag[],
  notes: SegmentNotes,
): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < title.length; i++) {
    const c = title.charCodeAt(i);
    if (c !== 0x28 && c !== 0x5b && c !== 0x7b) continue;
    const end = closingBracket(title, i);
    if (end < 0) break;
    const before = title.slice(from, i);
    const inside = title.slice(i + 1, end);
    const segment = classifySegment(inside);
    // A leading bracket is part of the name ("(Don't Fear) The Reaper") unless it is a credit.
    const leading = (out + before).trim() === '' && title.slice(end + 1).trim() !== '';
    const remove = leading
      ? segment.kind === 'credit' && takeSegment(featured, tags, segment)
      : takeSegment(featured, tags, segment);
    if (!leading) noteSegment(notes, segment, inside);
    out += remove ? `${before} ` : title.slice(from, end + 1);
    from = end + 1;
    i = end;
  }
  return out + title.slice(from);
}

const NO_NAMES: readonly string[] = [];
const NO_TAGS: readonly VersionTag[] = [];

function isHardSegment(segment: Segment): boolean {
  return segment.kind === 'version' && segment.tags.some((tag) => isHardKind(tag.kind));
}

function noteSegment(notes: SegmentNotes, segment: Segment, raw: string): void {
  if (segment.kind === 'unknown') notes.extras.push(raw);
  else if (isHardSegment(segment)) notes.hard.push(raw);
}

/** `title` without the unknown segments, however they were written ("X (Y)", "X [Y]", "X - Y"). */
function withoutExtras(title: string, extras: readonly string[]): string {
  let core = title;
  for (const extra of extras) {
    for (const form of [`(${extra})`, `[${extra}]`, `{${extra}}`, ` - ${extra}`]) {
      const at = core.indexOf(form);
      if (at >= 0) {
        core = `${core.slice(0, at)} ${core.slice(at + form.length)}`;
        break;
      }
    }
  }
  const trimmed = core.replace(/\s+/g, ' ').trim();
  return trimmed === '' ? title : trimmed;
}

/** Records what a recognised segment says; false for segments that stay in the title. */
function takeSegment(featured: string[], tags: VersionTag[], segment: Segment): boolean {
  if (segment.kind === 'credit') featured.push(...segment.names);
  else if (segment.kind === 'version') mergeTags(tags, segment.tags);
  return segment.kind !== 'unknown';
}

/** Splits on " - " outside brackets: "Song (Alpha 102Hz - 109Hz) - Live" has one dash segment. */
function splitTopLevelDashes(s: string): string[] {
  if (!s.includes(' - ')) return [s];
  if (!/[([{]/.test(s)) return s.split(DASH_SPLIT_RE);
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x28 || c === 0x5b || c === 0x7b) depth++;
    else if ((c === 0x29 || c === 0x5d || c === 0x7d) && depth > 0) depth--;
    else if (depth === 0 && c === 0x2d && /\s/.test(s[i - 1] ?? '') && /\s/.test(s[i + 1] ?? '')) {
      parts.push(s.slice(from, i).trim());
      from = i + 1;
    }
  }
  parts.push(s.slice(from).trim());
  return parts.filter((part) => part !== '');
}

/**
 * Reads the segments after " - ". Spotify puts one descriptor after the dash, sometimes with dashes of
 * its own ("Dimitri From Paris TSOP - The Sound Of Paris - Remix"), and sometimes several descriptors.
 */
function readDashSegments(s: string, featured: string[], tags: VersionTag[], notes: SegmentNotes): string {
  const parts = splitTopLevelDashes(s);
  if (parts.length < 2) return s;
  const after = parts.slice(1);
  // Read whole only when a piece alone means nothing but the whole names a recording (a remixer's name
  // with dashes in it); "Duet Version - Remastered 2017" or "At the Chapel - 2010 Remaster" piece by piece.
  if (after.length > 1 && after.some((part) => classifySegment(part).kind === 'unknown')) {
    const whole = after.join(' - ');
    const segment = classifySegment(whole);
    if ((segment.kind !== 'version' || isHardSegment(segment)) && takeSegment(featured, tags, segment)) {
      // The query keeps the pieces that name another recording, not the remaster note beside them.
      const pieces = after.filter((part) => isHardSegment(classifySegment(part)));
      notes.hard.push(...(pieces.length > 0 || !isHardSegment(segment) ? pieces : [whole]));
      return parts[0] ?? s;
    }
  }
  const kept = [parts[0] ?? ''];
  for (const part of after) {
    const segment = classifySegment(part);
    noteSegment(notes, segment, part);
    if (!takeSegment(featured, tags, segment)) kept.push(part);
  }
  return kept.join(' - ');
}

/** Splits a title into its base title, credited artists and version tags. */
export function parseTitle(raw: string): ParsedTitle {
  const featured: string[] = [];
  const tags: VersionTag[] = [];

  let s = unifyText(raw);
  if (!SEGMENT_HINT_RE.test(s))
    return { title: s, featured: NO_NAMES, tags: NO_TAGS, extras: NO_NAMES, core: s, query: s };
  const notes: SegmentNotes = { extras: [], hard: [] };
  const open = OPEN_CREDIT_RE.exec(s);
  if (open?.[1] && takeSegment(featured, tags, classifySegment(open[1]))) s = s.slice(0, open.index);

  s = extractBracketedCredits(s, featured);

  s = stripBracketSegments(s, featured, tags, notes);

  s = readDashSegments(s, featured, tags, notes);

  // "Song feat. X - Acoustic": the credit belongs to the part before the dash.
  const [base = '', ...rest] = splitTopLevelDashes(s);
  const inline = INLINE_FEAT_RE.exec(base);
  if (inline?.[1] && inline.index > 0) {
    const names = parseCreditSegment(`feat. ${inline[1]}`);
    if (names) {
      featured.push(...names);
      s = [base.slice(0, inline.index), ...rest].join(' - ');
    }
  }

  const cleaned = s.replace(/\s+/g, ' ').trim();
  const title = cleaned === '' ? unifyText(raw) : cleaned;
  return {
    title,
    featured,
    tags,
    extras: notes.extras,
    core: withoutExtras(title, notes.extras),
    query: notes.hard.length > 0 ? [title, ...notes.hard].join(' - ') : title,
  };
}

const ALBUM_SUFFIX_RE = /\s+-\s+(?:single|ep)$/i;
/** Kinds an album's bare name is trusted for (a "Remixes" or "Acoustic" album also holds plain tracks). */
const ALBUM_NAME_KINDS: ReadonlySet<VersionKind> = new Set<VersionKind>([
  'karaoke',
  'cover',
  'sped_up',
  'slowed',
]);

/** Album name without " - Single"/" - EP", edition notes or version segments, plus its version tags. */
export function parseAlbum(raw: string): { album: string; albumKey: string; tags: readonly VersionTag[] } {
  const withoutSuffix = unifyText(raw).replace(ALBUM_SUFFIX_RE, '');
  const parsed = parseTitle(withoutSuffix);
  let tags = parsed.tags;
  const folded = foldText(parsed.title);
  // Live albums often say so only in their name: "Live at Wembley", "Alive at the Apollo" does not count.
  // ("A Reason to Live", "Live and Let Live" are not.)
  if (/^(?:live (?:at|in|from|on)|mtv unplugged)\b/.test(folded) || / (?<!to |let )live$/.test(folded)) {
    if (!tags.some((t) => t.kind === 'live')) tags = [...tags, { kind: 'live', detail: '' }];
  }
  // Compilations of other recordings often say so only in their bare name: "Karaoke Hits of X", "A
  // Tribute to X", "Covers, Vol. 2", "Sped Up Hits 2024".
  for (const tag of detectVersionTags(folded)) {
    // "Cover Me Up" is an album of its own songs; "Covers, Vol. 2" and "A Tribute to X" are not.
    if (tag.kind === 'cover' && !/\b(?:covers|tribute)\b/.test(folded)) continue;
    if (ALBUM_NAME_KINDS.has(tag.kind) && !tags.some((t) => t.kind === tag.kind)) tags = [...tags, tag];
  }
  return { album: parsed.title, albumKey: folded, tags };
}

/** A short label for people: "live", "remix (melad)", "remaster 2009", "spanish version". */
export function versionLabel(tag: VersionTag): string {
  switch (tag.kind) {
    case 'sped_up':
      return 'sped up';
    case 'radio_edit':
      return 'radio edit';
    case 'acapella':
      return 'a cappella';
    case 'language':
      return `${tag.detail} version`;
    case 'alternate':
      return `${tag.detail} version`;
    default:
      return tag.detail === '' ? tag.kind : `${tag.kind} ${tag.detail}`;
  }
}
