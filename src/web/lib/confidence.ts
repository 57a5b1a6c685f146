export type ConfidenceBand = 'success' | 'warning' | 'error';

/** Spec section 9: a match row is green from 95, amber from 80, red below. */
export function rowConfidenceBand(confidence: number): ConfidenceBand {
  if (confidence >= 95) return 'success';
  if (confidence >= 80) return 'warning';
  return 'error';
}

/** Spec section 9: the overall confidence is green from 90, amber from 70, red below. */
export function overallConfidenceBand(confidence: number): ConfidenceBand {
  if (confidence >= 90) return 'success';
  if (confidence >= 70) return 'warning';
  return 'error';
}

/** Text colours that keep 4.5:1 contrast on their own tinted background. */
export const BAND_CLASSES: Record<ConfidenceBand, string> = {
  success: 'bg-green-100 text-green-900 border-green-300',
  warning: 'bg-amber-100 text-amber-900 border-amber-300',
  error: 'bg-red-100 text-red-900 border-red-300',
};
