import type { NormalizedTrack } from '../providers/types';
import { compareAcrossScripts, coresAgreeAcrossScripts } from './cross-script';
import { foldText } from './normalize';
import { type PreparedTrack, prepareTrack } from './prepare';
import { hasOtherScript, scriptFreeKey } from './scripts';
import { similarity } from './similarity';
import { type HardVersionKind, type SoftVersionKind, versionLabel } from './versions';

/** Confidence bands (spec): at or above ACCEPT the match is used as is; from REVIEW it waits for a person. */
export const ACCEPT_THRESHOLD = 90;
export const REVIEW_THRESHOLD = 70;
/** A different version (live, remix, clean…) is never better than "unmatched" unless a person picks it. */
export const VERSION_MISMATCH_CAP = 60;
/** Durations more than this far apart are a different cut: at best a review. */
export const DURATION_REVIEW_LIMIT_MS = 5_000;
const DURATION_REVIEW_CAP = 80;
const UNCERTAIN_VERSION_CAP = 85;
const DURATION_REJECT_LIMIT_MS = 30_000;
const DURATION_REJECT_CAP = 55;
/** Further apart than this is another cut or speed (live, sped up, an edit): below the review band. */
const DURATION_OTHER_CUT_MS = 15_000;
const DURATION_OTHER_CUT_CAP = 65;
/** Artists this unlike perform another recording (a cover, a karaoke take) or another song. */
const OTHER_PERFORMER_SIMILARITY = 0.5;
const OTHER_PERFORMER_CAP = 65;
const DURATION_FULL_MS = 1_500;
const DURATION_ZERO_MS = 6_500;
const SOFT_VERSION_PENALTY = 3;
const EXPLICIT_ON_CLEAN_PENALTY = 12;
const ISRC_CONFIDENCE = 98;

const WEIGHTS = { title: 0.46, artist: 0.3, album: 0.06, duration: 0.18 } as const;

export type MatchStatus = 'accepted' | 'review' | 'unmatched';

export function statusFor(confidence: number): MatchStatus {
  if (confidence >= ACCEPT_THRESHOLD) return 'accepted';
  if (confidence >= REVIEW_THRESHOLD) return 'review';
  return 'unmatched';
}

export interface ScoredCandidate {
  track: NormalizedTrack;
  /** 0-100. */
  confidence: number;
  /** Short human-readable reasons: "ISRC match", "duration differs by 4 s", "different version: live". */
  reasons: string[];
  /** The candidate's own version labels ("live", "remix melad", "clean"), for a version picker. */
  versionLabels: readonly string[];
  /** False when the candidate is a different recording (version or clean/explicit gate). */
  sameVersion: boolean;
  isrcMatch: boolean;
  /** Absolute duration difference, null when either side has no duration. */
  durationDeltaMs: number | null;
}

const COVERED_ARTIST_SIMILARITY = 0.85;

function artistSimilarity(source: PreparedTrack, candidate: PreparedTrack): number {
  const a = source.artistKeys;
  const b = candidate.artistKeys;
  if (a.length === 0 || b.length === 0) return Number.NaN;
  if (source.artistsJoinedKey === candidate.artistsJoinedKey) return 1;
  // Artist order and how many featured names each service lists differ, so the primary artist counts most
  // and the rest only as coverage of the smaller list. Each pair is compared once.
  let sourcePrimary = 0;
  let candidatePrimary = 0;
  let coveredInA = 0;
  const coveredInB = new Uint8Array(b.length);
  for (let i = 0; i < a.length; i++) {
    const keyA = a[i] ?? '';
    let rowBest = 0;
    for (let j = 0; j < b.length; j++) {
      const keyB = b[j] ?? '';
      const sim = keyA === keyB ? 1 : similarity(keyA, keyB);
      if (sim > rowBest) rowBest = sim;
      if (j === 0 && sim > candidatePrimary) candidatePrimary = sim;
      if (sim >= COVERED_ARTIST_SIMILARITY) coveredInB[j] = 1;
    }
    if (i === 0) sourcePrimary = rowBest;
    if (rowBest >= COVERED_ARTIST_SIMILARITY) coveredInA++;
  }
  let coveredInCandidate = 0;
  for (const flag of coveredInB) coveredInCandidate += flag;
  // Names only one side credits count against the match: "Song" by A is often not "Song" by A feat. B.
  const coverage = (coveredInA + coveredInCandidate) / (a.length + b.length);
  const setScore = 0.75 * Math.max(sourcePrimary, candidatePrimary) + 0.25 * coverage;
  // The joined names only help when the services split the credit differently ("Simon and Garfunkel").
  if (setScore >= 1 || a.length === b.length) return Math.min(1, setScore);
  return Math.max(setScore, similarity(source.artistsJoinedKey, candidate.artistsJoinedKey));
}

function durationScore(deltaMs: number): number {
  if (deltaMs <= DURATION_FULL_MS) return 1;
  if (deltaMs >= DURATION_ZERO_MS) return 0;
  return 1 - (deltaMs - DURATION_FULL_MS) / (DURATION_ZERO_MS - DURATION_FULL_MS);
}

function percent(value: number): number {
  return Math.round(value * 100);
}

interface VersionComparison {
  gate: readonly string[];
  /** Differences a person should confirm: a named remix against an unnamed "Remix". */
  review: readonly string[];
  soft: readonly string[];
}

function hardLabel(kind: HardVersionKind, detail: string): string {
  return versionLabel({ kind, detail });
}

const SAME_VERSION: VersionComparison = { gate: [], review: [], soft: [] };

function containsWords(haystack: string, needle: string): boolean {
  return ` ${haystack} `.includes(` ${needle} `);
}

/** Words a remixer's name loses inside a remix note ("again&again" is read "again again" there). */
const CONNECTIVES_RE = /\b(?:and|the|by)\b/g;

function nameWords(folded: string): string {
  return folded.replace(CONNECTIVES_RE, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * Whether a track whose title says only "Remix" names the remixer elsewhere: among its artists (Spotify
 * credits remixers) or in its album ("Song (X Remix) - Single"). Names of a letter or two prove nothing.
 * (A different named remix on the same single, "VIP" or "Dub", never gets here: it has a name of its own.)
 */
function creditsRemixer(track: PreparedTrack, remixer: string): boolean {
  const name = nameWords(remixer);
  if (name.length < 3) return false;
  const matches = (key: string) => {
    const words = nameWords(key);
    return words.length >= 3 && (containsWords(name, words) || containsWords(words, name));
  };
  return track.artistKeys.some(matches) || containsWords(nameWords(foldText(track.track.album ?? '')), name);
}

/** "Song (Edit)" that credits X, against "Song - X Edit": X's edit, with its name left out of the title. */
function isEditBy(track: PreparedTrack, remixer: string): boolean {
  return remixer !== '' && track.soft.has('radio_edit') && creditsRemixer(track, remixer);
}

function compareVersions(source: PreparedTrack, candidate: PreparedTrack): VersionComparison {
  if (source.hardKey === candidate.hardKey && source.softKey === candidate.softKey) return SAME_VERSION;
  const gate: string[] = [];
  const review: string[] = [];
  const soft: string[] = [];
  for (const [kind, detail] of candidate.hard) {
    const sourceDetail = source.hard.get(kind);
    if (sourceDetail === undefined) {
      if (kind === 'remix' && isEditBy(source, detail)) soft.push(`candidate names the edit: ${detail}`);
      else gate.push(`different version: ${hardLabel(kind, detail)}`);
    } else if (sourceDetail !== detail) {
      const named = kind === 'remix' || kind === 'live';
      const comparable = named ? sourceDetail !== '' && detail !== '' : true;
      const overlapping = named && (sourceDetail.includes(detail) || detail.includes(sourceDetail));
      // A concert named on one side only ("Live" and "Live at Wembley") is the same live recording.
      if (kind === 'live' && !comparable) continue;
      if (!comparable) {
        // "Song (Remix)" against "Song - X Remix" is the same remix when the unnamed side credits X.
        const unnamed = sourceDetail === '' ? source : candidate;
        if (!creditsRemixer(unnamed, sourceDetail || detail))
          review.push(`remix may differ: ${hardLabel(kind, sourceDetail)} vs ${hardLabel(kind, detail)}`);
      } else if (!overlapping) {
        gate.push(`different version: ${hardLabel(kind, detail)} (source: ${hardLabel(kind, sourceDetail)})`);
      }
    }
  }
  for (const [kind, detail] of source.hard) {
    if (candidate.hard.has(kind)) continue;
    if (kind === 'remix' && isEditBy(candidate, detail)) soft.push(`source names the edit: ${detail}`);
    else gate.push(`different version: not ${hardLabel(kind, detail)}`);
  }
  const softKinds = new Set<SoftVersionKind>([...source.soft.keys(), ...candidate.soft.keys()]);
  for (const kind of softKinds) {
    const a = source.soft.get(kind);
    const b = candidate.soft.get(kind);
    if (a === undefined || b === undefined) {
      const present = b ?? a ?? '';
      const label = versionLabel({ kind, detail: present });
      soft.push(b !== undefined ? `candidate is the ${label}` : `source is the ${label}`);
    } else if (a !== '' && b !== '' && a !== b) {
      soft.push(`${versionLabel({ kind, detail: a })} vs ${b}`);
    }
  }
  return { gate, review, soft };
}

export interface ScoringOptions {
  /**
   * On by default. Off, every version difference (live, remix, clean, an unknown segment…) is ignored: the
   * benchmark turns it off to prove that its figures can fail.
   */
  versionDetection?: boolean;
}

interface FieldSimilarity {
  title: number;
  artist: number;
  album: number;
  /** Fields that agree only once transliterated: weaker evidence, the match needs corroboration. */
  throughScripts: ('title' | 'artist')[];
}

/** Below this a name does not agree as written; above it transliteration was not what made it agree. */
const NATIVE_AGREEMENT = 0.85;

function fieldSimilarity(source: PreparedTrack, candidate: PreparedTrack): FieldSimilarity {
  let title = similarity(source.titleKey, candidate.titleKey);
  let artist = artistSimilarity(source, candidate);
  let album =
    source.albumKey === '' || candidate.albumKey === ''
      ? Number.NaN
      : similarity(source.albumKey, candidate.albumKey);
  const throughScripts: FieldSimilarity['throughScripts'] = [];
  if ((source.otherScript || candidate.otherScript) && (title < 1 || !(artist >= 1))) {
    const cross = compareAcrossScripts(source, candidate);
    if (cross.title > title) {
      if (title < NATIVE_AGREEMENT) throughScripts.push('title');
      title = cross.title;
    }
    if (!Number.isNaN(cross.artist) && !(cross.artist <= artist)) {
      if (!(artist >= NATIVE_AGREEMENT)) throughScripts.push('artist');
      artist = cross.artist;
    }
    if (!Number.isNaN(cross.album) && !(cross.album <= album)) album = cross.album;
  }
  return { title, artist, album, throughScripts };
}

/**
 * Titles that are the same but for a segment nobody recognised on one side (a subtitle, or a kind of
 * recording no word list names): the same song, maybe another recording. The title then counts as
 * agreeing (the candidate ranks high among the listed ones) and the note caps it below the review band.
 * Null when the titles differ in more than that, or the segments are one text in two scripts.
 */
function unknownSegmentNote(source: PreparedTrack, candidate: PreparedTrack): string | null {
  if (source.extrasKey === candidate.extrasKey) return null;
  const scripts = source.otherScript || candidate.otherScript;
  // The cores agree as a title would: as written, or transliterated (where romanizations differ a little).
  const agrees =
    similarity(source.coreKey, candidate.coreKey) >= CORE_AGREEMENT ||
    (scripts && coresAgreeAcrossScripts(source, candidate) >= TRANSLITERATED_TITLE_AGREEMENT);
  if (!agrees) return null;
  // "Forever (약속)" and "Forever (Yagsog)": one segment in two scripts.
  if (
    scripts &&
    similarity(scriptFreeKey(source.extrasKey), scriptFreeKey(candidate.extrasKey)) >= NATIVE_AGREEMENT
  )
    return null;
  const sourceExtra = versionLikeExtra(source);
  const candidateExtra = versionLikeExtra(candidate);
  if (sourceExtra === candidateExtra) return null;
  return sourceExtra !== ''
    ? `source title adds "${sourceExtra}": maybe another recording`
    : `candidate title adds "${candidateExtra}": maybe another recording`;
}

/**
 * A track's unknown segments, unless they are the title again in another script ("Gangnam Style
 * (강남스타일)", "IDEA (理想)"): a Latin title's segment written wholly in another script is its translation
 * or transliteration, never a kind of recording.
 */
function versionLikeExtra(track: PreparedTrack): string {
  if (track.extrasKey === '' || !hasOtherScript(track.extrasKey)) return track.extrasKey;
  return hasOtherScript(track.coreKey) || LATIN_WORD_RE.test(track.extrasKey) ? track.extrasKey : '';
}

const LATIN_WORD_RE = /[a-z]/;

const CORE_AGREEMENT = 0.9;
/**
 * Below the review band: for a song the catalog lacks, the look-alike is most often another recording,
 * and a review band full of wrong proposals is worth nothing. Listed, it stays one click away.
 */
const UNKNOWN_SEGMENT_CAP = 65;
const CORROBORATING_DURATION_MS = 2_500;
const TRANSLITERATED_TITLE_AGREEMENT = 0.8;

/**
 * A match found only through transliteration counts when more than one thing agrees: title and artist
 * both, plus the length or the album (or a trusted ISRC, checked by the caller). A title that agrees only
 * transliterated may agree a little less (romanizations of one name differ more than spellings do) when
 * the artist agrees as written.
 */
function corroborated(fields: FieldSimilarity, durationDeltaMs: number | null): boolean {
  const artistAsWritten = !fields.throughScripts.includes('artist');
  const titleNeeded = artistAsWritten ? TRANSLITERATED_TITLE_AGREEMENT : NATIVE_AGREEMENT;
  if (!(fields.title >= titleNeeded && fields.artist >= NATIVE_AGREEMENT)) return false;
  const sameLength = durationDeltaMs !== null && durationDeltaMs <= CORROBORATING_DURATION_MS;
  return sameLength || fields.album >= NATIVE_AGREEMENT;
}

function weightedConfidence(fields: FieldSimilarity, duration: number): number {
  let weighted = WEIGHTS.title * fields.title;
  let weightSum = WEIGHTS.title;
  for (const [value, weight] of [
    [fields.artist, WEIGHTS.artist],
    [fields.album, WEIGHTS.album],
    [duration, WEIGHTS.duration],
  ] as const) {
    if (Number.isNaN(value)) continue;
    weighted += weight * value;
    weightSum += weight;
  }
  return (100 * weighted) / weightSum;
}

function describeFields(fields: FieldSimilarity, isrcMatch: boolean, durationDeltaMs: number | null) {
  const reasons: string[] = [];
  if (isrcMatch) reasons.push('ISRC match');
  reasons.push(fields.title === 1 ? 'same title' : `title ${percent(fields.title)}% similar`);
  if (!Number.isNaN(fields.artist))
    reasons.push(fields.artist === 1 ? 'same artists' : `artists ${percent(fields.artist)}% similar`);
  for (const field of fields.throughScripts) reasons.push(`${field} agrees in transliteration`);
  if (!Number.isNaN(fields.album) && fields.album < 0.8) reasons.push('different album');
  if (durationDeltaMs !== null && durationDeltaMs >= 2_000) {
    reasons.push(`duration differs by ${Math.round(durationDeltaMs / 1000)} s`);
  }
  return reasons;
}

/** Scores one candidate against a source track. Both may be raw or already prepared. */
export function scoreCandidate(
  sourceTrack: NormalizedTrack | PreparedTrack,
  candidateTrack: NormalizedTrack | PreparedTrack,
  options: ScoringOptions = {},
): ScoredCandidate {
  const source = 'titleKey' in sourceTrack ? sourceTrack : prepareTrack(sourceTrack);
  const candidate = 'titleKey' in candidateTrack ? candidateTrack : prepareTrack(candidateTrack);
  const versionDetection = options.versionDetection !== false;

  const isrcMatch = source.isrc !== null && source.isrc === candidate.isrc;
  const fields = fieldSimilarity(source, candidate);
  const segmentNote = versionDetection ? unknownSegmentNote(source, candidate) : null;
  if (segmentNote) fields.title = Math.max(fields.title, CORE_AGREEMENT);
  const sourceMs = source.track.durationMs;
  const candidateMs = candidate.track.durationMs;
  const durationDeltaMs = sourceMs > 0 && candidateMs > 0 ? Math.abs(sourceMs - candidateMs) : null;
  const duration = durationDeltaMs === null ? Number.NaN : durationScore(durationDeltaMs);
  let confidence = weightedConfidence(fields, duration);
  const reasons = describeFields(fields, isrcMatch, durationDeltaMs);

  const versions = versionDetection ? compareVersions(source, candidate) : SAME_VERSION;
  for (const note of versions.soft) {
    reasons.push(note);
    confidence -= SOFT_VERSION_PENALTY;
  }
  // Shared when the versions agree: extended by copy, never in place.
  let gate = versions.gate;
  if (versionDetection && source.track.explicit === true && candidate.track.explicit === false) {
    gate = [...gate, 'different version: clean (source is explicit)'];
  } else if (source.track.explicit === false && candidate.track.explicit === true) {
    reasons.push('explicit version of a clean track');
    confidence -= EXPLICIT_ON_CLEAN_PENALTY;
  }

  // Labels sometimes reuse ISRCs across songs; the ISRC only counts when the metadata agrees with it.
  const isrcTrusted =
    isrcMatch &&
    gate.length === 0 &&
    (fields.title >= 0.6 || (!Number.isNaN(fields.artist) && fields.artist >= 0.6)) &&
    (durationDeltaMs === null || durationDeltaMs <= DURATION_REVIEW_LIMIT_MS);
  if (isrcTrusted) confidence = Math.max(confidence, ISRC_CONFIDENCE);
  else if (isrcMatch) reasons.push('same ISRC but the metadata disagrees');

  confidence = capByDuration(confidence, durationDeltaMs, isrcTrusted);
  if (!isrcTrusted && !Number.isNaN(fields.artist) && fields.artist < OTHER_PERFORMER_SIMILARITY) {
    reasons.push('another performer: likely a cover or a different song');
    confidence = Math.min(confidence, OTHER_PERFORMER_CAP);
  }
  const uncertain = [...versions.review];
  if (segmentNote && !isrcTrusted) {
    reasons.push(segmentNote);
    confidence = Math.min(confidence, UNKNOWN_SEGMENT_CAP);
  }
  if (fields.throughScripts.length > 0 && !isrcTrusted && !corroborated(fields, durationDeltaMs)) {
    uncertain.push('the names agree only in transliteration, with nothing else to confirm it');
  }
  if (uncertain.length > 0) {
    reasons.push(...uncertain);
    confidence = Math.min(confidence, UNCERTAIN_VERSION_CAP);
  }
  if (gate.length > 0) {
    reasons.push(...gate);
    confidence = Math.min(confidence, VERSION_MISMATCH_CAP);
  }

  return {
    track: candidate.track,
    confidence: Math.max(0, Math.min(100, Math.round(confidence))),
    reasons,
    versionLabels: candidate.versionLabels,
    sameVersion: gate.length === 0,
    isrcMatch,
    durationDeltaMs,
  };
}

function capByDuration(confidence: number, durationDeltaMs: number | null, isrcTrusted: boolean): number {
  if (durationDeltaMs === null) return confidence;
  if (durationDeltaMs > DURATION_REJECT_LIMIT_MS) return Math.min(confidence, DURATION_REJECT_CAP);
  if (durationDeltaMs > DURATION_OTHER_CUT_MS && !isrcTrusted)
    return Math.min(confidence, DURATION_OTHER_CUT_CAP);
  if (durationDeltaMs > DURATION_REVIEW_LIMIT_MS) return Math.min(confidence, DURATION_REVIEW_CAP);
  return confidence;
}

const AGREEING_REASONS = new Set(['ISRC match', 'same title', 'same artists']);

/**
 * Why a track has no match, said from its closest candidate: the disagreements only ("different version:
 * live", "artists 35% similar"), never a reason that agreed such as "same title".
 */
export function unmatchedReasons(closest: Pick<ScoredCandidate, 'confidence' | 'reasons'> | undefined) {
  if (!closest) return ['no candidates found'];
  const disagreements = closest.reasons.filter((reason) => !AGREEING_REASONS.has(reason));
  return [`no confident match (the closest candidate scored ${closest.confidence})`, ...disagreements];
}

function compareScored(a: ScoredCandidate, b: ScoredCandidate): number {
  if (a.confidence !== b.confidence) return b.confidence - a.confidence;
  if (a.sameVersion !== b.sameVersion) return a.sameVersion ? -1 : 1;
  if (a.isrcMatch !== b.isrcMatch) return a.isrcMatch ? -1 : 1;
  return (a.durationDeltaMs ?? Number.MAX_SAFE_INTEGER) - (b.durationDeltaMs ?? Number.MAX_SAFE_INTEGER);
}

/** Scores every candidate (duplicates by id dropped) and sorts them best first. */
export function rankCandidates(
  sourceTrack: NormalizedTrack | PreparedTrack,
  candidates: readonly NormalizedTrack[],
  options: ScoringOptions = {},
): ScoredCandidate[] {
  const source = 'titleKey' in sourceTrack ? sourceTrack : prepareTrack(sourceTrack);
  const seen = new Set<string>();
  const scored: ScoredCandidate[] = [];
  for (const candidate of candidates) {
    if (seen.has(candidate.id)) continue;
    seen.add(candidate.id);
    scored.push(scoreCandidate(source, candidate, options));
  }
  return scored.sort(compareScored);
}
