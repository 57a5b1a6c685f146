import type { SlotSource } from './call-turns';

/**
 * A client-side view of a service's rolling-window quota, so calls are paced just under it instead of
 * running into 429s and waiting out `Retry-After` (which a service rounds up to whole seconds, blocks every
 * parallel request, and, being a call, spends quota of its own).
 *
 * Spotify documents the window (its limit counts an app's calls "within a rolling 30 second window") but
 * not the budget, and the budget differs by app and over time. So the budget is learned: when the
 * service refuses a call, it had accepted its whole budget within the window, and the calls this process
 * saw answered within the window are a count of it. From then on a call waits until it fits that count.
 *
 * Why it never sends a call the service would refuse (when this process is the app's only caller and the
 * learned count is not above the real budget): a call's slot is taken before it is sent and timed when
 * its answer arrives, which is after the service counted it. When the window here holds fewer than the
 * budget, every call the service counted in its own window (ending when the new call arrives, later
 * than now) is either still in flight or was answered within our window, so the service holds fewer too.
 *
 * Another caller of the same app (another process) can still make the service refuse; then the count is
 * learned again, lower. A learned budget is forgotten after `relearnAfterMs`, so a raised quota is found.
 */
export interface RollingBudgetOptions {
  windowMs: number;
  relearnAfterMs?: number;
  now?: () => number;
}

const DEFAULT_RELEARN_MS = 10 * 60_000;
/** How often a call re-checks while every slot of the window is in flight (their answers free nothing). */
const IN_FLIGHT_POLL_MS = 5;

export class RollingBudget {
  readonly windowMs: number;
  private readonly relearnAfterMs: number;
  private readonly now: () => number;
  /** The budget learned from the last refusal; undefined until the service refuses a call. */
  private budget: number | undefined;
  private learnedAt = 0;
  /** When the answers of accepted calls arrived, oldest first (only the last window's). */
  private answered: number[] = [];
  private head = 0;
  private inFlight = 0;

  constructor(options: RollingBudgetOptions) {
    this.windowMs = options.windowMs;
    this.relearnAfterMs = options.relearnAfterMs ?? DEFAULT_RELEARN_MS;
    this.now = options.now ?? Date.now;
  }

  /** The budget learned so far (for tests and logs). */
  get learnedBudget(): number | undefined {
    return this.budget;
  }

  /**
   * How long the next call must wait to fit the learned budget; 0 when it fits now. Take its slot with
   * `take` in the same turn of the event loop as the 0 answer, and give it back with `release`.
   */
  delayMs(): number {
    if (this.budget === undefined) return 0;
    const now = this.now();
    if (this.expired(now)) {
      this.budget = undefined;
      return 0;
    }
    this.prune(now);
    const inWindow = this.answered.length - this.head;
    if (inWindow + this.inFlight < this.budget) return 0;
    const oldest = this.answered[this.head];
    return oldest === undefined ? IN_FLIGHT_POLL_MS : Math.max(1, oldest + this.windowMs - now + 1);
  }

  take(): void {
    this.inFlight++;
  }

  /** The call has its answer; `counted` false when the service refused it (a refused call is not counted). */
  release(counted: boolean): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (counted) {
      this.prune(this.now());
      this.answered.push(this.now());
    }
  }

  /** The service refused a call for its rate limit: it had accepted its budget within the window. */
  learn(): void {
    const now = this.now();
    this.prune(now);
    const seen = Math.max(1, this.answered.length - this.head);
    this.budget = this.budget === undefined || this.expired(now) ? seen : Math.min(this.budget, seen);
    this.learnedAt = now;
  }

  private expired(now: number): boolean {
    return now - this.learnedAt > this.relearnAfterMs;
  }

  private prune(now: number): void {
    const from = now - this.windowMs;
    while (this.head < this.answered.length && (this.answered[this.head] ?? 0) <= from) this.head++;
    if (this.head > 1024 && this.head * 2 > this.answered.length) {
      this.answered = this.answered.slice(this.head);
      this.head = 0;
    }
  }
}

/** This process's own learned budget as the room a `CallScheduler` hands out (the embedded database). */
export class ProcessSlots implements SlotSource {
  paced = false;
  constructor(readonly budget: RollingBudget) {}

  get learnedBudget(): number | undefined {
    return this.budget.learnedBudget;
  }

  take(): number {
    const waitMs = this.budget.delayMs();
    if (waitMs > 0) return waitMs;
    this.paced = this.budget.learnedBudget !== undefined;
    this.budget.take();
    return 0;
  }

  release(counted: boolean): void {
    this.budget.release(counted);
  }

  learn(): void {
    this.budget.learn();
  }
}
