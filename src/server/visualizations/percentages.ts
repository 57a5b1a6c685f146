/**
 * Whole-number percentages that sum to exactly 100 (largest-remainder / Hamilton method): floor every
 * share, then hand the points still missing to the largest remainders, earlier series first on ties.
 * All-zero weights give all zeros.
 */
export function largestRemainderPercentages(weights: number[], total = 100): number[] {
  const sum = weights.reduce((acc, weight) => acc + Math.max(0, weight), 0);
  if (sum <= 0) return weights.map(() => 0);
  const exact = weights.map((weight) => (Math.max(0, weight) / sum) * total);
  const result = exact.map(Math.floor);
  let missing = total - result.reduce((acc, value) => acc + value, 0);
  const order = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of order) {
    if (missing <= 0) break;
    result[index] = (result[index] ?? 0) + 1;
    missing -= 1;
  }
  return result;
}
