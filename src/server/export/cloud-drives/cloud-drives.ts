import { randomBytes } from 'node:crypto';
import { DROPBOX_CALLBACK_PATH, SANDBOX_DROPBOX_CLIENT_ID } from '../../../sandbox/dropbox/index';
import {
  GOOGLE_DRIVE_CALLBACK_PATH,
  SANDBOX_GOOGLE_CLIENT_ID,
  SANDBOX_GOOGLE_CLIENT_SECRET,
} from '../../../sandbox/google-drive/index';
import type { SessionUser } from '../../../shared/api/auth';
import {
  CLOUD_DRIVES,
  CLOUD_TARGET_LABELS,
  type CloudDrive,
  type CloudDriveFile,
  type CloudDriveStatus,
  type CloudSave,
} from '../../../shared/api/export';
import type { AppDeps } from '../../app-context';
import { ConnectionFailed, safeReturnPath } from '../../connections/provider-runtime';
import { badRequest, conflict, DomainError, rateLimited, unavailable } from '../../domain-errors';
import { assertVault } from '../../plans/plan-limits';
import type { ExportFile } from '../export-files';
import { CloudDriveStore } from './cloud-drive-store';
import { type CloudDriveClient, DriveFailure, type DriveTokens } from './drive-client';
import { type DropboxApp, DropboxClient, dropboxAuthorization, exchangeDropboxCode } from './dropbox-client';
import {
  exchangeGoogleCode,
  type GoogleApp,
  GoogleDriveClient,
  googleAuthorization,
} from './google-drive-client';

/**
 * Save to Cloud on the person's own Google Drive or Dropbox (decision 0027): connecting (OAuth with
 * `state` and PKCE, one connection per person and drive, Vault+ only), saving an export file, listing what
 * Crossfade saved there, disconnecting. With no credentials for a drive, its sandbox emulator stands in,
 * reached over loopback by the server and at PUBLIC_URL by the browser, as for the music services.
 */

export const CLOUD_SAVE_FEATURE = 'Save to Cloud';

interface DriveSetup {
  sandbox: boolean;
  /** The drive's page where people see their files. */
  webUrl: string;
  google?: GoogleApp;
  dropbox?: DropboxApp;
}

export class CloudDrives {
  readonly store: CloudDriveStore;

  constructor(private readonly deps: AppDeps) {
    this.store = new CloudDriveStore(deps.db, deps.encryptor);
  }

  /** Where each drive lives for this server: the real service, or the sandbox's emulator. */
  setup(drive: CloudDrive): DriveSetup {
    const { config } = this.deps;
    const standalone = config.SANDBOX_URL?.replace(/\/$/, '');
    const internal = `${standalone ?? this.deps.providers.internalOrigin}/sandbox/${drive}`;
    const browser = `${standalone ?? config.publicUrl}/sandbox/${drive}`;
    if (drive === 'google-drive') {
      const sandbox = config.sandbox.googleDrive;
      return {
        sandbox,
        webUrl: sandbox ? `${browser}/drive/my-drive` : 'https://drive.google.com/drive/my-drive',
        google: {
          clientId: sandbox ? SANDBOX_GOOGLE_CLIENT_ID : (config.GOOGLE_CLIENT_ID ?? ''),
          clientSecret: sandbox ? SANDBOX_GOOGLE_CLIENT_SECRET : (config.GOOGLE_CLIENT_SECRET ?? ''),
          redirectUri: `${config.publicUrl}${GOOGLE_DRIVE_CALLBACK_PATH}`,
          authorizeUrl: `${sandbox ? browser : config.GOOGLE_ACCOUNTS_URL.replace(/\/$/, '')}/o/oauth2/v2/auth`,
          tokenUrl: sandbox ? `${internal}/token` : config.GOOGLE_TOKEN_URL,
          apiRoot: sandbox ? internal : config.GOOGLE_DRIVE_API_URL.replace(/\/$/, ''),
        },
      };
    }
    const sandbox = config.sandbox.dropbox;
    const wwwUrl = sandbox ? `${browser}/www` : config.DROPBOX_WWW_URL.replace(/\/$/, '');
    return {
      sandbox,
      webUrl: `${wwwUrl}/home`,
      dropbox: {
        clientId: sandbox ? SANDBOX_DROPBOX_CLIENT_ID : (config.DROPBOX_CLIENT_ID ?? ''),
        redirectUri: `${config.publicUrl}${DROPBOX_CALLBACK_PATH}`,
        wwwUrl,
        apiUrl: sandbox ? `${internal}/api` : config.DROPBOX_API_URL,
        contentUrl: sandbox ? `${internal}/content` : config.DROPBOX_CONTENT_URL,
      },
    };
  }

  async status(userId: string): Promise<CloudDriveStatus[]> {
    const connections = await this.store.list(userId);
    return CLOUD_DRIVES.map((drive) => {
      const connection = connections.find((candidate) => candidate.drive === drive);
      const { sandbox, webUrl } = this.setup(drive);
      return {
        drive,
        connected: Boolean(connection),
        ...(connection?.accountName ? { accountName: connection.accountName } : {}),
        sandbox,
        webUrl,
      };
    });
  }

  /** The consent page to send the browser to; the request waits (10 minutes) in oauth_requests. */
  async startConnect(user: SessionUser, drive: CloudDrive, returnTo: string): Promise<string> {
    assertVault(user.plan, CLOUD_SAVE_FEATURE);
    const setup = this.setup(drive);
    const state = randomBytes(24).toString('base64url');
    const authorization = setup.google
      ? await googleAuthorization(setup.google, { state })
      : await dropboxAuthorization(this.dropboxApp(setup), { state });
    const { verifier } = authorization;
    // In sandbox mode the emulator signs the person in to their own sandbox account, named by a claim the
    // app signs and binds to this sign-in, as for the music services (decision 0022).
    const url = setup.sandbox
      ? (await this.deps.providers.addSandboxClaim(new URL(authorization.url), user.id, drive)).toString()
      : authorization.url;
    await this.deps.providers.oauthRequests.remember({
      userId: user.id,
      service: drive,
      state,
      returnTo: safeReturnPath(returnTo),
      verifier,
    });
    return url;
  }

  /** The consent page's redirect back: checks `state`, exchanges the code with the PKCE verifier, stores. */
  async finishConnect(userId: string, drive: CloudDrive, callback: URL): Promise<string> {
    const label = CLOUD_TARGET_LABELS[drive];
    const pending = await this.deps.providers.oauthRequests.take(
      userId,
      drive,
      callback.searchParams.get('state') ?? '',
    );
    if (!pending?.verifier) {
      throw badRequest(
        `This ${label} sign-in link is unknown, expired or was already used. Please try connecting again.`,
      );
    }
    try {
      if (callback.searchParams.get('error')) {
        throw badRequest(`The ${label} connection was cancelled, so nothing was connected.`);
      }
      const code = callback.searchParams.get('code') ?? '';
      const setup = this.setup(drive);
      const tokens = setup.google
        ? await exchangeGoogleCode(setup.google, code, pending.verifier)
        : await exchangeDropboxCode(this.dropboxApp(setup), code, pending.verifier);
      const client = this.clientFor(userId, drive, tokens);
      const accountName = await client.accountName();
      await this.store.save(userId, drive, accountName, tokens);
    } catch (error) {
      const message =
        error instanceof DomainError || error instanceof DriveFailure
          ? error.message
          : `Failed to connect to ${label}`;
      throw new ConnectionFailed(message, pending.returnTo, error);
    }
    return pending.returnTo;
  }

  disconnect(userId: string, drive: CloudDrive): Promise<void> {
    return this.store.delete(userId, drive);
  }

  /** Uploads an export file; the answer says where it went. */
  async save(user: SessionUser, drive: CloudDrive, file: ExportFile): Promise<CloudSave> {
    const client = await this.connectedClient(user, drive);
    const saved = await this.translate(user.id, drive, () =>
      client.upload({ fileName: file.fileName, contentType: file.contentType, data: file.data }),
    );
    return {
      target: drive,
      id: saved.id,
      format: file.format,
      fileName: saved.name,
      sizeBytes: saved.sizeBytes,
      playlistName: file.playlistName,
      createdAt: saved.createdAt,
      location: saved.location,
      webUrl: saved.webUrl ?? this.setup(drive).webUrl,
    };
  }

  async files(user: SessionUser, drive: CloudDrive): Promise<CloudDriveFile[]> {
    const client = await this.connectedClient(user, drive);
    return this.translate(user.id, drive, () => client.listFiles());
  }

  private async connectedClient(user: SessionUser, drive: CloudDrive): Promise<CloudDriveClient> {
    assertVault(user.plan, CLOUD_SAVE_FEATURE);
    const connection = await this.store.get(user.id, drive);
    if (!connection) {
      throw conflict(
        `Connect ${CLOUD_TARGET_LABELS[drive]} first (Save to Cloud → Connect ${CLOUD_TARGET_LABELS[drive]}).`,
      );
    }
    return this.clientFor(user.id, drive, connection.tokens);
  }

  private clientFor(userId: string, drive: CloudDrive, tokens: DriveTokens): CloudDriveClient {
    const setup = this.setup(drive);
    const onTokens = (fresh: DriveTokens) => this.store.updateTokens(userId, drive, fresh);
    return setup.google
      ? new GoogleDriveClient(setup.google, tokens, onTokens)
      : new DropboxClient(this.dropboxApp(setup), tokens, onTokens);
  }

  private dropboxApp(setup: DriveSetup): DropboxApp {
    if (!setup.dropbox) throw new Error('not a Dropbox setup');
    return setup.dropbox;
  }

  /** A drive's refusal as the person's next step; access the drive no longer accepts is dropped. */
  private async translate<T>(userId: string, drive: CloudDrive, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof DriveFailure)) throw error;
      switch (error.kind) {
        case 'reconnect':
          await this.store.delete(userId, drive);
          throw conflict(error.message);
        case 'rate_limited':
          throw rateLimited(error.message, error.retryAfterSeconds ?? 60);
        case 'unavailable':
          throw unavailable(error.message);
        default:
          throw conflict(error.message);
      }
    }
  }
}
