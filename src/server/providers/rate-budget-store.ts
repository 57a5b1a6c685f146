import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { rateBudgetSlots, rateBudgets } from '../db/schema';

/**
 * The SQL of the rate budget every process of one app shares on PostgreSQL (decisions 0029, 0040). Each
 * operation is one transaction under an advisory lock of its (service, app), so two processes never both
 * take the last room of the window.
 *
 * A row of `rate_budget_slots` is either a batch of slots taken and not yet answered (in flight: its
 * `counts_at` lies `inFlightMs` in the future, so it counts for as long as it stays so) or calls whose
 * answers a process has reported (`counts_at` the report's time, which is after the service counted them).
 * Every call is in a row before it is sent, whether or not a budget is known; so a call of any process the
 * service counts in its window is in ours too (decision 0040).
 */
export interface BudgetKey {
  service: string;
  app: string;
}

export interface BudgetTiming {
  windowMs: number;
  /** A learned budget older than this is forgotten (a raised quota is found again). */
  relearnAfterMs: number;
  /**
   * How long a slot taken and never reported answered still counts (a process that died with calls in
   * flight): longer than any call can take (the HTTP layer's timeout), so a live process always reports first.
   */
  inFlightMs: number;
  /** How long the room stays kept for a ranked call after it was told to ask again (`URGENT_HOLD_MS`). */
  urgentHoldMs: number;
  /** How long after a light call took slots room stays kept back from the others (`LIGHT_ROOM_MS`). */
  lightRoomMs: number;
}

/** What a process tells the store of its slots: calls answered, and slots it took and will not use. */
export interface SlotReport {
  /** Calls answered (the service may have counted them) since the last report. */
  answered: number;
  /** Per batch, how many of its slots are no longer in flight (answered, or never to be sent). */
  settled: { grantId: number; calls: number }[];
}

export interface TakeAnswer {
  /** The learned budget; null while none is known (then the slots are granted freely). */
  budget: number | null;
  granted: number;
  grantId?: number;
  /** With nothing granted under a known budget: how long until enough of the window has passed. */
  waitMs: number;
}

/** How soon to ask again when the window is full of calls still in flight (their answers free nothing). */
const IN_FLIGHT_POLL_MS = 20;
/** How soon an urgent call ranked after the held one asks again (the holder may be served sooner). */
const OUTRANKED_POLL_MS = 50;
/**
 * How long after it was told to ask again the room that frees stays kept for a process whose light or
 * interactive call found the window full (decision 0050): it asks again when the next call leaves the
 * window, renewing the hold while it waits, and ends it when it takes its slots.
 */
export const URGENT_HOLD_MS = 250;
/**
 * The room kept back from heavy calls while light ones come (decision 0054), as a share of the budget: a
 * light person's next call (a move's next page, its transfer after its matching) comes a moment after
 * the last, and without it a heavy job takes the window's last room in between; then the light person
 * waits for the next room to free, up to a whole window.
 */
export const LIGHT_ROOM_SHARE = 0.05;
/** How long after a light call took slots the room stays kept back for the next. */
export const LIGHT_ROOM_MS = 3_000;

const lock = (key: BudgetKey) =>
  sql`select pg_advisory_xact_lock(hashtext(${`rate-budget:${key.service}:${key.app}`}))`;
const ofKey = (key: BudgetKey) =>
  and(eq(rateBudgetSlots.service, key.service), eq(rateBudgetSlots.app, key.app));
const ofBudget = (key: BudgetKey) => and(eq(rateBudgets.service, key.service), eq(rateBudgets.app, key.app));
type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * The budget (null when none is learned or it has expired), the calls the window holds now, and how long
 * the room is still kept for another process's urgent calls (ms; 0 when it is not).
 */
async function windowState(tx: Tx, key: BudgetKey, timing: BudgetTiming) {
  // One read of the budget's row (when there is one) beside the window's count.
  const result = await tx.execute(sql`
    select
      case when b.learned_at > now() - (${timing.relearnAfterMs}::int * interval '1 millisecond')
        then b.budget end as budget,
      (select coalesce(sum(calls), 0) from rate_budget_slots
         where service = ${key.service} and app = ${key.app}
           and counts_at > now() - (${timing.windowMs}::int * interval '1 millisecond'))
        as used,
      case when b.urgent_until > now() then b.urgent_rank end as held_rank,
      greatest(0, ceil(extract(epoch from (b.urgent_until - now())) * 1000)) as held_ms,
      greatest(0, ceil(extract(epoch from (b.light_until - now())) * 1000)) as light_ms
    from (select 1) as one
      left join rate_budgets b on b.service = ${key.service} and b.app = ${key.app}`);
  type Row = { budget: unknown; used: unknown; held_rank: unknown; held_ms: unknown; light_ms: unknown };
  const row = (result as unknown as { rows: Row[] }).rows[0];
  const heldRank = numberOrNull(row?.held_rank);
  return {
    budget: numberOrNull(row?.budget),
    used: Number(row?.used ?? 0),
    held: heldRank === null ? null : { rank: heldRank, ms: Number(row?.held_ms ?? 0) },
    /** How much longer room is kept back for light calls (ms; 0 when it is not). */
    lightMs: Number(row?.light_ms ?? 0),
  };
}

/** A nullable SQL number as it comes back (a bigint arrives as text). */
const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** Keeps the room that frees for calls of `rank` or better for `holdMs`; with no rank, ends the hold. */
async function holdRoom(tx: Tx, key: BudgetKey, rank: number | null, holdMs = 0): Promise<void> {
  await tx
    .update(rateBudgets)
    .set({
      urgentRank: rank,
      urgentUntil: rank === null ? null : sql`now() + (${holdMs}::int * interval '1 millisecond')`,
    })
    .where(ofBudget(key));
}

/** A light call took slots: room stays kept back from the others for `lightRoomMs` more. */
async function keepLightRoom(tx: Tx, key: BudgetKey, timing: BudgetTiming): Promise<void> {
  await tx
    .update(rateBudgets)
    .set({ lightUntil: sql`now() + (${timing.lightRoomMs}::int * interval '1 millisecond')` })
    .where(ofBudget(key));
}

/**
 * How long until `needed` answered calls have left the window; a short poll when the answered ones are
 * too few (the rest are in flight, and leave only once they are answered and reported).
 */
async function waitFor(tx: Tx, key: BudgetKey, timing: BudgetTiming, needed: number): Promise<number> {
  const result = await tx.execute(sql`
    select greatest(1, ceil(extract(epoch from (counts_at - now())) * 1000 + ${timing.windowMs}::int))
      as wait
    from (
      select counts_at, sum(calls) over (order by counts_at, id) as running
      from rate_budget_slots
      where service = ${key.service} and app = ${key.app}
        and counts_at > now() - (${timing.windowMs}::int * interval '1 millisecond')
        and counts_at <= now()
    ) window_calls
    where running >= ${needed}::int
    order by counts_at
    limit 1`);
  const row = (result as unknown as { rows: { wait: unknown }[] }).rows[0];
  return row ? Number(row.wait) : IN_FLIGHT_POLL_MS;
}

/**
 * Applies a report: the settled slots leave their batches (in flight until now), and the answered calls
 * count from now, which is after their answers arrived, so after the service counted them.
 */
async function applyReport(tx: Tx, key: BudgetKey, report: SlotReport | undefined): Promise<void> {
  if (!report) return;
  for (const { grantId, calls } of report.settled) {
    if (calls < 1) continue;
    await tx
      .update(rateBudgetSlots)
      .set({ calls: sql`greatest(0, ${rateBudgetSlots.calls} - ${calls}::int)` })
      .where(and(ofKey(key), eq(rateBudgetSlots.id, grantId)));
  }
  if (report.answered > 0)
    await tx.insert(rateBudgetSlots).values({ ...key, countsAt: sql`now()`, calls: report.answered });
  const emptied = report.settled.map((settled) => settled.grantId);
  if (emptied.length > 0)
    await tx
      .delete(rateBudgetSlots)
      .where(and(ofKey(key), inArray(rateBudgetSlots.id, emptied), eq(rateBudgetSlots.calls, 0)));
}

/** Rows long out of every window go (in-flight ones too, once past their own time). */
async function forgetOld(tx: Tx, key: BudgetKey, timing: BudgetTiming): Promise<void> {
  await tx
    .delete(rateBudgetSlots)
    .where(
      and(
        ofKey(key),
        sql`${rateBudgetSlots.countsAt} < now() - (${timing.windowMs * 2}::int * interval '1 millisecond')`,
      ),
    );
}

/**
 * Applies `report`, then takes up to `want` slots: within the learned budget, or freely while none is
 * known (every call is in a row before it is sent, either way). The batch counts as in flight until its
 * calls are reported answered or given back.
 *
 * Turns across processes (decision 0050): `rank` is the process's next call's (`CallScheduler`: 0 for an
 * interactive call, a light person's by when they asked, none for the rest). When a ranked call finds the
 * window full, the room that frees is kept for it unless a better one is kept already: until
 * `URGENT_HOLD_MS` after it was told to ask again, a process whose next call ranks after it (or has no
 * rank) gets nothing. The holder ends the hold when it takes its slots; asking again, it renews it.
 *
 * Room kept back for light calls (decision 0054): for `lightRoomMs` after a `light` call took slots, a
 * call that is not light leaves `LIGHT_ROOM_SHARE` of the budget untaken.
 */
export function takeSlots(
  db: Database,
  key: BudgetKey,
  timing: BudgetTiming,
  request: {
    want: number;
    rank?: number | undefined;
    /** The call is interactive or a light person's: it may take the room kept back, and keeps it so. */
    light?: boolean | undefined;
    report?: SlotReport | undefined;
  },
): Promise<TakeAnswer> {
  return db.transaction(async (tx) => {
    await tx.execute(lock(key));
    await applyReport(tx, key, request.report);
    await forgetOld(tx, key, timing);
    const { budget, used, held, lightMs } = await windowState(tx, key, timing);
    const rank = request.rank;
    const first = rank !== undefined && (held === null || rank <= held.rank);
    const keptBack =
      budget !== null && lightMs > 0 && !request.light ? Math.ceil(budget * LIGHT_ROOM_SHARE) : 0;
    const room = budget === null ? request.want : budget - used - keptBack;
    if (budget !== null && room < 1) {
      const waitMs = await waitFor(tx, key, timing, used + keptBack - budget + 1);
      // Room kept back is the light calls' to take: a call it stops keeps nothing for itself, and asks
      // again when the light calls stop coming, if no call has left the window by then.
      if (used < budget) return { budget, granted: 0, waitMs: Math.min(waitMs, lightMs) };
      if (first) await holdRoom(tx, key, rank, waitMs + timing.urgentHoldMs);
      return { budget, granted: 0, waitMs };
    }
    if (budget !== null && held !== null && !first) {
      const waitMs = rank === undefined ? held.ms : Math.min(held.ms, OUTRANKED_POLL_MS);
      return { budget, granted: 0, waitMs: Math.max(1, waitMs) };
    }
    if (held !== null && first) await holdRoom(tx, key, null);
    if (budget !== null && request.light) await keepLightRoom(tx, key, timing);
    const granted = Math.min(request.want, room);
    const [row] = await tx
      .insert(rateBudgetSlots)
      .values({
        ...key,
        countsAt: sql`now() + (${timing.inFlightMs}::int * interval '1 millisecond')`,
        calls: granted,
      })
      .returning({ id: rateBudgetSlots.id });
    return { budget, granted, ...(row ? { grantId: row.id } : {}), waitMs: 0 };
  });
}

/**
 * Applies a report (answers arrived while no slot was wanted); returns the budget known now.
 *
 * With `recountTrimMs`, also counts the window's answered calls again and raises the budget to them
 * (decision 0048), as a process does a moment after learning it. At the first refusal some calls the
 * service had accepted were still on their way back, or answered in a process that had not reported them
 * yet, so the budget learned then falls short (568 of 600 in bench:scale: a twentieth of every window
 * unused for the next 10 minutes). Every call counted here was accepted by the service and is still in
 * its window (the same trim as learning), so the count never exceeds the service's budget. The learning's
 * time stays: a raised quota is still looked for again after `relearnAfterMs`.
 */
export function reportSlots(
  db: Database,
  key: BudgetKey,
  timing: BudgetTiming,
  report: SlotReport | undefined,
  recountTrimMs?: number,
): Promise<number | null> {
  return db.transaction(async (tx) => {
    await tx.execute(lock(key));
    await applyReport(tx, key, report);
    await forgetOld(tx, key, timing);
    const { budget } = await windowState(tx, key, timing);
    if (budget === null || recountTrimMs === undefined) return budget;
    const seen = await answeredInWindow(tx, key, timing, recountTrimMs);
    if (seen <= budget) return budget;
    await tx.update(rateBudgets).set({ budget: seen }).where(ofBudget(key));
    return seen;
  });
}

/**
 * The answered calls the window holds, less its first `trimMs`: calls the service accepted and still
 * counts (a call is reported a little after the service counted it, so one reported early in the window
 * may have left the service's already; calls still in flight are not counted, they may yet be refused).
 */
async function answeredInWindow(tx: Tx, key: BudgetKey, timing: BudgetTiming, trimMs: number) {
  const answered = await tx.execute(sql`
    select coalesce(sum(calls), 0) as seen from rate_budget_slots
      where service = ${key.service} and app = ${key.app} and counts_at <= now()
        and counts_at > now() - (${Math.max(0, timing.windowMs - trimMs)}::int * interval '1 millisecond')`);
  return Number((answered as unknown as { rows: { seen: unknown }[] }).rows[0]?.seen ?? 0);
}

/**
 * The service refused a call for its rate limit. With no budget known (or an expired one) it is learned:
 * the answered calls the window holds (`answeredInWindow`), raised a moment later by `reportSlots` with a recount. A
 * refused call that was paced by the known budget lowers it (by one at least); one sent freely (before this
 * process knew of the budget another learned) leaves it. Returns the budget.
 */
export function learnBudget(
  db: Database,
  key: BudgetKey,
  timing: BudgetTiming,
  input: { paced: boolean; report?: SlotReport | undefined; trimMs: number },
): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(lock(key));
    await applyReport(tx, key, input.report);
    const { budget } = await windowState(tx, key, timing);
    const seen = Math.max(1, await answeredInWindow(tx, key, timing, input.trimMs));
    const learned = budget === null ? seen : input.paced ? Math.max(1, Math.min(budget - 1, seen)) : budget;
    if (learned !== budget || budget === null) {
      await tx
        .insert(rateBudgets)
        .values({ ...key, budget: learned, learnedAt: sql`now()` })
        .onConflictDoUpdate({
          target: [rateBudgets.service, rateBudgets.app],
          set: { budget: learned, learnedAt: sql`now()` },
        });
    }
    return learned;
  });
}
