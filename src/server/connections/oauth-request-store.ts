import { createHash } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { CloudDrive } from '../../shared/api/export';
import type { ServiceId } from '../../shared/services';
import type { Database } from '../db/client';
import { oauthRequests } from '../db/schema';
import type { Encryptor } from '../security/encryption';

/**
 * OAuth authorizations in flight, for the music services and the cloud drives alike: the `state` we sent
 * (kept only as a SHA-256 digest), whose it is, the PKCE verifier (encrypted) and where to send the person
 * back. Each lives ten minutes and can be taken once.
 */

const OAUTH_REQUEST_TTL_MS = 10 * 60_000;

export type OAuthRequestTarget = ServiceId | CloudDrive;

const hashState = (state: string) => createHash('sha256').update(state).digest('hex');

export class OAuthRequestStore {
  constructor(
    private readonly db: Database,
    private readonly encryptor: Encryptor,
  ) {}

  async remember(request: {
    userId: string;
    service: OAuthRequestTarget;
    state: string;
    /** Already checked to be one of our own paths. */
    returnTo: string;
    verifier?: string | undefined;
  }): Promise<void> {
    await this.db.delete(oauthRequests).where(lt(oauthRequests.expiresAt, new Date()));
    await this.db.insert(oauthRequests).values({
      stateHash: hashState(request.state),
      userId: request.userId,
      service: request.service,
      encryptedVerifier: request.verifier ? this.encryptor.encrypt(request.verifier) : null,
      returnTo: request.returnTo,
      expiresAt: new Date(Date.now() + OAUTH_REQUEST_TTL_MS),
    });
  }

  /** Single use: the row is deleted as it is read, so a replayed callback finds nothing (null). */
  async take(
    userId: string,
    service: OAuthRequestTarget,
    state: string,
  ): Promise<{ returnTo: string; verifier: string | undefined } | null> {
    const [row] = await this.db
      .delete(oauthRequests)
      .where(
        and(
          eq(oauthRequests.stateHash, hashState(state)),
          eq(oauthRequests.userId, userId),
          eq(oauthRequests.service, service),
          gt(oauthRequests.expiresAt, new Date()),
        ),
      )
      .returning();
    if (!row) return null;
    return {
      returnTo: row.returnTo,
      verifier: row.encryptedVerifier ? this.encryptor.decrypt(row.encryptedVerifier) : undefined,
    };
  }
}
