import { eq } from 'drizzle-orm';
import { forgetUsername } from '../auth/login-throttle';
import type { Database } from '../db/client';
import { readCacheOf } from '../db/read-cache';
import { users } from '../db/schema';
import { badRequest, notFound } from '../domain-errors';

/**
 * Deletes an account. Every table holding a person's rows references `users` with ON DELETE CASCADE
 * (schema.ts), so removing the user row removes the rest; failed sign-ins are keyed by the username
 * rather than the user, so its count goes explicitly. The typed username guards against a stray click.
 */
export async function deleteAccount(db: Database, userId: string, confirmUsername: string): Promise<void> {
  const [user] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound('This account no longer exists.');
  if (user.username.toLowerCase() !== confirmUsername.trim().toLowerCase()) {
    throw badRequest('The username you typed does not match your account.');
  }
  await db.transaction(async (tx) => {
    await forgetUsername(tx, user.username.toLowerCase());
    await tx.delete(users).where(eq(users.id, userId));
  });
  // Its sessions went with it: no cached answer may still sign it in.
  readCacheOf(db)?.clear();
}
