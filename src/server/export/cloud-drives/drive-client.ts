import type { CloudDrive, CloudDriveFile } from '../../../shared/api/export';

/**
 * What Save to Cloud needs from a drive, whichever it is: who the person is there, put a file, list the
 * files Crossfade put. Each drive's official client sits behind this (google-drive-client.ts,
 * dropbox-client.ts); what the services answer is turned into `DriveFailure`s with a sentence for the person.
 */

/** A person's tokens for a drive, as stored (encrypted) in cloud_drive_connections. */
export interface DriveTokens {
  accessToken: string;
  refreshToken: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  scope: string;
}

export interface DriveUpload {
  fileName: string;
  contentType: string;
  data: Uint8Array;
}

export interface SavedDriveFile {
  id: string;
  /** The name the drive gave the file (Dropbox renames `x.csv` to `x (1).csv` when it exists). */
  name: string;
  sizeBytes: number;
  createdAt: string;
  /** Where it is, in the drive's words: "My Drive › Crossfade", "Dropbox › Apps › … ". */
  location: string;
  webUrl?: string;
}

export interface CloudDriveClient {
  /** "Alex Berg (alex.berg@…)": who the tokens belong to. */
  accountName(): Promise<string>;
  upload(file: DriveUpload): Promise<SavedDriveFile>;
  /** The files Crossfade saved, newest first (at most `LIST_LIMIT`). */
  listFiles(): Promise<CloudDriveFile[]>;
}

/** The most files a listing fetches (in pages of `LIST_PAGE_SIZE`). */
export const LIST_LIMIT = 100;
export const LIST_PAGE_SIZE = 25;
/** How long one call to a drive may take. */
export const DRIVE_TIMEOUT_MS = 30_000;
/** Refresh a token this long before it expires, so it does not lapse between check and use. */
export const REFRESH_MARGIN_MS = 60_000;

export type DriveFailureKind =
  /** The tokens no longer work (revoked, expired refresh, missing permission): connect again. */
  | 'reconnect'
  /** The drive is full. */
  | 'quota'
  /** The drive asked us to slow down. */
  | 'rate_limited'
  /** Down, timing out, or answering something we cannot read. */
  | 'unavailable'
  /** The drive refused this request for a reason the person can act on; the message says it. */
  | 'refused';

export class DriveFailure extends Error {
  override readonly name = 'DriveFailure';
  constructor(
    readonly drive: CloudDrive,
    readonly kind: DriveFailureKind,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** Persists tokens the client refreshed on its own, before the call that needed them returns. */
export type TokenListener = (tokens: DriveTokens) => Promise<void>;
