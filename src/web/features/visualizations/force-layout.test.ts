import { describe, expect, it } from 'vitest';
import { forceLayout } from './force-layout';

const nodes = Array.from({ length: 12 }, (_, i) => ({ id: `n${i}`, value: 12 - i }));
const edges = [
  { from: 'n0', to: 'n1', value: 5 },
  { from: 'n1', to: 'n2', value: 3 },
  { from: 'n0', to: 'n2', value: 4 },
  { from: 'n9', to: 'n10', value: 1 },
];
const size = { width: 800, height: 400, padding: 40 };

describe('forceLayout', () => {
  it('places every node inside the canvas, away from the border', () => {
    const positions = forceLayout(nodes, edges, size);
    expect(positions.size).toBe(nodes.length);
    for (const { x, y } of positions.values()) {
      expect(x).toBeGreaterThanOrEqual(40);
      expect(x).toBeLessThanOrEqual(760);
      expect(y).toBeGreaterThanOrEqual(40);
      expect(y).toBeLessThanOrEqual(360);
    }
  });

  it('draws the same picture every time for the same graph', () => {
    expect([...forceLayout(nodes, edges, size)]).toEqual([...forceLayout(nodes, edges, size)]);
  });

  it('keeps connected nodes closer together than unconnected ones', () => {
    const positions = forceLayout(nodes, edges, size);
    const distance = (a: string, b: string) => {
      const p = positions.get(a) ?? { x: 0, y: 0 };
      const q = positions.get(b) ?? { x: 0, y: 0 };
      return Math.hypot(p.x - q.x, p.y - q.y);
    };
    const linked = (distance('n0', 'n1') + distance('n1', 'n2') + distance('n0', 'n2')) / 3;
    const unlinked = (distance('n0', 'n5') + distance('n1', 'n7') + distance('n2', 'n11')) / 3;
    expect(linked).toBeLessThan(unlinked);
  });

  it('does not overlap nodes', () => {
    const points = [...forceLayout(nodes, edges, size).values()];
    for (let i = 0; i < points.length; i += 1) {
      for (let j = i + 1; j < points.length; j += 1) {
        const p = points[i] ?? { x: 0, y: 0 };
        const q = points[j] ?? { x: 0, y: 0 };
        expect(Math.hypot(p.x - q.x, p.y - q.y)).toBeGreaterThan(10);
      }
    }
  });
});
