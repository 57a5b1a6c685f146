import { createHash, randomBytes } from 'node:crypto';
import type { SessionUser } from '../../shared/api/auth';
import type { Database } from '../db/client';
import { readCacheOf } from '../db/read-cache';
import { deleteExpiredSessionsOf, deleteSession, findLiveSession, insertSession } from './session-store';

/**
 * Server-side sessions behind an opaque random cookie token. Only the token's SHA-256 is stored, a new
 * token is issued at every sign-in, and deleting the row revokes it at once.
 */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createSession(db: Database, userId: string, ttlDays: number) {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ttlDays * 24 * 60 * 60 * 1000);
  await insertSession(db, { tokenHash: hashToken(token), userId, expiresAt });
  // Expired sessions of this person are useless; clearing them here keeps the table small without a sweeper.
  await deleteExpiredSessionsOf(db, userId, new Date());
  return { token, expiresAt };
}

export async function findSessionUser(db: Database, token: string): Promise<SessionUser | null> {
  const tokenHash = hashToken(token);
  // Answers of the last moments are reused (read-cache.ts says how they stay fresh).
  const cache = readCacheOf(db);
  const cached = cache?.session(tokenHash);
  if (cached) return { ...cached };
  const readAt = cache?.generation ?? 0;
  const row = await findLiveSession(db, tokenHash, new Date());
  if (!row) return null;
  const { expiresAt, ...user } = row;
  cache?.storeSession(tokenHash, user, expiresAt, readAt);
  return { ...user };
}

export async function revokeSession(db: Database, token: string) {
  await deleteSession(db, hashToken(token));
  // Also cleared when the statement was issued; again now that it is done, for reads that raced it.
  readCacheOf(db)?.clear();
}
