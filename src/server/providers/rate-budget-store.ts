import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { rateBudgetSlots, rateBudgets } from '../db/schema';

/**
 * The SQL of the rate budget every process of one app shares on PostgreSQL (decision 0029). Each
 * operation is one transaction under an advisory lock of its (service, app), so two processes never both
 * take the last room of the window.
 */
export interface BudgetKey {
  service: string;
  app: string;
}

export interface BudgetTiming {
  windowMs: number;
  /** A learned budget older than this is forgotten (a raised quota is found again). */
  relearnAfterMs: number;
  /** Added to the window: a call sent by `counts_at` may reach the service a little later. */
  slackMs: number;
}

export interface TakeAnswer {
  /** The learned budget; null while none is known (then calls go freely and nothing was granted). */
  budget: number | null;
  granted: number;
  grantId?: number;
  /** With nothing granted under a known budget: how long until enough of the window has passed. */
  waitMs: number;
}

const lock = (key: BudgetKey) =>
  sql`select pg_advisory_xact_lock(hashtext(${`rate-budget:${key.service}:${key.app}`}))`;
const ofKey = (key: BudgetKey) =>
  and(eq(rateBudgetSlots.service, key.service), eq(rateBudgetSlots.app, key.app));
type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/** The budget (null when none is learned or it has expired) and the calls the window holds now. */
async function windowState(tx: Tx, key: BudgetKey, timing: BudgetTiming, trimMs = 0) {
  const result = await tx.execute(sql`
    select
      (select case when learned_at > now() - (${timing.relearnAfterMs}::int * interval '1 millisecond')
              then budget end
         from rate_budgets where service = ${key.service} and app = ${key.app}) as budget,
      (select coalesce(sum(calls), 0) from rate_budget_slots
         where service = ${key.service} and app = ${key.app}
           and counts_at > now() - (${timing.windowMs + timing.slackMs - trimMs}::int * interval '1 millisecond'))
        as used`);
  const row = (result as unknown as { rows: { budget: unknown; used: unknown }[] }).rows[0];
  return {
    budget: row?.budget === null || row?.budget === undefined ? null : Number(row.budget),
    used: Number(row?.used ?? 0),
  };
}

/** How long until `needed` calls of the window have left it. */
async function waitFor(tx: Tx, key: BudgetKey, timing: BudgetTiming, needed: number): Promise<number> {
  const result = await tx.execute(sql`
    select greatest(1, ceil(extract(epoch from (counts_at - now())) * 1000 + ${timing.windowMs + timing.slackMs}::int))
      as wait
    from (
      select counts_at, sum(calls) over (order by counts_at, id) as running
      from rate_budget_slots
      where service = ${key.service} and app = ${key.app}
        and counts_at > now() - (${timing.windowMs + timing.slackMs}::int * interval '1 millisecond')
    ) window_calls
    where running >= ${needed}::int
    order by counts_at
    limit 1`);
  const row = (result as unknown as { rows: { wait: unknown }[] }).rows[0];
  return row ? Number(row.wait) : 5;
}

/**
 * Takes up to `want` slots that may be sent until `validMs` from now (they count from then on), giving
 * back first what the last grant left unused.
 */
export function takeSlots(
  db: Database,
  key: BudgetKey,
  timing: BudgetTiming,
  request: { want: number; validMs: number; giveBack?: { grantId: number; calls: number } | undefined },
): Promise<TakeAnswer> {
  return db.transaction(async (tx) => {
    await tx.execute(lock(key));
    if (request.giveBack && request.giveBack.calls > 0) {
      await tx
        .update(rateBudgetSlots)
        .set({ calls: sql`greatest(0, ${rateBudgetSlots.calls} - ${request.giveBack.calls})` })
        .where(eq(rateBudgetSlots.id, request.giveBack.grantId));
    }
    const { budget, used } = await windowState(tx, key, timing);
    if (budget === null) return { budget, granted: 0, waitMs: 0 };
    const room = budget - used;
    if (room < 1) return { budget, granted: 0, waitMs: await waitFor(tx, key, timing, used - budget + 1) };
    const granted = Math.min(request.want, room);
    const [row] = await tx
      .insert(rateBudgetSlots)
      .values({
        ...key,
        countsAt: sql`now() + (${request.validMs}::int * interval '1 millisecond')`,
        calls: granted,
      })
      .returning({ id: rateBudgetSlots.id });
    return { budget, granted, ...(row ? { grantId: row.id } : {}), waitMs: 0 };
  });
}

/**
 * Records calls answered while no budget is known (they count from now), and says whether one is known
 * now (another process may have learned it).
 */
export function recordCalls(
  db: Database,
  key: BudgetKey,
  timing: BudgetTiming,
  calls: number,
): Promise<number | null> {
  return db.transaction(async (tx) => {
    await tx.execute(lock(key));
    if (calls > 0) await tx.insert(rateBudgetSlots).values({ ...key, countsAt: sql`now()`, calls });
    // Slots long out of every window go.
    await tx
      .delete(rateBudgetSlots)
      .where(
        and(
          ofKey(key),
          sql`${rateBudgetSlots.countsAt} < now() - (${timing.windowMs * 2}::int * interval '1 millisecond')`,
        ),
      );
    return (await windowState(tx, key, timing)).budget;
  });
}

/**
 * The service refused a call for its rate limit. With no budget known (or an expired one) it is learned:
 * the calls the window holds, less the last `trimMs` of it (calls answered just before the window began
 * may be recorded a moment later: counting them would learn too high a budget). A refused call that was
 * paced by the known budget lowers it (by one at least); one sent freely (before this process knew of
 * the budget another learned) leaves it. Returns the budget.
 */
export function learnBudget(
  db: Database,
  key: BudgetKey,
  timing: BudgetTiming,
  input: { paced: boolean; unrecordedCalls: number; trimMs: number },
): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(lock(key));
    if (input.unrecordedCalls > 0)
      await tx.insert(rateBudgetSlots).values({ ...key, countsAt: sql`now()`, calls: input.unrecordedCalls });
    const { budget, used } = await windowState(tx, key, { ...timing, slackMs: 0 }, input.trimMs);
    const seen = Math.max(1, used);
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
