import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Database } from '../db/client';
import { idempotencyKeys } from '../db/schema';

/**
 * The SQL of `Idempotency-Key` (idempotency.ts, decision 0023): one row per person and key, claimed by
 * the first copy of a request with an insert that only one copy can win, in every process.
 */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

export type Claim =
  /** This copy runs the request and must save or release the key. */
  | { kind: 'claimed' }
  | { kind: 'replay'; answer: StoredAnswer }
  /** The key was first used for another request (`request` names its method and path). */
  | { kind: 'mismatch'; request: string }
  /** Another copy is running it now. */
  | { kind: 'running' };

export interface ClaimRequest {
  userId: string;
  key: string;
  fingerprint: string;
  request: string;
  now: Date;
  /** How long the claim holds without being renewed (a process that died lets go after it). */
  leaseMs: number;
  /** Rows created before this are expired: as if the key had never been used. */
  expiredBefore: Date;
}

/**
 * Claims the key for this request, or says what to answer instead. Each branch that takes a row over
 * (expired, or abandoned by a dead process) is a conditional update that only one copy can win; a loser
 * looks again.
 */
export async function claimKey(db: Database, claim: ClaimRequest): Promise<Claim> {
  const leaseUntil = new Date(claim.now.getTime() + claim.leaseMs);
  const fresh = { fingerprint: claim.fingerprint, request: claim.request, leaseUntil };
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ userId: claim.userId, key: claim.key, ...fresh, createdAt: claim.now })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length > 0) return { kind: 'claimed' };

    const row = await findKey(db, claim.userId, claim.key);
    if (!row) continue; // expired and removed meanwhile: insert again
    if (row.createdAt < claim.expiredBefore) {
      const reset = { ...fresh, createdAt: claim.now, ...EMPTY_ANSWER };
      if (await takeOver(db, claim, eq(idempotencyKeys.createdAt, row.createdAt), reset))
        return { kind: 'claimed' };
      continue;
    }
    if (row.fingerprint !== claim.fingerprint) return { kind: 'mismatch', request: row.request };
    if (row.responseStatus !== null) {
      return {
        kind: 'replay',
        answer: {
          status: row.responseStatus,
          headers: row.responseHeaders ?? {},
          body: new Uint8Array(row.responseBody ?? Buffer.alloc(0)),
        },
      };
    }
    if (row.leaseUntil && row.leaseUntil > claim.now) return { kind: 'running' };
    // The copy that claimed it stopped renewing its lease (its process died): this one runs it.
    const abandoned = row.leaseUntil
      ? eq(idempotencyKeys.leaseUntil, row.leaseUntil)
      : isNull(idempotencyKeys.leaseUntil);
    if (await takeOver(db, claim, and(abandoned, isNull(idempotencyKeys.responseStatus)), { leaseUntil }))
      return { kind: 'claimed' };
  }
  return { kind: 'running' };
}

const EMPTY_ANSWER = { responseStatus: null, responseHeaders: null, responseBody: null };

async function takeOver(
  db: Database,
  claim: ClaimRequest,
  unchanged: ReturnType<typeof and>,
  set: Partial<typeof idempotencyKeys.$inferInsert>,
): Promise<boolean> {
  const taken = await db
    .update(idempotencyKeys)
    .set(set)
    .where(and(eq(idempotencyKeys.userId, claim.userId), eq(idempotencyKeys.key, claim.key), unchanged))
    .returning({ key: idempotencyKeys.key });
  return taken.length > 0;
}

async function findKey(db: Database, userId: string, key: string) {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
  return row;
}

/** Keeps a running claim alive. */
export async function renewLease(db: Database, userId: string, key: string, until: Date) {
  await db
    .update(idempotencyKeys)
    .set({ leaseUntil: until })
    .where(
      and(
        eq(idempotencyKeys.userId, userId),
        eq(idempotencyKeys.key, key),
        isNull(idempotencyKeys.responseStatus),
      ),
    );
}

/** Stores the first answer: from now on every repeat gets it. */
export async function saveAnswer(db: Database, userId: string, key: string, answer: StoredAnswer) {
  await db
    .update(idempotencyKeys)
    .set({
      responseStatus: answer.status,
      responseHeaders: answer.headers,
      responseBody: Buffer.from(answer.body),
      leaseUntil: null,
    })
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
}

/** Frees a key whose request was refused (nothing was created): it may be sent again. */
export async function releaseKey(db: Database, userId: string, key: string) {
  await db
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.userId, userId),
        eq(idempotencyKeys.key, key),
        isNull(idempotencyKeys.responseStatus),
      ),
    );
}

/** Removes the rows of keys older than `before`. */
export async function deleteExpiredKeys(db: Database, before: Date) {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, before));
}
