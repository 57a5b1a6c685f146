import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backupPlaylists,
  backups,
  billingAccounts,
  billingEvents,
  planChanges,
  syncs,
  users,
} from '../db/schema';
import { backupTrack, saveTestBackup } from '../testing/backups';
import { startTestServer, type TestServer } from '../testing/test-server';
import { settleDueDeadlines } from './billing-deadlines';

/**
 * The billing schedule on real time (no test clock): a grace period that ended moves the person to Free,
 * backups kept after Vault+ are deleted once their 30 days are up, old event ids are forgotten.
 */
let server: TestServer;
let counter = 0;
const DAY_MS = 24 * 60 * 60_000;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function person(plan: 'free' | 'pro' | 'vault') {
  const username = `deadline${Date.now().toString(36)}${counter++}`;
  const [user] = await server.deps.db
    .insert(users)
    .values({ username, email: `${username}@example.com`, passwordHash: 'x', plan })
    .returning({ id: users.id });
  if (!user) throw new Error('no user');
  return user.id;
}

describe('settleDueDeadlines', () => {
  it('moves a person whose grace period ended to Free, once, and leaves one still in grace alone', async () => {
    const ended = await person('pro');
    const inGrace = await person('pro');
    await server.deps.db.insert(syncs).values({
      userId: ended,
      sourceService: 'spotify',
      sourcePlaylistId: 'p1',
      destinationService: 'apple',
      schedule: 'daily',
    });
    const failing = (userId: string, graceEndsAt: Date) => ({
      userId,
      customerId: `cus_${userId.slice(0, 8)}`,
      subscriptionId: `sub_${userId.slice(0, 8)}`,
      subscriptionPlan: 'pro' as const,
      subscriptionStatus: 'past_due',
      paymentFailedAt: new Date(graceEndsAt.getTime() - 7 * DAY_MS),
      graceEndsAt,
    });
    await server.deps.db
      .insert(billingAccounts)
      .values([
        failing(ended, new Date(Date.now() - 60_000)),
        failing(inGrace, new Date(Date.now() + DAY_MS)),
      ]);
    expect(await settleDueDeadlines(server.deps)).toBeGreaterThanOrEqual(1);
    const plans = await server.deps.db.select({ id: users.id, plan: users.plan }).from(users);
    expect(plans.find((row) => row.id === ended)?.plan).toBe('free');
    expect(plans.find((row) => row.id === inGrace)?.plan).toBe('pro');
    const [change] = await server.deps.db.select().from(planChanges).where(eq(planChanges.userId, ended));
    expect(change).toMatchObject({ fromPlan: 'pro', toPlan: 'free', reason: 'grace_ended', syncsPaused: 1 });
    await settleDueDeadlines(server.deps);
    expect(await server.deps.db.select().from(planChanges).where(eq(planChanges.userId, ended))).toHaveLength(
      1,
    );
  });

  it('deletes backups whose 30 days after Vault+ are up, and keeps them for someone back on Vault+', async () => {
    const left = await person('free');
    const back = await person('vault');
    for (const userId of [left, back]) {
      await saveTestBackup(server.deps.db, userId, {
        playlists: [{ id: `kept-${userId}`, name: 'Kept', tracks: [backupTrack('t1'), backupTrack('t2')] }],
      });
      await server.deps.db
        .insert(billingAccounts)
        .values({ userId, backupsKeptUntil: new Date(Date.now() - 1000) });
    }
    await settleDueDeadlines(server.deps);
    const count = async (userId: string) =>
      (await server.deps.db.select().from(backups).where(eq(backups.userId, userId))).length;
    const links = async (userId: string) =>
      (
        await server.deps.db
          .select()
          .from(backupPlaylists)
          .innerJoin(backups, eq(backups.id, backupPlaylists.backupId))
          .where(eq(backups.userId, userId))
      ).length;
    expect(await count(left)).toBe(0);
    expect(await links(left)).toBe(0);
    expect(await count(back)).toBe(1);
    expect(await links(back)).toBe(1);
  });

  it('forgets event ids older than 30 days', async () => {
    await server.deps.db.insert(billingEvents).values([
      { id: 'evt_old', type: 'invoice.paid', receivedAt: new Date(Date.now() - 31 * DAY_MS) },
      { id: 'evt_recent', type: 'invoice.paid', receivedAt: new Date(Date.now() - 2 * DAY_MS) },
    ]);
    await settleDueDeadlines(server.deps);
    const ids = (await server.deps.db.select({ id: billingEvents.id }).from(billingEvents)).map(
      (row) => row.id,
    );
    expect(ids).toContain('evt_recent');
    expect(ids).not.toContain('evt_old');
  });
});
