import type { Database } from '../db/client';
import type { SlotSource } from './call-turns';
import { type BudgetKey, type BudgetTiming, learnBudget, recordCalls, takeSlots } from './rate-budget-store';

/**
 * A service's learned rate budget shared by every process of one app through PostgreSQL (decision 0029),
 * where decision 0021's `RollingBudget` is one process's own. The rules are the same: calls go freely
 * until the service first refuses one; the calls the window then holds (all processes') are the budget;
 * from then on a call is sent only within it, so none is refused again however many processes there are.
 *
 * Few round trips: before the budget is known, the calls a process saw answered are recorded in batches
 * (at most every `recordEveryMs`), which also tells it when another process has learned the budget. After,
 * slots are taken in small batches: a batch may be sent within `validMs` and counts as sent at its end
 * (plus `slackMs` for the way to the service), and what a batch left unused is given back with the next.
 */
export interface SharedBudgetOptions {
  db: Database;
  key: BudgetKey;
  windowMs: number;
  relearnAfterMs?: number;
  /** Most slots one batch takes. */
  batch?: number;
  validMs?: number;
  slackMs?: number;
  recordEveryMs?: number;
  /** Calls answered this close to the window's start are left out when learning (LEARN_TRIM_MS). */
  learnTrimMs?: number;
  now?: () => number;
}

const DEFAULT_RELEARN_MS = 10 * 60_000;
/**
 * How long after its batch's end a call may still reach the service: a loaded process can take a while
 * between taking a slot and the request leaving it. Too short costs refusals, too long a little rate.
 */
const DEFAULT_SLACK_MS = 1_000;
/**
 * Calls answered this close to the window's start are left out when the budget is learned: they may have
 * been recorded late (every `recordEveryMs`, later on a loaded machine), and counting calls the service no
 * longer counts would learn too high a budget.
 */
const LEARN_TRIM_MS = 1_000;

export class SharedBudget implements SlotSource {
  paced = false;
  /** The budget as last heard from the database; null while none is known. */
  private known: number | null = null;
  private tokens = 0;
  private tokensUntil = 0;
  private grantId: number | undefined;
  /** Calls answered while no budget was known, not yet recorded. */
  private unrecorded = 0;
  private recording: Promise<void> | undefined;
  private recordScheduled = false;
  private lastRecorded = 0;
  private readonly timing: BudgetTiming;
  private readonly now: () => number;

  constructor(private readonly options: SharedBudgetOptions) {
    this.timing = {
      windowMs: options.windowMs,
      relearnAfterMs: options.relearnAfterMs ?? DEFAULT_RELEARN_MS,
      slackMs: options.slackMs ?? DEFAULT_SLACK_MS,
    };
    this.now = options.now ?? Date.now;
  }

  /** The budget as this process last heard it (for tests and logs). */
  get learnedBudget(): number | null {
    return this.known;
  }

  take(): number | Promise<number> {
    if (this.tokens > 0 && this.now() < this.tokensUntil) {
      this.tokens--;
      this.paced = true;
      return 0;
    }
    if (this.known === null) {
      this.paced = false;
      if (this.now() - this.lastRecorded >= this.recordEveryMs) void this.record();
      return 0;
    }
    return this.refill();
  }

  release(counted: boolean): void {
    if (!counted || this.known !== null) return;
    this.unrecorded++;
    this.scheduleRecord();
  }

  /** Records the unrecorded calls within `recordEveryMs`, and again after that while some are left. */
  private scheduleRecord(): void {
    if (this.recordScheduled) return;
    this.recordScheduled = true;
    const timer = setTimeout(() => {
      this.recordScheduled = false;
      void this.record().then(() => {
        if (this.unrecorded > 0 && this.known === null) this.scheduleRecord();
      });
    }, this.recordEveryMs);
    timer.unref?.();
  }

  async learn(paced: boolean): Promise<void> {
    await this.recording;
    const unrecordedCalls = this.unrecorded;
    this.unrecorded = 0;
    this.dropTokens();
    this.known = await learnBudget(this.options.db, this.options.key, this.timing, {
      paced,
      unrecordedCalls,
      trimMs: Math.max(this.recordEveryMs, this.options.learnTrimMs ?? LEARN_TRIM_MS),
    });
  }

  private get recordEveryMs() {
    return this.options.recordEveryMs ?? 100;
  }

  private async refill(): Promise<number> {
    const startedAt = this.now();
    const giveBack = this.dropTokens();
    const answer = await takeSlots(this.options.db, this.options.key, this.timing, {
      want: this.options.batch ?? 8,
      validMs: this.options.validMs ?? 500,
      giveBack,
    });
    this.known = answer.budget;
    if (answer.budget === null) {
      // Forgotten (or never learned): calls go freely again until the service refuses one.
      this.paced = false;
      return 0;
    }
    if (answer.granted < 1) return answer.waitMs;
    this.grantId = answer.grantId;
    this.tokens = answer.granted - 1;
    this.tokensUntil = startedAt + (this.options.validMs ?? 500);
    this.paced = true;
    return 0;
  }

  /** Gives up the slots left of the last batch; returns them to give back with the next database call. */
  private dropTokens(): { grantId: number; calls: number } | undefined {
    const left = this.tokens;
    this.tokens = 0;
    return this.grantId !== undefined && left > 0 ? { grantId: this.grantId, calls: left } : undefined;
  }

  private record(): Promise<void> {
    if (this.recording) return this.recording;
    const calls = this.unrecorded;
    this.unrecorded = 0;
    this.lastRecorded = this.now();
    this.recording = recordCalls(this.options.db, this.options.key, this.timing, calls)
      .then((budget) => {
        if (this.known === null) this.known = budget;
      })
      .catch(() => {
        // The calls stay counted here and go with the next record (the budget is a pacing aid).
        this.unrecorded += calls;
      })
      .finally(() => {
        this.recording = undefined;
      });
    return this.recording;
  }
}
