import type { AccountProfile } from '../../shared/api/account';
import type { Database } from '../db/client';
import { notFound } from '../domain-errors';
import { findUserRow, listProfileConnections, savePublicProfile } from './account-store';

/** The person's profile and connected services, as /account shows them (no tokens). */
export async function loadAccountProfile(db: Database, userId: string): Promise<AccountProfile> {
  const user = await findUserRow(db, userId);
  if (!user) throw notFound('This account no longer exists.');
  const connections = await listProfileConnections(db, userId);
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
  await savePublicProfile(db, userId, publicProfile);
}
