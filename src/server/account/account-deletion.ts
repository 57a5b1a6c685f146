import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { loginFailures, users } from '../db/schema';
import { badRequest, notFound } from '../http/errors';

/**
 * Deletes an account. Every table holding a person's rows references `users` with ON DELETE CASCADE
 * (schema.ts), so removing the user row removes the rest; failed sign-ins are keyed by the username
 * rather than the user, so they go explicitly. The typed username guards against a stray click.
 */
export async function deleteAccount(db: Database, userId: string, confirmUsername: string): Promise<void> {
  const [user] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound('This account no longer exists.');
  if (user.username.toLowerCase() !== confirmUsername.trim().toLowerCase()) {
    throw badRequest('The username you typed does not match your account.');
  }
  await db.transaction(async (tx) => {
    await tx.delete(loginFailures).where(eq(loginFailures.usernameKey, user.username.toLowerCase()));
    await tx.delete(users).where(eq(users.id, userId));
  });
}
