import { describe, expect, it } from 'vitest';
import { estimateSecondsLeft } from './job-view';

const created = new Date('2026-01-01T00:00:00Z');
const at = (seconds: number) => created.getTime() + seconds * 1000;

describe('estimateSecondsLeft', () => {
  it('measures the pace from the start of the phase under way, not from when the job was queued', () => {
    // Queued at 0, matching began at 60 s with 0 done; 100 of 1,000 done 10 s later: 90 s left at that pace.
    const progress = {
      done: 100,
      total: 1000,
      phase: 'matching',
      phaseStartedAt: new Date(at(60)).toISOString(),
      phaseStartDone: 0,
    };
    expect(estimateSecondsLeft(progress, created, at(70))).toBe(90);
  });

  it('counts only what a resumed run did itself', () => {
    const progress = {
      done: 600,
      total: 1000,
      phase: 'adding',
      phaseStartedAt: new Date(at(100)).toISOString(),
      phaseStartDone: 500,
    };
    // 100 added in 20 s since the resume: 400 left take 80 s.
    expect(estimateSecondsLeft(progress, created, at(120))).toBe(80);
  });

  it('says nothing until at least 1 % of the phase is done, nor when nothing is left', () => {
    const base = {
      total: 10_000,
      phase: 'matching',
      phaseStartedAt: created.toISOString(),
      phaseStartDone: 0,
    };
    expect(estimateSecondsLeft({ ...base, done: 50 }, created, at(5))).toBeNull();
    expect(estimateSecondsLeft({ ...base, done: 100 }, created, at(5))).toBe(495);
    expect(estimateSecondsLeft({ ...base, done: 10_000 }, created, at(5))).toBeNull();
  });
});
