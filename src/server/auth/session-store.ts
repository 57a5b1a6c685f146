import { and, eq, gt, lt } from 'drizzle-orm';
import type { SessionUser } from '../../shared/api/auth';
import type { Database } from '../db/client';
import { sessions, users } from '../db/schema';

/** The SQL of sessions (sessions.ts): rows keyed by the SHA-256 of the cookie's token. */

export async function insertSession(
  db: Database,
  session: { tokenHash: string; userId: string; expiresAt: Date },
) {
  await db.insert(sessions).values(session);
}

/** Removes a person's sessions that expired before `now`. */
export async function deleteExpiredSessionsOf(db: Database, userId: string, now: Date) {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, now)));
}

/** The person of a session that is still valid at `now`, with the session's end. */
export async function findLiveSession(
  db: Database,
  tokenHash: string,
  now: Date,
): Promise<(SessionUser & { expiresAt: Date }) | undefined> {
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      plan: users.plan,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)))
    .limit(1);
  return row;
}

export async function deleteSession(db: Database, tokenHash: string) {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}
