import type { AppDeps } from '../app-context';
import { forgetUsername } from '../auth/login-throttle';
import { cancelBilling } from '../billing/checkout';
import { readCacheOf } from '../db/read-cache';
import { badRequest, notFound } from '../domain-errors';
import { deleteUserRow, findUsername } from './account-store';

/**
 * Deletes an account. Every table holding a person's rows references `users` with ON DELETE CASCADE
 * (schema.ts), so removing the user row removes the rest; failed sign-ins are keyed by the username
 * rather than the user, so its count goes explicitly. The typed username guards against a stray click.
 * A subscription is canceled at Stripe first: a deleted account is never charged again.
 */
export async function deleteAccount(deps: AppDeps, userId: string, confirmUsername: string): Promise<void> {
  const username = await findUsername(deps.db, userId);
  if (!username) throw notFound('This account no longer exists.');
  if (username.toLowerCase() !== confirmUsername.trim().toLowerCase()) {
    throw badRequest('The username you typed does not match your account.');
  }
  await cancelBilling(deps, userId);
  await deps.db.transaction(async (tx) => {
    await forgetUsername(tx, username.toLowerCase());
    await deleteUserRow(tx, userId);
  });
  // Its sessions went with it: no cached answer may still sign it in.
  readCacheOf(deps.db)?.clear();
}
