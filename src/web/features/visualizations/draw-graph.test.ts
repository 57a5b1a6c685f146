import { describe, expect, it } from 'vitest';
import { type LabelRequest, placeLabels } from './draw-graph';

const boxOf = (label: { x: number; y: number }, width: number) => ({
  left: label.x,
  right: label.x + width,
  top: label.y - 7,
  bottom: label.y + 7,
});

describe('placeLabels', () => {
  it('never lets two names overlap, even when the nodes crowd the centre', () => {
    const crowd: LabelRequest[] = Array.from({ length: 15 }, (_, i) => ({
      point: { x: 400 + (i % 3) * 6, y: 200 + Math.floor(i / 3) * 5 },
      radius: 10,
      text: `Genre ${i}`,
      width: 60,
    }));
    const placed = placeLabels(crowd);
    expect(placed.length).toBeGreaterThanOrEqual(4);
    const boxes = placed.map((label) => boxOf(label, 60));
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i];
        const b = boxes[j];
        if (!a || !b) continue;
        const overlap = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
        expect(overlap, `${placed[i]?.text} / ${placed[j]?.text}`).toBe(false);
      }
    }
  });

  it('puts a lone label to the right of its node', () => {
    const [label] = placeLabels([{ point: { x: 100, y: 50 }, radius: 8, text: 'Jazz', width: 30 }]);
    expect(label).toEqual({ text: 'Jazz', x: 112, y: 50 });
  });
});
