/** Spec section 2: zoom from 0.5 to 2 in steps of 0.2. */
export const MIN_ZOOM = 0.5;
export const MAX_ZOOM = 2;
export const ZOOM_STEP = 0.2;

/** One step in or out, clamped to the range, rounded so repeated steps do not drift (1.2000000000000002). */
export function stepZoom(zoom: number, direction: 1 | -1): number {
  const next = Math.round((zoom + direction * ZOOM_STEP) * 10) / 10;
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, next));
}
