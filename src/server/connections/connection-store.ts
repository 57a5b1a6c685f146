import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { ServiceId } from '../../shared/services';
import type { Database } from '../db/client';
import { providerConnections } from '../db/schema';
import type { Encryptor } from '../security/encryption';

/**
 * A person's stored link to a service. Tokens never leave this module unencrypted except to the client
 * that uses them; the database only ever holds AES-256-GCM ciphertext.
 */
const spotifyTokensSchema = z.object({
  kind: z.literal('spotify'),
  accessToken: z.string(),
  refreshToken: z.string(),
  expiresAt: z.number(),
  scope: z.string(),
});
const appleTokensSchema = z.object({ kind: z.literal('apple'), musicUserToken: z.string() });
const storedTokensSchema = z.discriminatedUnion('kind', [spotifyTokensSchema, appleTokensSchema]);

export type SpotifyStoredTokens = z.infer<typeof spotifyTokensSchema>;
export type AppleStoredTokens = z.infer<typeof appleTokensSchema>;
export type StoredTokens = z.infer<typeof storedTokensSchema>;

export interface Connection<T extends StoredTokens = StoredTokens> {
  userId: string;
  service: ServiceId;
  providerUserId: string | null;
  displayName: string | null;
  region: string | null;
  authorizedAt: Date;
  tokens: T;
}

export class ConnectionStore {
  constructor(
    private readonly db: Database,
    private readonly encryptor: Encryptor,
  ) {}

  async save(
    connection: Omit<Connection, 'authorizedAt'> & { authorizedAt?: Date },
    database: Database = this.db,
  ): Promise<void> {
    const values = {
      userId: connection.userId,
      service: connection.service,
      providerUserId: connection.providerUserId,
      displayName: connection.displayName,
      region: connection.region,
      encryptedTokens: this.encryptor.encrypt(JSON.stringify(connection.tokens)),
      authorizedAt: connection.authorizedAt ?? new Date(),
      updatedAt: new Date(),
    };
    await database
      .insert(providerConnections)
      .values(values)
      .onConflictDoUpdate({ target: [providerConnections.userId, providerConnections.service], set: values });
  }

  /** Replaces only the tokens (after a refresh), keeping when the person authorized. */
  async updateTokens(userId: string, service: ServiceId, tokens: StoredTokens, database: Database = this.db) {
    await database
      .update(providerConnections)
      .set({ encryptedTokens: this.encryptor.encrypt(JSON.stringify(tokens)), updatedAt: new Date() })
      .where(and(eq(providerConnections.userId, userId), eq(providerConnections.service, service)));
  }

  async get(userId: string, service: ServiceId, options: { forUpdate?: boolean; database?: Database } = {}) {
    const query = (options.database ?? this.db)
      .select()
      .from(providerConnections)
      .where(and(eq(providerConnections.userId, userId), eq(providerConnections.service, service)));
    const [row] = await (options.forUpdate ? query.for('update') : query);
    if (!row) return null;
    let tokens: StoredTokens;
    try {
      tokens = storedTokensSchema.parse(JSON.parse(this.encryptor.decrypt(row.encryptedTokens)));
    } catch {
      // A changed encryption key makes old tokens unreadable: treat the service as not connected.
      return null;
    }
    const connection: Connection = {
      userId: row.userId,
      service: row.service,
      providerUserId: row.providerUserId,
      displayName: row.displayName,
      region: row.region,
      authorizedAt: row.authorizedAt,
      tokens,
    };
    return connection;
  }

  /** The person's country for the service, when the service did not say (two-letter, lower case). */
  async setRegion(userId: string, service: ServiceId, region: string) {
    const updated = await this.db
      .update(providerConnections)
      .set({ region, updatedAt: new Date() })
      .where(and(eq(providerConnections.userId, userId), eq(providerConnections.service, service)))
      .returning({ region: providerConnections.region });
    return updated.length > 0;
  }

  async delete(userId: string, service: ServiceId) {
    await this.db
      .delete(providerConnections)
      .where(and(eq(providerConnections.userId, userId), eq(providerConnections.service, service)));
  }
}
