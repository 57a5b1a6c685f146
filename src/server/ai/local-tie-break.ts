import type { BreakTieInput, BreakTieResult, CandidateSummary, TrackSummary } from './engine';

/**
 * The local tie-break, a rule a person can check by reading the reason: a candidate of another version
 * (live, remix…) or more than 5 s apart is never the same recording; among the rest the order is the same
 * ISRC, then the same explicit flag, then within 2 s, then the same soft labels (remaster, radio edit…),
 * then not a compilation (unless the source is one), then the same album type, then matching's own
 * score, then the smaller duration gap.
 */

const MAX_DURATION_GAP_MS = 5_000;
const CLOSE_DURATION_GAP_MS = 2_000;
const REASON_LIMIT = 500;
/** How many leading `rankKey` entries are rules rather than matching's score and the raw gap. */
const RULE_COUNT = 6;

/** Explicit/clean come from the flag, not the labels, so a label on one side only does not split versions. */
const FLAG_LABELS = new Set(['explicit', 'clean']);
/** Matching's soft kinds: the same performance, mastered or cut differently. */
const SOFT_LABEL_PREFIXES = ['remaster', 'radio edit', 'extended', 'mono'];

function isSoft(label: string): boolean {
  return SOFT_LABEL_PREFIXES.some((prefix) => label === prefix || label.startsWith(`${prefix} `));
}

function labelsOf(track: TrackSummary, soft: boolean): string {
  const labels = new Set(
    track.versionLabels
      .map((label) => label.trim().toLowerCase())
      .filter((label) => label.length > 0 && !FLAG_LABELS.has(label) && isSoft(label) === soft),
  );
  return [...labels].sort().join(', ');
}

function versionKey(track: TrackSummary): string {
  return labelsOf(track, false);
}

function describeVersion(key: string): string {
  return key.length > 0 ? key : 'original';
}

function cleanIsrc(isrc: string | undefined): string | undefined {
  const cleaned = isrc?.trim().toUpperCase().replaceAll('-', '');
  return cleaned && cleaned.length === 12 ? cleaned : undefined;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

interface Assessment {
  candidate: CandidateSummary;
  rejection?: string;
  isrcSame: boolean;
  explicitAgrees: boolean | undefined;
  gapMs: number;
  softAgrees: boolean;
  unwantedCompilation: boolean;
  albumTypeAgrees: boolean | undefined;
}

function assess(source: TrackSummary, candidate: CandidateSummary): Assessment {
  const sourceVersion = versionKey(source);
  const candidateVersion = versionKey(candidate);
  const gapMs = Math.abs(source.durationMs - candidate.durationMs);
  const sourceIsrc = cleanIsrc(source.isrc);
  let rejection: string | undefined;
  if (sourceVersion !== candidateVersion) {
    rejection = `another version (${describeVersion(candidateVersion)}, not ${describeVersion(sourceVersion)})`;
  } else if (gapMs > MAX_DURATION_GAP_MS) {
    rejection = `${seconds(gapMs)} apart`;
  }
  return {
    candidate,
    ...(rejection === undefined ? {} : { rejection }),
    isrcSame: sourceIsrc !== undefined && sourceIsrc === cleanIsrc(candidate.isrc),
    explicitAgrees:
      source.explicit === undefined || candidate.explicit === undefined
        ? undefined
        : source.explicit === candidate.explicit,
    gapMs,
    softAgrees: labelsOf(source, true) === labelsOf(candidate, true),
    unwantedCompilation: candidate.albumType === 'compilation' && source.albumType !== 'compilation',
    albumTypeAgrees:
      source.albumType === undefined || candidate.albumType === undefined
        ? undefined
        : source.albumType === candidate.albumType,
  };
}

/** Higher is better, compared element by element. */
function rankKey(a: Assessment): number[] {
  return [
    a.isrcSame ? 1 : 0,
    a.explicitAgrees === false ? 0 : 1,
    a.gapMs <= CLOSE_DURATION_GAP_MS ? 1 : 0,
    a.softAgrees ? 1 : 0,
    a.unwantedCompilation ? 0 : 1,
    a.albumTypeAgrees === true ? 1 : 0,
    a.candidate.score,
    -a.gapMs,
  ];
}

function compareAssessments(a: Assessment, b: Assessment): number {
  const keyA = rankKey(a);
  const keyB = rankKey(b);
  for (let i = 0; i < keyA.length; i++) {
    const diff = (keyB[i] ?? 0) - (keyA[i] ?? 0);
    if (diff !== 0) return diff;
  }
  // Same evidence on every rule: the id order keeps the answer the same from run to run.
  return a.candidate.id < b.candidate.id ? -1 : a.candidate.id > b.candidate.id ? 1 : 0;
}

function evidence(a: Assessment): string[] {
  const parts = [`same version (${describeVersion(versionKey(a.candidate))})`];
  if (a.isrcSame) parts.push('same ISRC');
  if (a.explicitAgrees === true) parts.push('same explicit flag');
  if (a.explicitAgrees === false)
    parts.push(a.candidate.explicit ? 'explicit, source is clean' : 'clean, source is explicit');
  parts.push(`${seconds(a.gapMs)} apart`);
  if (!a.softAgrees) parts.push(`${describeVersion(labelsOf(a.candidate, true))} edition`);
  if (a.unwantedCompilation) parts.push('from a compilation');
  else if (a.albumTypeAgrees === true) parts.push(`same album type (${a.candidate.albumType})`);
  return parts;
}

function confidenceFor(best: Assessment, runnerUp: Assessment | undefined): number {
  let confidence = Math.round(best.candidate.score);
  if (best.isrcSame) confidence += 10;
  if (best.explicitAgrees === true) confidence += 4;
  if (best.explicitAgrees === false) confidence -= 15;
  confidence += best.gapMs <= CLOSE_DURATION_GAP_MS ? 4 : -5;
  if (!best.softAgrees) confidence -= 3;
  if (best.unwantedCompilation) confidence -= 5;
  else if (best.albumTypeAgrees === true) confidence += 2;
  if (
    runnerUp &&
    rankKey(runnerUp).slice(0, RULE_COUNT).join() === rankKey(best).slice(0, RULE_COUNT).join()
  ) {
    // Nothing but the fuzzy score and a few hundred milliseconds separate them: say so in the number.
    if (Math.abs(runnerUp.candidate.score - best.candidate.score) < 3) confidence -= 10;
  }
  return Math.min(99, Math.max(1, confidence));
}

function limit(text: string): string {
  return text.length <= REASON_LIMIT ? text : `${text.slice(0, REASON_LIMIT - 1)}…`;
}

export function localBreakTie({ source, candidates }: BreakTieInput): BreakTieResult {
  if (candidates.length === 0) {
    return { chosenId: null, confidence: 100, reason: 'There were no candidates to choose from.' };
  }
  const assessed = candidates.map((candidate) => assess(source, candidate));
  const eligible = assessed.filter((a) => a.rejection === undefined).sort(compareAssessments);
  const rejected = assessed.filter((a) => a.rejection !== undefined);
  const rejectionText = rejected.map((a) => `"${a.candidate.name}": ${a.rejection}`).join('; ');

  const best = eligible[0];
  if (!best) {
    return {
      chosenId: null,
      confidence: 85,
      reason: limit(`None is the same recording as "${source.name}". Rejected ${rejectionText}.`),
    };
  }
  const reason = [
    `Chose "${best.candidate.name}" on ${best.candidate.album}: ${evidence(best).join(', ')}.`,
    rejected.length > 0 ? `Rejected ${rejectionText}.` : '',
  ]
    .filter((part) => part.length > 0)
    .join(' ');
  return {
    chosenId: best.candidate.id,
    confidence: confidenceFor(best, eligible[1]),
    reason: limit(reason),
  };
}
