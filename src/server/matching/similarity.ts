/**
 * String similarity on folded text, 0..1. Levenshtein with reused buffers (no allocation per call, which
 * matters at thousands of tracks per second), lifted when one string contains the other on word
 * boundaries ("Song" inside "Song Pt 2" is closer than its edit distance says).
 */

let previousRow = new Int32Array(64);
let currentRow = new Int32Array(64);

/** Edit distance; stops early and returns `limit + 1` once every path costs more than `limit`. */
export function levenshtein(a: string, b: string, limit = Number.MAX_SAFE_INTEGER): number {
  if (a === b) return 0;
  if (a.length === 0) return Math.min(b.length, limit + 1);
  if (b.length === 0) return Math.min(a.length, limit + 1);
  if (b.length + 1 > previousRow.length) {
    previousRow = new Int32Array(b.length * 2 + 1);
    currentRow = new Int32Array(b.length * 2 + 1);
  }
  let prev = previousRow;
  let curr = currentRow;
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    curr[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      const deletion = (prev[j] ?? 0) + 1;
      const insertion = (curr[j - 1] ?? 0) + 1;
      const substitution = (prev[j - 1] ?? 0) + cost;
      const cell = Math.min(deletion, insertion, substitution);
      curr[j] = cell;
      if (cell < rowMin) rowMin = cell;
    }
    if (rowMin > limit) return limit + 1;
    const swap = prev;
    prev = curr;
    curr = swap;
  }
  // Capped so the answer does not depend on which string came first when the limit is passed.
  return Math.min(prev[b.length] ?? 0, limit + 1);
}

function containsOnWordBoundary(haystack: string, needle: string): boolean {
  const at = haystack.indexOf(needle);
  if (at < 0) return false;
  const before = at === 0 || haystack.charCodeAt(at - 1) === 32;
  const end = at + needle.length;
  const after = end === haystack.length || haystack.charCodeAt(end) === 32;
  return before && after;
}

const SIMILARITY_FLOOR = 0.35;

export function similarity(a: string, b: string): number {
  if (a === b) return a === '' ? 0 : 1;
  if (a.length === 0 || b.length === 0) return 0;
  const longer = a.length >= b.length ? a : b;
  const shorter = longer === a ? b : a;
  // Below SIMILARITY_FLOOR the exact figure changes no decision, so the distance stops being counted there.
  const limit = Math.floor(longer.length * (1 - SIMILARITY_FLOOR));
  const ratio = Math.max(0, 1 - levenshtein(a, b, limit) / longer.length);
  if (shorter.length >= 3 && containsOnWordBoundary(longer, shorter)) {
    return Math.max(ratio, 0.6 + 0.35 * (shorter.length / longer.length));
  }
  return ratio;
}
