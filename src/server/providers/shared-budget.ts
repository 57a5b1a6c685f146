import type { Database } from '../db/client';
import type { CallSlot, SlotSource } from './call-turns';
import {
  type BudgetKey,
  type BudgetTiming,
  LIGHT_ROOM_MS,
  learnBudget,
  reportSlots,
  type SlotReport,
  takeSlots,
  URGENT_HOLD_MS,
} from './rate-budget-store';

/**
 * A service's learned rate budget shared by every process of one app through PostgreSQL (decisions 0029,
 * 0040), where decision 0021's `RollingBudget` is one process's own. The rules are the same: calls go
 * freely until the service first refuses one; the calls the window then holds (all processes') are the
 * budget; from then on a call is sent only within it, so none is refused again however many processes
 * there are.
 *
 * Why none is (decision 0040): every call, paced or not, is in the database before it is sent (a batch of
 * slots, in flight), and stays counted until its answer has arrived and been reported, then for one window
 * from the report. The service counts a call between its sending and its answer, so every call it holds
 * in its window is in ours when a slot is taken, however slow a process is to send or the service to
 * answer; and no call is taken outside the count (a free one is granted only while no budget is known).
 *
 * Few round trips: slots are taken in batches of up to `batch` (a batch's slots may be used within
 * `validMs`, then what is left goes back), and answers are reported with the next batch or within
 * `reportEveryMs`.
 */
export interface SharedBudgetOptions {
  db: Database;
  key: BudgetKey;
  windowMs: number;
  relearnAfterMs?: number;
  /** Most slots one batch takes. */
  batch?: number;
  /** How long a batch's slots may be used before what is left goes back. */
  validMs?: number;
  /** How long a slot never reported answered counts (a process died with it in flight). */
  inFlightMs?: number;
  /** Answers are reported at most this long after they arrive when no batch is taken meanwhile. */
  reportEveryMs?: number;
  /** Calls reported this close to the window's start are left out when learning (LEARN_TRIM_MS). */
  learnTrimMs?: number;
  /** How long the room stays kept for a ranked call after it was told to ask again (URGENT_HOLD_MS). */
  urgentHoldMs?: number;
  /** How long after a light call took slots room stays kept back from the others (LIGHT_ROOM_MS). */
  lightRoomMs?: number;
  /** How long after learning the budget the window is counted again (RECOUNT_AFTER_MS). */
  recountAfterMs?: number;
  now?: () => number;
}

const DEFAULT_RELEARN_MS = 10 * 60_000;
/** Four times the HTTP layer's 15 s timeout: a live process reports every call well before. */
const DEFAULT_IN_FLIGHT_MS = 60_000;
/**
 * Calls reported this close to the window's start are left out when the budget is learned: a report comes
 * a little after the answer (every `reportEveryMs`, later on a loaded machine), and counting calls the
 * service no longer counts would learn too high a budget.
 */
const LEARN_TRIM_MS = 1_000;
/**
 * The window is counted again this long after the budget was learned (`reportSlots` with a recount): long enough for
 * the calls in flight at the first refusal to be answered and every process to report them (every 100 ms).
 */
const RECOUNT_AFTER_MS = 2_000;

export class SharedBudget implements SlotSource {
  paced = false;
  grantId: number | undefined;
  /** The budget as last heard from the database; null while none is known. */
  private known: number | null = null;
  private tokens = 0;
  private tokensUntil = 0;
  private tokensPaced = false;
  private tokensGrant: number | undefined;
  /** Answers and given-back slots not yet told to the database. */
  private answered = 0;
  private readonly settled = new Map<number, number>();
  private reportScheduled = false;
  private recountScheduled = false;
  private readonly timing: BudgetTiming;
  private readonly now: () => number;

  constructor(private readonly options: SharedBudgetOptions) {
    this.timing = {
      windowMs: options.windowMs,
      relearnAfterMs: options.relearnAfterMs ?? DEFAULT_RELEARN_MS,
      inFlightMs: options.inFlightMs ?? DEFAULT_IN_FLIGHT_MS,
      urgentHoldMs: options.urgentHoldMs ?? URGENT_HOLD_MS,
      lightRoomMs: options.lightRoomMs ?? LIGHT_ROOM_MS,
    };
    this.now = options.now ?? Date.now;
  }

  /** The budget as this process last heard it (for tests and logs). */
  get learnedBudget(): number | null {
    return this.known;
  }

  take(rank?: number, light?: boolean): number | Promise<number> {
    if (this.tokens > 0 && this.now() < this.tokensUntil) {
      this.tokens--;
      this.paced = this.tokensPaced;
      this.grantId = this.tokensGrant;
      return 0;
    }
    return this.refill(rank, light);
  }

  /** The call has its answer (or will never have one): its slot is no longer in flight. */
  release(counted: boolean, slot?: CallSlot): void {
    if (slot?.grantId === undefined) return;
    this.settle(slot.grantId, 1);
    if (counted) this.answered++;
    this.scheduleReport();
  }

  async learn(paced: boolean): Promise<void> {
    this.dropTokens();
    const report = this.takeReport();
    const before = this.known;
    try {
      this.known = await learnBudget(this.options.db, this.options.key, this.timing, {
        paced,
        report,
        trimMs: this.trimMs,
      });
    } catch (error) {
      this.restoreReport(report);
      throw error;
    }
    if (before === null) this.recountSoon();
  }

  private get reportEveryMs() {
    return this.options.reportEveryMs ?? 100;
  }

  private get trimMs() {
    return Math.max(this.reportEveryMs, this.options.learnTrimMs ?? LEARN_TRIM_MS);
  }

  /** Once the calls in flight at the first refusal are answered and reported, counts the window again. */
  private recountSoon(): void {
    if (this.recountScheduled) return;
    this.recountScheduled = true;
    const timer = setTimeout(() => {
      this.recountScheduled = false;
      // Should it fail, the budget learned stays: the safe side.
      this.sendReport(this.trimMs);
    }, this.options.recountAfterMs ?? RECOUNT_AFTER_MS);
    timer.unref?.();
  }

  private async refill(rank: number | undefined, light: boolean | undefined): Promise<number> {
    const startedAt = this.now();
    this.dropTokens();
    const report = this.takeReport();
    let answer: Awaited<ReturnType<typeof takeSlots>>;
    try {
      answer = await takeSlots(this.options.db, this.options.key, this.timing, {
        want: this.options.batch ?? 8,
        rank,
        light,
        report,
      });
    } catch (error) {
      this.restoreReport(report);
      throw error;
    }
    this.known = answer.budget;
    if (answer.granted < 1 || answer.grantId === undefined) return Math.max(1, answer.waitMs);
    this.tokensGrant = answer.grantId;
    this.tokensPaced = answer.budget !== null;
    this.tokens = answer.granted - 1;
    this.tokensUntil = startedAt + (this.options.validMs ?? 500);
    this.paced = this.tokensPaced;
    this.grantId = answer.grantId;
    if (this.tokens > 0) this.giveBackAfterValidity(answer.grantId);
    return 0;
  }

  /** Slots of a batch left unused when its time is up go back soon (they count as in flight until then). */
  private giveBackAfterValidity(grantId: number): void {
    const timer = setTimeout(
      () => {
        if (this.tokensGrant !== grantId || this.tokens === 0) return;
        this.dropTokens();
        this.scheduleReport();
      },
      Math.max(1, this.tokensUntil - this.now()),
    );
    timer.unref?.();
  }

  /** The slots left of the last batch will not be used: they go back with the next report. */
  private dropTokens(): void {
    if (this.tokensGrant !== undefined && this.tokens > 0) this.settle(this.tokensGrant, this.tokens);
    this.tokens = 0;
  }

  private settle(grantId: number, calls: number): void {
    this.settled.set(grantId, (this.settled.get(grantId) ?? 0) + calls);
  }

  private takeReport(): SlotReport | undefined {
    if (this.answered === 0 && this.settled.size === 0) return undefined;
    const report = {
      answered: this.answered,
      settled: [...this.settled].map(([grantId, calls]) => ({ grantId, calls })),
    };
    this.answered = 0;
    this.settled.clear();
    return report;
  }

  /** A report the database did not take goes with the next one (until then its slots stay in flight). */
  private restoreReport(report: SlotReport | undefined): void {
    if (!report) return;
    this.answered += report.answered;
    for (const { grantId, calls } of report.settled) this.settle(grantId, calls);
  }

  /** Reports the answers within `reportEveryMs` when no batch is taken meanwhile. */
  private scheduleReport(): void {
    if (this.reportScheduled) return;
    this.reportScheduled = true;
    const timer = setTimeout(() => {
      this.reportScheduled = false;
      this.sendReport();
    }, this.reportEveryMs);
    timer.unref?.();
  }

  /** Sends the answers not yet reported (and counts the window again, given `recountTrimMs`). */
  private sendReport(recountTrimMs?: number): void {
    const report = this.takeReport();
    if (!report && recountTrimMs === undefined) return;
    reportSlots(this.options.db, this.options.key, this.timing, report, recountTrimMs)
      .then((budget) => {
        this.known = budget;
      })
      .catch(() => {
        // The slots stay in flight in the database (counted, the safe side) until the next report.
        if (!report) return;
        this.restoreReport(report);
        this.scheduleReport();
      });
  }
}
