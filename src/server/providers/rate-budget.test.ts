import { describe, expect, it } from 'vitest';
import { RollingWindowLimiter } from '../../sandbox/rate-limiter';
import { RollingBudget } from './rate-budget';

/**
 * The budget against the Spotify emulator's own limiter on one clock: a client that paces by the budget
 * meets one refusal (the one it learns from) and none after, however long it keeps calling.
 */
function harness(budget: number, windowMs: number, latencyMs: number) {
  let clock = 0;
  const now = () => clock;
  const service = new RollingWindowLimiter(budget, windowMs, now);
  const pacer = new RollingBudget({ windowMs, now });
  let refused = 0;
  let sent = 0;
  /** One call, paced: waits by advancing the clock, as a sleep would. */
  const call = () => {
    for (let wait = pacer.delayMs(); wait > 0; wait = pacer.delayMs()) clock += wait;
    pacer.take();
    sent++;
    const accepted = service.take() === 0;
    clock += latencyMs;
    pacer.release(accepted);
    if (!accepted) {
      refused++;
      pacer.learn();
    }
  };
  return {
    call,
    pacer,
    refused: () => refused,
    sent: () => sent,
    now,
    /** A call by another process of the same app: the service counts it, this pacer never sees it. */
    other: () => service.take(),
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

describe('RollingBudget', () => {
  it('sends freely until the service first refuses', () => {
    const run = harness(10, 1000, 1);
    for (let i = 0; i < 10; i++) run.call();
    expect(run.refused()).toBe(0);
    expect(run.pacer.learnedBudget).toBeUndefined();
  });

  it('learns the budget from the refusal and is never refused again', () => {
    const run = harness(600, 30_000, 3);
    for (let i = 0; i < 5000; i++) run.call();
    expect(run.refused()).toBe(1);
    expect(run.pacer.learnedBudget).toBe(600);
  });

  it('keeps the service busy: after the refusal each window holds the whole budget', () => {
    const run = harness(600, 30_000, 3);
    for (let i = 0; i < 601; i++) run.call();
    const learnedAt = run.now();
    for (let i = 0; i < 6000; i++) run.call();
    // 6,000 calls at 600 per 30 s need 10 windows after the first; pacing loses at most a call's latency each.
    expect(run.now() - learnedAt).toBeLessThan(10 * 30_000 + 10 * 3 * 600);
    expect(run.refused()).toBe(1);
  });

  it('learns again, lower, when another caller of the same app spends part of the budget', () => {
    const run = harness(100, 1000, 1);
    for (let i = 0; i < 101; i++) run.call();
    expect(run.pacer.learnedBudget).toBe(100);
    run.advance(1000);
    for (let i = 0; i < 40; i++) run.other();
    for (let i = 0; i < 500; i++) run.call();
    expect(run.refused()).toBeGreaterThan(1);
    expect(run.pacer.learnedBudget).toBeLessThanOrEqual(60);
  });

  it('forgets a learned budget after a while, so a raised quota is found', () => {
    let clock = 0;
    const pacer = new RollingBudget({ windowMs: 1000, relearnAfterMs: 5000, now: () => clock });
    for (let i = 0; i < 3; i++) {
      pacer.take();
      pacer.release(true);
    }
    pacer.learn();
    expect(pacer.learnedBudget).toBe(3);
    expect(pacer.delayMs()).toBeGreaterThan(0);
    clock += 6000;
    expect(pacer.delayMs()).toBe(0);
    expect(pacer.learnedBudget).toBeUndefined();
  });

  it('counts calls still in flight against the budget', () => {
    let clock = 0;
    const pacer = new RollingBudget({ windowMs: 1000, now: () => clock });
    pacer.take();
    pacer.release(true);
    pacer.learn(); // budget 1
    clock += 1001;
    expect(pacer.delayMs()).toBe(0);
    pacer.take(); // in flight, unanswered
    expect(pacer.delayMs()).toBeGreaterThan(0);
    pacer.release(true);
    expect(pacer.delayMs()).toBeGreaterThan(0);
    clock += 1001;
    expect(pacer.delayMs()).toBe(0);
  });
});
