import { describe, expect, it } from 'vitest';
import { CallScheduler, type CallTurn, type PersonUse, pickNextCall, type SlotSource } from './call-turns';

/**
 * The picker of decisions 0029, 0049 and 0053: interactive first; then the light (under a tenth of the
 * window) by who asked first, or by when the call began to wait for whoever used a whole tenth in the
 * window before; then the heavy by who used the least recently; then the oldest call.
 */
describe('pickNextCall', () => {
  const used = new Map<string | undefined, PersonUse>([
    ['big', { recent: 500, before: 0 }],
    ['medium', { recent: 80, before: 0 }],
    ['small', { recent: 3, before: 0 }],
    ['idle', { recent: 0, before: 0 }],
    // A library's move whose calls of the last window have left it: light again, heavy the window before.
    ['library', { recent: 10, before: 540 }],
  ]);
  const usedRecently = (userId: string | undefined) => used.get(userId) ?? { recent: 0, before: 0 };
  const LIGHT_UP_TO = 60;
  const call = (userId: string, interactive: boolean, since: number, askedAt?: number) => ({
    turn: { userId, interactive, askedAt },
    since,
  });

  it('serves people who used little of the window by who asked first, before anyone who used more', () => {
    // The idle person asked before the small one: turns in order, not by who used the least.
    const waiting = [call('big', false, 1, 100), call('small', false, 2, 300), call('idle', false, 3, 200)];
    expect(pickNextCall(waiting, usedRecently, LIGHT_UP_TO)).toBe(2);
    // The big library asked first of all, but has used more than a tenth of the window: it waits.
    expect(
      pickNextCall([call('big', false, 1, 1), call('small', false, 9, 300)], usedRecently, LIGHT_UP_TO),
    ).toBe(1);
  });

  it('among people past their light share, gives the next call to whoever used the least', () => {
    const waiting = [call('big', false, 1, 1), call('medium', false, 5, 500)];
    expect(pickNextCall(waiting, usedRecently, LIGHT_UP_TO)).toBe(1);
  });

  it('puts a person waiting for a page before any background work, however much they used', () => {
    const waiting = [call('idle', false, 1, 1), call('big', true, 5), call('small', false, 2, 2)];
    expect(pickNextCall(waiting, usedRecently, LIGHT_UP_TO)).toBe(1);
  });

  it('serves the light share of someone who used a whole one the window before by when its call began to wait', () => {
    // The library asked first of all (at 1), but its call began to wait at 400: the small playlist asked
    // at 300 goes first, and one asked at 500 after it (the library's share is never starved).
    expect(
      pickNextCall(
        [call('library', false, 400, 1), call('small', false, 450, 300)],
        usedRecently,
        LIGHT_UP_TO,
      ),
    ).toBe(1);
    expect(
      pickNextCall(
        [call('library', false, 400, 1), call('small', false, 450, 500)],
        usedRecently,
        LIGHT_UP_TO,
      ),
    ).toBe(0);
    // Without a budget learned nobody is past a share, and the library goes by when it asked.
    expect(pickNextCall([call('library', false, 400, 1), call('small', false, 450, 300)], usedRecently)).toBe(
      0,
    );
  });

  it('serves a call that says nothing of when it was asked by when it began to wait, equals in order', () => {
    const waiting = [call('small', false, 7), call('small', false, 4), call('small', false, 9)];
    expect(pickNextCall(waiting, usedRecently, LIGHT_UP_TO)).toBe(1);
    expect(pickNextCall([call('small', false, 7, 50), call('small', false, 4, 50)], usedRecently)).toBe(1);
    expect(pickNextCall([], usedRecently)).toBe(-1);
  });
});

/**
 * A source with a fixed number of slots that open one by one as the test says; `ranks` lists the rank each
 * slot given was asked with (decision 0050), `lights` whether it was for a light call (decision 0054).
 */
function gate(): SlotSource & {
  open(n: number): void;
  ranks: (number | undefined)[];
  lights: (boolean | undefined)[];
} {
  let room = 0;
  const ranks: (number | undefined)[] = [];
  const lights: (boolean | undefined)[] = [];
  return {
    paced: true,
    // A tenth of it (3 calls in the window) is a person's light share.
    learnedBudget: 30,
    ranks,
    lights,
    take: (rank, light) => {
      if (room === 0) return 1;
      room--;
      ranks.push(rank);
      lights.push(light);
      return 0;
    },
    release: () => undefined,
    learn: () => undefined,
    open(n: number) {
      room += n;
    },
  };
}

/**
 * A scheduler over `source` with a 30 s window, on a clock the test sets (each wait for room moves it on by
 * `tickMs`); `order` lists whose calls were served, in order.
 */
function servedInOrder(source: SlotSource, tickMs: number) {
  const clock = { now: 0 };
  const scheduler = new CallScheduler(source, {
    windowMs: 30_000,
    now: () => clock.now,
    sleep: async () => {
      clock.now += tickMs;
      await new Promise((resolve) => setImmediate(resolve));
    },
  });
  const order: string[] = [];
  const ask = (turn: CallTurn) => scheduler.acquire(turn, 60_000).then(() => order.push(turn.userId ?? ''));
  return { clock, order, ask };
}

/** Opens `slots` slots one at a time, letting the waiting calls take each before the next. */
async function openOneByOne(source: ReturnType<typeof gate>, slots: number): Promise<void> {
  for (let step = 0; step < slots; step++) {
    source.open(1);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('CallScheduler', () => {
  it("serves one big job and several small ones in turns: the small ones wait only for the big one's share", async () => {
    const source = gate();
    const { order, ask } = servedInOrder(source, 1);
    // The big library asked first and queued 20 calls; then three people with small playlists 2 each,
    // queued a, b, c but asked c, a, b.
    const askedAt = { big: 0, c: 5, a: 10, b: 20 };
    const calls = [
      ...Array.from({ length: 20 }, () => ask({ userId: 'big', interactive: false, askedAt: askedAt.big })),
      ...(['a', 'b', 'c'] as const).flatMap((userId) => [
        ask({ userId, interactive: false, askedAt: askedAt[userId] }),
        ask({ userId, interactive: false, askedAt: askedAt[userId] }),
      ]),
    ];
    await openOneByOne(source, 26);
    await Promise.all(calls);
    // The big one's light share (a tenth of the window's 30), then each small playlist whole in the order
    // its person asked, then the rest of the big one.
    expect(order).toEqual([
      ...['big', 'big', 'big'],
      ...['c', 'c', 'a', 'a', 'b', 'b'],
      ...Array.from({ length: 17 }, () => 'big'),
    ]);
    // Each slot was asked for with its call's rank among every process's: a light person's by when they
    // asked, none once the big one is past its share (what the room shared with other processes goes by).
    expect(source.ranks).toEqual([
      ...[0, 0, 0],
      ...[5, 5, 10, 10, 20, 20],
      ...Array.from({ length: 17 }, () => undefined),
    ]);
  });

  it("in the next window, serves the big one's share after the people who asked before its calls began to wait", async () => {
    const source = gate();
    const { clock, order, ask } = servedInOrder(source, 0);
    // The first window: the big library (asked at 0) alone uses 5 calls, more than its share of 3.
    const first = Array.from({ length: 5 }, () => ask({ userId: 'big', interactive: false, askedAt: 0 }));
    await openOneByOne(source, 5);
    await Promise.all(first);
    // At 20 s its next calls begin to wait for room; a asked at 10 s, b at 25 s.
    clock.now = 20_000;
    const later = Array.from({ length: 5 }, () => ask({ userId: 'big', interactive: false, askedAt: 0 }));
    clock.now = 31_000;
    const small = (['a', 'b'] as const).flatMap((userId) =>
      Array.from({ length: 2 }, () =>
        ask({ userId, interactive: false, askedAt: userId === 'a' ? 10_000 : 25_000 }),
      ),
    );
    await openOneByOne(source, 9);
    await Promise.all([...later, ...small]);
    // The next window: a asked before the big one's calls began to wait, b after; the big one's share of
    // 3 goes between them, by when its calls began to wait, then the rest of it once b is served.
    expect(order.slice(5)).toEqual(['a', 'a', 'big', 'big', 'big', 'b', 'b', 'big', 'big']);
    expect(source.ranks.slice(5)).toEqual([
      10_000,
      10_000,
      20_000,
      20_000,
      20_000,
      25_000,
      25_000,
      undefined,
      undefined,
    ]);
    // Only the small playlists may take the room kept back for light calls (decision 0054).
    expect(source.lights.slice(5)).toEqual([true, true, false, false, false, true, true, false, false]);
  });

  it('forgets the people who made no call for two windows, so what it remembers stays the size of who is active', async () => {
    const source = gate();
    let clock = 0;
    const scheduler = new CallScheduler(source, { windowMs: 30_000, now: () => clock });
    source.open(1_001);
    await Promise.all(
      Array.from({ length: 1_000 }, (_, n) =>
        scheduler.acquire({ userId: `p${n}`, interactive: false }, 1_000),
      ),
    );
    expect(scheduler.rememberedPeople).toBe(1_000);
    clock = 61_000;
    await scheduler.acquire({ userId: 'later', interactive: false }, 1_000);
    expect(scheduler.rememberedPeople).toBe(1);
  });

  it('fails a call that would wait longer than it waits inline, with how long', async () => {
    const source: SlotSource = {
      paced: true,
      learnedBudget: 600,
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
      learnedBudget: 600,
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
