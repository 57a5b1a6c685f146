import { describe, expect, it } from 'vitest';
import { CallScheduler, type CallTurn, pickNextCall, type SlotSource } from './call-turns';

/** The picker of decision 0029: interactive first, then whoever used the least recently, then the oldest. */
describe('pickNextCall', () => {
  const used = new Map<string | undefined, number>([
    ['big', 500],
    ['small', 3],
    ['idle', 0],
  ]);
  const usedRecently = (userId: string | undefined) => used.get(userId) ?? 0;
  const call = (userId: string, interactive: boolean, since: number) => ({
    turn: { userId, interactive },
    since,
  });

  it('gives the next call to the person who used the least of the budget recently', () => {
    const waiting = [call('big', false, 1), call('small', false, 2), call('idle', false, 3)];
    expect(pickNextCall(waiting, usedRecently)).toBe(2);
  });

  it('puts a person waiting for a page before any background work, however much they used', () => {
    const waiting = [call('idle', false, 1), call('big', true, 5), call('small', false, 2)];
    expect(pickNextCall(waiting, usedRecently)).toBe(1);
  });

  it('serves equals in the order they came', () => {
    const waiting = [call('small', false, 7), call('small', false, 4), call('small', false, 9)];
    expect(pickNextCall(waiting, usedRecently)).toBe(1);
    expect(pickNextCall([], usedRecently)).toBe(-1);
  });
});

/** A source with a fixed number of slots that open one by one as the test says. */
function gate(): SlotSource & { open(n: number): void } {
  let room = 0;
  return {
    paced: true,
    take: () => {
      if (room === 0) return 1;
      room--;
      return 0;
    },
    release: () => undefined,
    learn: () => undefined,
    open(n: number) {
      room += n;
    },
  };
}

describe('CallScheduler', () => {
  it('serves one big job and several small ones in turns: the small ones are not held behind the big one', async () => {
    const source = gate();
    let clock = 0;
    const scheduler = new CallScheduler(source, {
      windowMs: 30_000,
      now: () => clock,
      sleep: async () => {
        clock += 1;
        await new Promise((resolve) => setImmediate(resolve));
      },
    });
    const order: string[] = [];
    const ask = (turn: CallTurn) => scheduler.acquire(turn, 60_000).then(() => order.push(turn.userId ?? ''));
    // The big library queued 20 calls first; three people with small playlists 2 each, then.
    const calls = [
      ...Array.from({ length: 20 }, () => ask({ userId: 'big', interactive: false })),
      ...['a', 'b', 'c'].flatMap((userId) => [
        ask({ userId, interactive: false }),
        ask({ userId, interactive: false }),
      ]),
    ];
    for (let step = 0; step < 26; step++) {
      source.open(1);
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(calls);
    // Every small call went within the first slots after the big one's first.
    const lastSmall = Math.max(...['a', 'b', 'c'].map((userId) => order.lastIndexOf(userId)));
    expect(order[0]).toBe('big');
    expect(lastSmall).toBeLessThanOrEqual(7);
    expect(order.filter((userId) => userId === 'big')).toHaveLength(20);
  });

  it('fails a call that would wait longer than it waits inline, with how long', async () => {
    const source: SlotSource = {
      paced: true,
      take: () => 10_000,
      release: () => undefined,
      learn: () => undefined,
    };
    const scheduler = new CallScheduler(source, {
      windowMs: 30_000,
      now: () => 0,
      sleep: async () => undefined,
    });
    await expect(scheduler.acquire({ userId: 'x', interactive: false }, 5_000)).rejects.toMatchObject({
      name: 'BudgetWaitTooLong',
      waitMs: 10_000,
    });
  });

  it("hands each call its slot's batch and gives it back with the answer (decision 0040)", async () => {
    const released: { counted: boolean; grantId: number | undefined }[] = [];
    let batch = 0;
    const source: SlotSource & { grantId: number | undefined } = {
      paced: true,
      grantId: undefined,
      take() {
        batch++;
        this.grantId = batch;
        return 0;
      },
      release: (counted, slot) => {
        released.push({ counted, grantId: slot.grantId });
      },
      learn: () => undefined,
    };
    const scheduler = new CallScheduler(source, { windowMs: 30_000, now: () => 0 });
    const first = await scheduler.acquire({ userId: 'x', interactive: true }, 5_000);
    const second = await scheduler.acquire({ userId: 'y', interactive: true }, 5_000);
    expect([first.grantId, second.grantId]).toEqual([1, 2]);
    scheduler.release(second, false);
    scheduler.release(first, true);
    expect(released).toEqual([
      { counted: false, grantId: 2 },
      { counted: true, grantId: 1 },
    ]);
  });
});
