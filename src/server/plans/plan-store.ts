import { and, asc, eq, gt, ne, type SQL, sql } from 'drizzle-orm';
import type { Plan } from '../../shared/api/auth';
import type { Database } from '../db/client';
import { transfers, users } from '../db/schema';

/** The SQL of plans: a person's plan on their row, and the transfers their month counts. */

/** Start times of the transfers that count in the window since `since` (failed ones never count), oldest first. */
export async function countedTransferTimes(
  db: Database,
  userId: string,
  since: Date,
  except?: SQL,
): Promise<{ createdAt: Date }[]> {
  return db
    .select({ createdAt: transfers.createdAt })
    .from(transfers)
    .where(
      and(
        eq(transfers.userId, userId),
        ne(transfers.status, 'failed'),
        gt(transfers.createdAt, since),
        except,
      ),
    )
    .orderBy(asc(transfers.createdAt));
}

/** Leaves one transfer (the failed one being retried) out of the count. */
export const exceptTransfer = (transferId: string): SQL => ne(transfers.id, transferId);

/**
 * Locks the person's row for the rest of the transaction and answers their plan (`SELECT … FOR NO KEY
 * UPDATE`: it excludes the same lock, not the key-share locks other tables' inserts take on the user).
 */
export async function lockUserPlan(tx: Database, userId: string): Promise<Plan | undefined> {
  const [locked] = await tx
    .select({ plan: users.plan })
    .from(users)
    .where(eq(users.id, userId))
    .for('no key update');
  return locked?.plan;
}

export async function setUserPlan(tx: Database, userId: string, plan: Plan): Promise<void> {
  await tx.update(users).set({ plan }).where(eq(users.id, userId));
}

/** The person of a username, matched without regard to case, with their plan. */
export async function findUserByUsername(
  db: Database,
  username: string,
): Promise<{ id: string; username: string; email: string; plan: Plan } | undefined> {
  const [row] = await db
    .select({ id: users.id, username: users.username, email: users.email, plan: users.plan })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`);
  return row;
}

export async function findUserById(
  db: Database,
  userId: string,
): Promise<{ id: string; username: string; email: string; plan: Plan } | undefined> {
  const [row] = await db
    .select({ id: users.id, username: users.username, email: users.email, plan: users.plan })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}
