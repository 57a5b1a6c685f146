import { asc, eq } from 'drizzle-orm';
import type { AccountProfile } from '../../shared/api/account';
import type { Database } from '../db/client';
import { providerConnections, users } from '../db/schema';
import { notFound } from '../domain-errors';

/** The person's profile and connected services, as /account shows them (no tokens). */
export async function loadAccountProfile(db: Database, userId: string): Promise<AccountProfile> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw notFound('This account no longer exists.');
  const connections = await db
    .select({
      service: providerConnections.service,
      displayName: providerConnections.displayName,
      region: providerConnections.region,
      authorizedAt: providerConnections.authorizedAt,
    })
    .from(providerConnections)
    .where(eq(providerConnections.userId, userId))
    .orderBy(asc(providerConnections.service));
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    plan: user.plan,
    publicProfile: user.publicProfile,
    createdAt: user.createdAt.toISOString(),
    connections: connections.map((connection) => ({
      ...connection,
      authorizedAt: connection.authorizedAt.toISOString(),
    })),
  };
}

export async function setPublicProfile(db: Database, userId: string, publicProfile: boolean) {
  await db.update(users).set({ publicProfile }).where(eq(users.id, userId));
}
