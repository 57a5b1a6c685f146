import { describe, expect, it } from 'vitest';
import type { TwoWayBase } from '../db/stored-json';
import type { NormalizedTrack } from '../providers/types';
import { baseKey, nextBase, planMerge, sideTrack } from './two-way-merge';

/** The pure three-way merge of a two-way sync (decision 0024), on small hand-made sides. */
/** A valid ISRC (country, registrant, year, designation), as normalizeIsrc takes them. */
const I = (n: number) => `USABC26${String(n).padStart(5, '0')}`;
const track = (side: 's' | 'a', n: number, isrc: string | null = I(n)): NormalizedTrack => ({
  id: `${side}${n}`,
  uri: `${side}:${n}`,
  name: `Song ${n}`,
  artists: ['Someone'],
  album: '',
  durationMs: 1,
  ...(isrc ? { isrc } : {}),
});
const s = (n: number) => track('s', n);
const a = (n: number) => track('a', n);

function baseOf(...numbers: number[]): TwoWayBase {
  const entries = numbers.map((n) => {
    const source = sideTrack(s(n));
    const destination = sideTrack(a(n));
    return { key: baseKey(source, destination), source, destination };
  });
  return nextBase(entries, { source: numbers.length, destination: numbers.length });
}
const ids = (tracks: NormalizedTrack[]) => tracks.map((item) => item.id);

describe('planMerge', () => {
  it('without a base, pairs the same ISRC on both sides and copies the rest both ways', () => {
    const plan = planMerge(null, { source: [s(1), s(2)], destination: [a(2), a(3)] });
    expect(plan.pairs.map((pair) => pair.key)).toEqual([`isrc:${I(2)}`]);
    expect(ids(plan.newOnSource)).toEqual(['s1']);
    expect(ids(plan.newOnDestination)).toEqual(['a3']);
  });

  it('tells adds and removals on either side from the base', () => {
    const plan = planMerge(baseOf(1, 2, 3), { source: [s(1), s(3), s(4)], destination: [a(1), a(2), a(5)] });
    expect(plan.pairs.map((pair) => pair.key)).toEqual([`isrc:${I(1)}`]);
    expect(plan.removals.map((item) => [item.from, item.entry.key])).toEqual([
      ['destination', `isrc:${I(2)}`],
      ['source', `isrc:${I(3)}`],
    ]);
    expect(ids(plan.newOnSource)).toEqual(['s4']);
    expect(ids(plan.newOnDestination)).toEqual(['a5']);
  });

  it('the add wins: removed on one side, there twice on the other, it goes back', () => {
    const plan = planMerge(baseOf(1, 2), { source: [s(1), s(2), s(2)], destination: [a(1)] });
    expect(plan.removals).toEqual([]);
    expect(plan.conflicts.map((item) => [item.onto, item.entry.key])).toEqual([
      ['destination', `isrc:${I(2)}`],
    ]);
    expect(plan.newOnSource).toEqual([]);
  });

  it('a recording twice on one side is one add; one gone from both sides is forgotten', () => {
    const plan = planMerge(baseOf(1), { source: [s(2), s(2)], destination: [] });
    expect(ids(plan.newOnSource)).toEqual(['s2']);
    expect(plan.pairs).toEqual([]);
    expect(plan.removals).toEqual([]);
  });

  it('a one-sided entry is carried, and whole again when the other side holds the recording again', () => {
    const base = nextBase([{ key: `isrc:${I(1)}`, source: null, destination: sideTrack(a(1)) }], {
      source: 0,
      destination: 1,
    });
    expect(planMerge(base, { source: [], destination: [a(1)] }).oneSided).toHaveLength(1);
    const back = planMerge(base, { source: [s(1)], destination: [a(1)] });
    expect(back.oneSided).toEqual([]);
    expect(back.pairs.map((pair) => pair.source?.id)).toEqual(['s1']);
    expect(back.newOnSource).toEqual([]);
  });

  it('keys a recording without an ISRC by the matched pair, never by one side alone', () => {
    expect(baseKey(sideTrack(track('s', 7, null)), sideTrack(track('a', 7, null)))).toBe('pair:s7|a7');
  });
});
