/**
 * A force-directed layout (Fruchterman–Reingold) for the taste graph: nodes repel each other, edges pull
 * their ends together (harder for heavier edges), a weak pull to the centre keeps loose nodes in view.
 * Start positions come from a seeded generator, so the same graph always gets the same picture, and a
 * fixed number of iterations with a cooling step keeps the work bounded (40 nodes × 300 iterations is a
 * few milliseconds).
 */

import { seededRandom } from '../../../shared/seeded-random';

export interface LayoutNode {
  id: string;
  value: number;
}
export interface LayoutEdge {
  from: string;
  to: string;
  value: number;
}
export interface Point {
  x: number;
  y: number;
}

export interface LayoutOptions {
  width: number;
  height: number;
  iterations?: number;
  seed?: number;
  /** Keeps node centres this far from the border, leaving room for the circles and labels. */
  padding?: number;
  /** Node centres end at least this far apart where the canvas has room, so circles do not overlap. */
  minDistance?: number;
}

export function forceLayout(
  nodes: LayoutNode[],
  edges: LayoutEdge[],
  { width, height, iterations = 300, seed = 7, padding = 40, minDistance = 36 }: LayoutOptions,
): Map<string, Point> {
  const random = seededRandom(seed);
  const minX = padding;
  const maxX = Math.max(padding, width - padding);
  const minY = padding;
  const maxY = Math.max(padding, height - padding);
  const cx = width / 2;
  const cy = height / 2;
  const positions = nodes.map(() => ({
    x: minX + random() * (maxX - minX),
    y: minY + random() * (maxY - minY),
  }));
  if (nodes.length === 1) positions[0] = { x: cx, y: cy };
  const index = new Map(nodes.map((node, i) => [node.id, i]));
  const links = edges.flatMap((edge) => {
    const a = index.get(edge.from);
    const b = index.get(edge.to);
    return a === undefined || b === undefined || a === b
      ? []
      : [{ a, b, weight: 1 + Math.log1p(edge.value) }];
  });
  const k = 0.8 * Math.sqrt(((maxX - minX) * (maxY - minY)) / Math.max(1, nodes.length));
  let temperature = Math.max(maxX - minX, maxY - minY) / 8;
  const cooling = temperature / (iterations + 1);

  for (let step = 0; step < iterations && nodes.length > 1; step += 1) {
    const shift = positions.map(() => ({ x: 0, y: 0 }));
    for (let i = 0; i < positions.length; i += 1) {
      for (let j = i + 1; j < positions.length; j += 1) {
        const p = positions[i] ?? { x: 0, y: 0 };
        const q = positions[j] ?? { x: 0, y: 0 };
        let dx = p.x - q.x;
        let dy = p.y - q.y;
        let distance = Math.hypot(dx, dy);
        if (distance < 0.01) {
          // Coincident nodes: push apart in a seeded direction rather than dividing by zero.
          dx = random() - 0.5;
          dy = random() - 0.5;
          distance = Math.hypot(dx, dy) || 0.01;
        }
        const force = (k * k) / distance;
        const fx = (dx / distance) * force;
        const fy = (dy / distance) * force;
        const si = shift[i] ?? { x: 0, y: 0 };
        const sj = shift[j] ?? { x: 0, y: 0 };
        si.x += fx;
        si.y += fy;
        sj.x -= fx;
        sj.y -= fy;
      }
    }
    for (const { a, b, weight } of links) {
      const p = positions[a] ?? { x: 0, y: 0 };
      const q = positions[b] ?? { x: 0, y: 0 };
      const dx = p.x - q.x;
      const dy = p.y - q.y;
      const distance = Math.max(0.01, Math.hypot(dx, dy));
      const force = ((distance * distance) / k) * weight * 0.5;
      const fx = (dx / distance) * force;
      const fy = (dy / distance) * force;
      const sa = shift[a] ?? { x: 0, y: 0 };
      const sb = shift[b] ?? { x: 0, y: 0 };
      sa.x -= fx;
      sa.y -= fy;
      sb.x += fx;
      sb.y += fy;
    }
    positions.forEach((p, i) => {
      const s = shift[i] ?? { x: 0, y: 0 };
      s.x += (cx - p.x) * 0.03 * k;
      s.y += (cy - p.y) * 0.06 * k;
      const length = Math.hypot(s.x, s.y);
      if (length > 0) {
        const move = Math.min(length, temperature);
        p.x = Math.min(maxX, Math.max(minX, p.x + (s.x / length) * move));
        p.y = Math.min(maxY, Math.max(minY, p.y + (s.y / length) * move));
      }
    });
    temperature = Math.max(0.5, temperature - cooling);
  }
  separate(positions, minDistance, { minX, maxX, minY, maxY });
  return new Map(nodes.map((node, i) => [node.id, positions[i] ?? { x: cx, y: cy }]));
}

/** Pushes overlapping pairs apart, half each way, a bounded number of times (no randomness involved). */
function separate(
  positions: Point[],
  minDistance: number,
  box: { minX: number; maxX: number; minY: number; maxY: number },
) {
  for (let pass = 0; pass < 50; pass += 1) {
    let moved = false;
    for (let i = 0; i < positions.length; i += 1) {
      for (let j = i + 1; j < positions.length; j += 1) {
        const p = positions[i] ?? { x: 0, y: 0 };
        const q = positions[j] ?? { x: 0, y: 0 };
        const dx = q.x - p.x;
        const dy = q.y - p.y;
        const distance = Math.hypot(dx, dy);
        if (distance >= minDistance) continue;
        moved = true;
        const ux = distance > 0.01 ? dx / distance : 1;
        const uy = distance > 0.01 ? dy / distance : 0;
        const push = (minDistance - distance) / 2;
        p.x = Math.min(box.maxX, Math.max(box.minX, p.x - ux * push));
        p.y = Math.min(box.maxY, Math.max(box.minY, p.y - uy * push));
        q.x = Math.min(box.maxX, Math.max(box.minX, q.x + ux * push));
        q.y = Math.min(box.maxY, Math.max(box.minY, q.y + uy * push));
      }
    }
    if (!moved) return;
  }
}
