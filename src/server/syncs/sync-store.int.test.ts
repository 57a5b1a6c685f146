import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateSyncRequest } from '../../shared/api/syncs';
import type { Database, DatabaseHandle } from '../db/client';
import { syncs, users } from '../db/schema';
import { DomainError } from '../domain-errors';
import { createTestDatabase } from '../testing/test-database';
import { insertSync } from './sync-store';

/**
 * One two-way sync per playlist (decision 0024) when the creates meet at the database: twelve inserts
 * at once, each on its own connection on PostgreSQL (the pool holds ten), over the same playlist. Without
 * the lock on the person's row each would see the playlist free and store its sync.
 */
let database: DatabaseHandle;
let db: Database;
let userId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  const [user] = await db
    .insert(users)
    .values({ username: 'sync-race', email: 'sync-race@example.com', passwordHash: 'x' })
    .returning({ id: users.id });
  userId = user?.id ?? '';
});
afterAll(() => database.close());

const twoWay = (sourcePlaylistId: string, destinationPlaylistId?: string): CreateSyncRequest => ({
  sourceService: 'spotify',
  sourcePlaylistId,
  destinationService: 'apple',
  ...(destinationPlaylistId ? { destinationPlaylistId } : {}),
  schedule: 'manual',
  removals: false,
  direction: 'two-way',
});

describe('storing syncs', () => {
  it('stores one of twelve two-way syncs over the same playlist created at once, and refuses the others', async () => {
    const requests = Array.from({ length: 12 }, (_, index) =>
      index % 2 === 0 ? twoWay('race-playlist') : twoWay('race-playlist', `p.apple-${index}`),
    );
    const outcomes = await Promise.allSettled(
      requests.map((request) =>
        insertSync(db, userId, request, { sourcePlaylistName: 'Race', destinationUrl: null }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const refusals = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(refusals).toHaveLength(11);
    for (const refusal of refusals) {
      expect(refusal).toBeInstanceOf(DomainError);
      expect((refusal as DomainError).message).toContain('already in a two-way sync');
    }
    const stored = await db.select().from(syncs).where(eq(syncs.userId, userId));
    expect(stored.filter((sync) => sync.sourcePlaylistId === 'race-playlist')).toHaveLength(1);
  });

  it('stores one-way syncs of the same playlist side by side', async () => {
    const oneWay = { ...twoWay('shared-source'), direction: 'one-way' as const };
    const outcomes = await Promise.allSettled(
      Array.from({ length: 4 }, () =>
        insertSync(db, userId, oneWay, { sourcePlaylistName: 'Shared', destinationUrl: null }),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
  });
});
