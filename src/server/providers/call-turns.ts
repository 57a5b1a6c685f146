/**
 * Whose call goes next (decision 0029). A service's quota is per app, shared by everyone: when calls must
 * wait for room in it, they are not served first come first served. A person's interactive reads (step
 * 2's playlist list, a search by hand) go before background work (jobs), and among the rest the next call
 * goes to the person who has used the least of the budget recently, so one person's 10,000-track library
 * gets its share but never starves someone else's 20-track playlist.
 *
 * Among the people who used little of the window (a playlist's move, not a library's), the one who asked
 * first goes first (decision 0049): sharing equally among them would end every move late together, where
 * turns in order end the first ones early and the last no later. A library's move has a light share of
 * each window too, so it is never starved; but once it has used a whole share, the calls of its next
 * share go by when each began to wait, not by when its person asked (decision 0053): else the library,
 * asked first, would take its share of every window before people who asked long after it but still wait.
 *
 * Where the room comes from is a `SlotSource`: this process's learned budget (`RollingBudget`, the
 * embedded database) or the budget every process of the app shares through PostgreSQL (`SharedBudget`).
 */

export interface CallTurn {
  /** The person the call is made for; calls of nobody (the app's catalog reads) share one turn. */
  userId?: string | undefined;
  /** A person waits for it now (a page's read, a search by hand); false for a job's call. */
  interactive: boolean;
  /** When the person asked for the work this call serves (ms since the epoch): a move's start, say. */
  askedAt?: number | undefined;
}

/** Room for calls in a service's rate budget. */
export interface SlotSource {
  /**
   * Takes one slot: 0 when taken, otherwise how many ms until one may be free. `rank`: the turn of the call
   * it is for among every process's (lower first; none for a heavy person's), which a source shared by
   * processes keeps the room for (decision 0050). `light`: the call is interactive or a light person's
   * (not past a share lately), for whom a shared source keeps some room back from the others (0054).
   */
  take(rank?: number, light?: boolean): number | Promise<number>;
  /** Whether the slot just taken was paced by a learned budget (false while none is known). */
  readonly paced: boolean;
  /** The calls a window holds, once learned. */
  readonly learnedBudget: number | null | undefined;
  /** The batch the slot just taken belongs to, where the source keeps batches (the shared budget). */
  readonly grantId?: number | undefined;
  /** The call has its answer; `counted` false when the service refused it for its rate limit. */
  release(counted: boolean, slot: CallSlot): void;
  /** The service refused a call for its rate limit; `paced` as it was when the call's slot was taken. */
  learn(paced: boolean): void | Promise<void>;
}

/** A slot a call holds from before it is sent until its answer. */
export interface CallSlot {
  readonly paced: boolean;
  readonly grantId?: number | undefined;
}

/** The wait for a slot would be longer than the caller waits inline: fail as a 429 would. */
export class BudgetWaitTooLong extends Error {
  override readonly name = 'BudgetWaitTooLong';
  constructor(readonly waitMs: number) {
    super(`a slot in the rate budget is ${waitMs} ms away`);
  }
}

export interface WaitingCall {
  turn: CallTurn;
  /** When it began to wait (ms), for first come first served among equals. */
  since: number;
}

/**
 * Of a window's budget, the share a person may use and still count as light: their calls go by who asked
 * first. A 200-track move makes about 35 calls in all (decision 0047), so it stays light; a library's move
 * uses its tenth of each window first thing, then waits for the light ones.
 */
export const LIGHT_SHARE = 0.1;

/** What a person was given of the budget lately, as the picker weighs it. */
export interface PersonUse {
  /** Slots given in the last window. */
  recent: number;
  /** Slots given in the window before it. */
  before: number;
}

/**
 * The rank of a light call among every process's (lower first): when its person asked, or, for a person
 * who used a whole light share in the window before (a library's move), when the call began to wait.
 */
export function lightRank(call: WaitingCall, use: PersonUse, lightUpTo: number): number {
  return use.before >= lightUpTo ? call.since : (call.turn.askedAt ?? call.since);
}

/**
 * The picker: interactive calls first; then light people (who used less than `lightUpTo` slots in the
 * last window) by `lightRank`; then the rest by who used the least; then whoever has waited longest.
 * Returns the index of the call to serve, or -1 for none.
 */
export function pickNextCall(
  waiting: readonly WaitingCall[],
  recentUseOf: (userId: string | undefined) => PersonUse,
  lightUpTo = Number.POSITIVE_INFINITY,
): number {
  let best = -1;
  let bestKey: number[] = [];
  for (const [index, call] of waiting.entries()) {
    const use = recentUseOf(call.turn.userId);
    const light = use.recent < lightUpTo;
    const key = [
      call.turn.interactive ? 0 : 1,
      light ? 0 : 1,
      light ? lightRank(call, use, lightUpTo) : use.recent,
      call.since,
    ];
    if (best === -1 || comesBefore(key, bestKey)) {
      best = index;
      bestKey = key;
    }
  }
  return best;
}

/** Whether one key sorts before another, field by field. */
function comesBefore(key: readonly number[], other: readonly number[]): boolean {
  for (const [index, value] of key.entries()) {
    const against = other[index] ?? 0;
    if (value !== against) return value < against;
  }
  return false;
}

interface PendingCall extends WaitingCall {
  maxWaitMs: number;
  resolve: (slot: CallSlot) => void;
  reject: (error: Error) => void;
}

/** How many of `times` (in order) are at or before `at`. */
function countUpTo(times: readonly number[], at: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((times[middle] ?? 0) <= at) low = middle + 1;
    else high = middle;
  }
  return low;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const NOBODY = '';

export interface CallSchedulerOptions {
  /** The window over which a person's use of the budget is counted. */
  windowMs: number;
  /** Told of every refusal: `paced` true means a call sent within a learned budget was refused. */
  onRefused?: (paced: boolean) => void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** One per service and process: every client of the service asks it for a slot before each call. */
export class CallScheduler {
  private readonly waiting: PendingCall[] = [];
  /** When each person's recent calls were given their slot (the last two windows'), in order. */
  private readonly usage = new Map<string, number[]>();
  /** When `usage` was last rid of the people who made no call in its two windows. */
  private usageSweptAt = 0;
  private pumping = false;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    readonly source: SlotSource,
    private readonly options: CallSchedulerOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? defaultSleep;
  }

  /** Waits for this call's turn and a slot; rejects with `BudgetWaitTooLong` past `maxWaitMs`. */
  acquire(turn: CallTurn, maxWaitMs: number): Promise<CallSlot> {
    return new Promise<CallSlot>((resolve, reject) => {
      this.waiting.push({ turn, since: this.now(), maxWaitMs, resolve, reject });
      void this.pump();
    });
  }

  /** The slot's call has its answer (or failed): `counted` false when refused for the rate limit. */
  release(slot: CallSlot, counted: boolean): void {
    this.source.release(counted, slot);
  }

  async learn(slot: CallSlot): Promise<void> {
    this.options.onRefused?.(slot.paced);
    await this.source.learn(slot.paced);
  }

  /** How many people's use this scheduler remembers (for tests: it stays the size of who is active). */
  get rememberedPeople(): number {
    return this.usage.size;
  }

  /** What this person was given in the last window and in the one before it. */
  private recentUseOf(userId: string | undefined): PersonUse {
    const key = userId ?? NOBODY;
    const times = this.usage.get(key);
    if (!times) return { recent: 0, before: 0 };
    const now = this.now();
    const windowMs = this.options.windowMs;
    while (times.length > 0 && (times[0] ?? 0) <= now - 2 * windowMs) times.shift();
    if (times.length === 0) this.usage.delete(key);
    const recent = times.length - countUpTo(times, now - windowMs);
    return { recent, before: times.length - recent };
  }

  /** Hands out slots one at a time while calls wait; one pump runs per scheduler. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.waiting.length > 0) {
        let waitMs: number;
        try {
          const next = this.nextCall();
          waitMs = await this.source.take(next.rank, next.light);
        } catch (error) {
          // The budget could not be asked (the database is away): the calls fail as any call would.
          for (const call of this.waiting.splice(0)) call.reject(error as Error);
          return;
        }
        if (waitMs <= 0) {
          this.serveNext();
          continue;
        }
        this.rejectImpatient(waitMs);
        if (this.waiting.length > 0) await this.sleep(waitMs);
      }
    } finally {
      this.pumping = false;
    }
  }

  /**
   * The waiting call to serve next (`pickNextCall`), its rank among every process's calls (0 when
   * interactive, `lightRank` when light, none for a heavy person's: decision 0050), and whether it may
   * take the room kept back for light calls: interactive, or light now and in the window before (0054).
   */
  private nextCall(): { index: number; rank: number | undefined; light: boolean } {
    const budget = this.source.learnedBudget;
    const lightUpTo = budget ? Math.max(1, Math.floor(budget * LIGHT_SHARE)) : Number.POSITIVE_INFINITY;
    const index = pickNextCall(this.waiting, (userId) => this.recentUseOf(userId), lightUpTo);
    const call = this.waiting[index];
    if (!call) return { index, rank: undefined, light: false };
    if (call.turn.interactive) return { index, rank: 0, light: true };
    const use = this.recentUseOf(call.turn.userId);
    if (use.recent >= lightUpTo) return { index, rank: undefined, light: false };
    return { index, rank: lightRank(call, use, lightUpTo), light: use.before < lightUpTo };
  }

  private serveNext(): void {
    const { index } = this.nextCall();
    const [call] = this.waiting.splice(index, 1);
    if (!call) return;
    const key = call.turn.userId ?? NOBODY;
    const times = this.usage.get(key) ?? [];
    times.push(this.now());
    this.usage.set(key, times);
    this.sweepUsage();
    call.resolve({ paced: this.source.paced, grantId: this.source.grantId });
  }

  /**
   * Once a window, forgets the people whose last call is older than two windows: `recentUseOf` trims only
   * the people who call again, and a process serves many who never do; so the map stays the size of who
   * is active.
   */
  private sweepUsage(): void {
    const now = this.now();
    if (now - this.usageSweptAt < this.options.windowMs) return;
    this.usageSweptAt = now;
    for (const [key, times] of this.usage)
      if ((times[times.length - 1] ?? 0) <= now - 2 * this.options.windowMs) this.usage.delete(key);
  }

  /** Calls that would wait longer than they wait inline fail now (a job then requeues itself). */
  private rejectImpatient(waitMs: number): void {
    const now = this.now();
    for (let index = this.waiting.length - 1; index >= 0; index--) {
      const call = this.waiting[index];
      if (call && now - call.since + waitMs > call.maxWaitMs) {
        this.waiting.splice(index, 1);
        call.reject(new BudgetWaitTooLong(waitMs));
      }
    }
  }
}
