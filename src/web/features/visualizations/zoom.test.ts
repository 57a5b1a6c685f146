import { describe, expect, it } from 'vitest';
import { MAX_ZOOM, MIN_ZOOM, stepZoom } from './zoom';

describe('stepZoom', () => {
  it('steps by 0.2 without drifting and stops at 0.5 and 2', () => {
    let zoom = 1;
    const seen: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      zoom = stepZoom(zoom, 1);
      seen.push(zoom);
    }
    expect(seen).toEqual([1.2, 1.4, 1.6, 1.8, 2, 2]);
    expect(stepZoom(1, -1)).toBe(0.8);
    expect(stepZoom(0.6, -1)).toBe(MIN_ZOOM);
    expect(stepZoom(MIN_ZOOM, -1)).toBe(MIN_ZOOM);
    expect(stepZoom(MAX_ZOOM, 1)).toBe(MAX_ZOOM);
  });
});
