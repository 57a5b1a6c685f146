import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { CloudDrive } from '../../../shared/api/export';
import type { Database } from '../../db/client';
import { cloudDriveConnections } from '../../db/schema';
import type { Encryptor } from '../../security/encryption';
import type { DriveTokens } from './drive-client';

/**
 * People's connections to their cloud drives. Tokens are stored only as AES-256-GCM ciphertext made by the
 * app's one `Encryptor`, as the music services' are (connections/connection-store.ts); a row whose tokens
 * no longer decrypt (a changed key) reads as not connected.
 */
const tokensSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  expiresAt: z.number(),
  scope: z.string(),
});

export interface CloudDriveConnection {
  drive: CloudDrive;
  accountName: string | null;
  authorizedAt: Date;
  tokens: DriveTokens;
}

export class CloudDriveStore {
  constructor(
    private readonly db: Database,
    private readonly encryptor: Encryptor,
  ) {}

  async save(
    userId: string,
    drive: CloudDrive,
    accountName: string | null,
    tokens: DriveTokens,
  ): Promise<void> {
    const values = {
      userId,
      drive,
      accountName,
      encryptedTokens: this.encryptor.encrypt(JSON.stringify(tokens)),
      authorizedAt: new Date(),
      updatedAt: new Date(),
    };
    await this.db
      .insert(cloudDriveConnections)
      .values(values)
      .onConflictDoUpdate({
        target: [cloudDriveConnections.userId, cloudDriveConnections.drive],
        set: values,
      });
  }

  /** Replaces only the tokens after a refresh, keeping when the person authorized. */
  async updateTokens(userId: string, drive: CloudDrive, tokens: DriveTokens): Promise<void> {
    await this.db
      .update(cloudDriveConnections)
      .set({ encryptedTokens: this.encryptor.encrypt(JSON.stringify(tokens)), updatedAt: new Date() })
      .where(and(eq(cloudDriveConnections.userId, userId), eq(cloudDriveConnections.drive, drive)));
  }

  async list(userId: string): Promise<CloudDriveConnection[]> {
    const rows = await this.db
      .select()
      .from(cloudDriveConnections)
      .where(eq(cloudDriveConnections.userId, userId));
    return rows.flatMap((row) => {
      const tokens = this.readTokens(row.encryptedTokens);
      return tokens
        ? [{ drive: row.drive, accountName: row.accountName, authorizedAt: row.authorizedAt, tokens }]
        : [];
    });
  }

  async get(userId: string, drive: CloudDrive): Promise<CloudDriveConnection | null> {
    return (await this.list(userId)).find((connection) => connection.drive === drive) ?? null;
  }

  async delete(userId: string, drive: CloudDrive): Promise<void> {
    await this.db
      .delete(cloudDriveConnections)
      .where(and(eq(cloudDriveConnections.userId, userId), eq(cloudDriveConnections.drive, drive)));
  }

  private readTokens(sealed: string): DriveTokens | null {
    try {
      return tokensSchema.parse(JSON.parse(this.encryptor.decrypt(sealed)));
    } catch {
      return null;
    }
  }
}
