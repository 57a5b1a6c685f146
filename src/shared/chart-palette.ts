/**
 * The spec's "chart palette of 10 colours" (section 9), shared by the taste graph canvas and the timeline
 * charts. Tableau 10: distinct hues that stay apart for the common colour-vision deficiencies and read
 * on white.
 */
export const CHART_PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
] as const;

/** Colour for the nth series or node, cycling through the palette. */
export function paletteColor(index: number): string {
  const size = CHART_PALETTE.length;
  return CHART_PALETTE[((index % size) + size) % size] ?? CHART_PALETTE[0];
}
