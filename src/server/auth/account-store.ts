import { eq, sql } from 'drizzle-orm';
import type { ServiceId } from '../../shared/services';
import type { Database } from '../db/client';
import { providerConnections, users } from '../db/schema';

/** The SQL of accounts (accounts.ts): people by username or e-mail, new accounts, connected services. */

export interface AccountRow {
  id: string;
  username: string;
  email: string;
  plan: 'free' | 'pro' | 'vault';
}

/** An account that already has this username or this e-mail address (compared without case). */
export async function findAccountTaking(
  db: Database,
  username: string,
  email: string,
): Promise<{ username: string; email: string } | undefined> {
  const [taken] = await db
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username}) or lower(${users.email}) = lower(${email})`)
    .limit(1);
  return taken;
}

/** Inserts an account; a unique violation (a race for one name) reaches the caller as thrown. */
export async function insertAccount(
  db: Database,
  account: { username: string; email: string; passwordHash: string },
): Promise<AccountRow> {
  const [row] = await db
    .insert(users)
    .values(account)
    .returning({ id: users.id, username: users.username, email: users.email, plan: users.plan });
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** The account with this username (already lower-cased), with its password hash. */
export async function findAccountByUsername(
  db: Database,
  usernameKey: string,
): Promise<(AccountRow & { passwordHash: string }) | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.username}) = ${usernameKey}`).limit(1);
  return row;
}

/** The services a person has connected, as stored. */
export async function connectedServiceRows(db: Database, userId: string): Promise<ServiceId[]> {
  const rows = await db
    .select({ service: providerConnections.service })
    .from(providerConnections)
    .where(eq(providerConnections.userId, userId));
  return rows.map((row) => row.service);
}
