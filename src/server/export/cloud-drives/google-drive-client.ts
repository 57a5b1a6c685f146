import { Readable } from 'node:stream';
import { auth, drive, type drive_v3 } from '@googleapis/drive';
import type { CloudDriveFile } from '../../../shared/api/export';
import {
  type CloudDriveClient,
  DRIVE_TIMEOUT_MS,
  DriveFailure,
  type DriveTokens,
  type DriveUpload,
  LIST_LIMIT,
  LIST_PAGE_SIZE,
  REFRESH_MARGIN_MS,
  type SavedDriveFile,
  type TokenListener,
} from './drive-client';

/**
 * Google Drive through Google's official clients: `google-auth-library`'s OAuth2 client (as re-exported by
 * `@googleapis/drive`) for consent, code exchange with PKCE and refresh, and `@googleapis/drive` v3 for
 * `about.get`, `files.list` and the multipart `files.create`. Only the base URLs differ between the real
 * Google and the sandbox's emulator: the OAuth client's `endpoints` and each call's `rootUrl` (the upload
 * URL is built from the call's own `rootUrl`, not the client-wide one, so it is passed per call).
 */

/** `drive.file`: Crossfade sees and changes only the files it created. */
export const GOOGLE_DRIVE_SCOPE = 'https://www.googleapis.com/auth/drive.file';
export const GOOGLE_FOLDER_NAME = 'Crossfade';
const FOLDER_MIME_TYPE = 'application/vnd.google-apps.folder';

export interface GoogleApp {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** The consent page (`…/o/oauth2/v2/auth`), as the browser reaches it. */
  authorizeUrl: string;
  tokenUrl: string;
  /** Drive's root (`https://www.googleapis.com`), below which `/drive/v3` and `/upload/drive/v3` live. */
  apiRoot: string;
}

type OAuth2Client = InstanceType<typeof auth.OAuth2>;
type AuthUrlOptions = NonNullable<Parameters<OAuth2Client['generateAuthUrl']>[0]>;

function oauthClient(app: GoogleApp): OAuth2Client {
  return new auth.OAuth2({
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    redirectUri: app.redirectUri,
    endpoints: { oauth2AuthBaseUrl: app.authorizeUrl, oauth2TokenUrl: app.tokenUrl },
    eagerRefreshThresholdMillis: REFRESH_MARGIN_MS,
  });
}

/** The consent URL and the PKCE verifier to keep (encrypted) until the callback. */
export async function googleAuthorization(
  app: GoogleApp,
  input: { state: string; extraParams?: Record<string, string> },
): Promise<{ url: string; verifier: string }> {
  const client = oauthClient(app);
  const { codeVerifier, codeChallenge } = await client.generateCodeVerifierAsync();
  if (!codeChallenge) throw new Error('google-auth-library made no PKCE challenge');
  const url = client.generateAuthUrl({
    ...input.extraParams,
    access_type: 'offline',
    // Google hands out a refresh token on the first consent only, unless asked to consent again.
    prompt: 'consent',
    scope: [GOOGLE_DRIVE_SCOPE],
    state: input.state,
    code_challenge: codeChallenge,
    code_challenge_method: 'S256' as NonNullable<AuthUrlOptions['code_challenge_method']>,
  });
  return { url, verifier: codeVerifier };
}

export async function exchangeGoogleCode(
  app: GoogleApp,
  code: string,
  verifier: string,
): Promise<DriveTokens> {
  const client = oauthClient(app);
  try {
    const { tokens } = await client.getToken({ code, codeVerifier: verifier });
    return toDriveTokens(tokens, undefined);
  } catch (error) {
    const said = (error as { response?: { data?: { error_description?: string; error?: unknown } } }).response
      ?.data;
    if (typeof said?.error === 'string') {
      throw new DriveFailure(
        'google-drive',
        'refused',
        `Google did not accept the sign-in (${said.error_description ?? said.error}). Please try connecting again.`,
      );
    }
    throw googleFailure(error, 'Google did not accept the sign-in');
  }
}

function toDriveTokens(
  tokens: {
    access_token?: string | null;
    refresh_token?: string | null;
    expiry_date?: number | null;
    scope?: string | null;
  },
  previous: DriveTokens | undefined,
): DriveTokens {
  const refreshToken = tokens.refresh_token ?? previous?.refreshToken;
  if (!tokens.access_token || !refreshToken) {
    throw new DriveFailure(
      'google-drive',
      'reconnect',
      'Google did not grant lasting access to your Drive. Please connect again.',
    );
  }
  return {
    accessToken: tokens.access_token,
    refreshToken,
    expiresAt: tokens.expiry_date ?? Date.now() + 3600_000,
    scope: tokens.scope ?? previous?.scope ?? '',
  };
}

export class GoogleDriveClient implements CloudDriveClient {
  private readonly oauth: OAuth2Client;
  private readonly api: drive_v3.Drive;
  private tokens: DriveTokens;

  constructor(
    private readonly app: GoogleApp,
    tokens: DriveTokens,
    private readonly onTokens: TokenListener,
  ) {
    this.tokens = tokens;
    this.oauth = oauthClient(app);
    this.oauth.setCredentials({
      access_token: tokens.accessToken,
      refresh_token: tokens.refreshToken,
      expiry_date: tokens.expiresAt,
      scope: tokens.scope,
    });
    this.api = drive({ version: 'v3', auth: this.oauth });
  }

  private get options() {
    return { rootUrl: this.app.apiRoot, timeout: DRIVE_TIMEOUT_MS };
  }

  async accountName(): Promise<string> {
    const { data } = await this.call(() =>
      this.api.about.get({ fields: 'user(displayName,emailAddress)' }, this.options),
    );
    const user = data.user ?? {};
    return user.emailAddress
      ? `${user.displayName ?? ''} (${user.emailAddress})`.trim()
      : (user.displayName ?? 'Google account');
  }

  async upload(file: DriveUpload): Promise<SavedDriveFile> {
    const folderId = await this.folder();
    const { data } = await this.call(() =>
      this.api.files.create(
        {
          requestBody: { name: file.fileName, parents: [folderId] as string[] },
          media: { mimeType: file.contentType, body: Readable.from([Buffer.from(file.data)]) },
          fields: 'id,name,size,createdTime,webViewLink',
        },
        this.options,
      ),
    );
    if (!data.id)
      throw new DriveFailure(
        'google-drive',
        'unavailable',
        'Google Drive did not say where it saved the file.',
      );
    return {
      id: data.id,
      name: data.name ?? file.fileName,
      sizeBytes: Number(data.size ?? file.data.length),
      createdAt: data.createdTime ?? new Date().toISOString(),
      location: `My Drive › ${GOOGLE_FOLDER_NAME}`,
      ...(data.webViewLink ? { webUrl: data.webViewLink } : {}),
    };
  }

  async listFiles(): Promise<CloudDriveFile[]> {
    const folderId = await this.folder(false);
    if (!folderId) return [];
    const files: CloudDriveFile[] = [];
    let pageToken: string | undefined;
    do {
      const token = pageToken;
      const { data } = await this.call(() =>
        this.api.files.list(
          {
            q: `'${folderId}' in parents and trashed = false`,
            fields: 'nextPageToken, files(id, name, size, createdTime, webViewLink)',
            orderBy: 'createdTime desc',
            pageSize: LIST_PAGE_SIZE,
            ...(token ? { pageToken: token } : {}),
          },
          this.options,
        ),
      );
      for (const entry of data.files ?? []) {
        if (!entry.id || !entry.name) continue;
        files.push({
          id: entry.id,
          name: entry.name,
          sizeBytes: Number(entry.size ?? 0),
          createdAt: entry.createdTime ?? '',
          ...(entry.webViewLink ? { webUrl: entry.webViewLink } : {}),
        });
      }
      pageToken = data.nextPageToken ?? undefined;
    } while (pageToken && files.length < LIST_LIMIT);
    return files.slice(0, LIST_LIMIT);
  }

  /** Crossfade's folder in My Drive; made on the first save (`drive.file` sees only folders we made). */
  private async folder(create: true): Promise<string>;
  private async folder(create?: boolean): Promise<string | undefined>;
  private async folder(create = true): Promise<string | undefined> {
    const { data } = await this.call(() =>
      this.api.files.list(
        {
          q: `name = '${GOOGLE_FOLDER_NAME}' and mimeType = '${FOLDER_MIME_TYPE}' and 'root' in parents and trashed = false`,
          fields: 'files(id)',
          orderBy: 'createdTime',
          pageSize: 1,
        },
        this.options,
      ),
    );
    const found = data.files?.[0]?.id;
    if (found || !create) return found ?? undefined;
    const made = await this.call(() =>
      this.api.files.create(
        {
          requestBody: { name: GOOGLE_FOLDER_NAME, mimeType: FOLDER_MIME_TYPE, parents: ['root'] },
          fields: 'id',
        },
        this.options,
      ),
    );
    if (!made.data.id)
      throw new DriveFailure(
        'google-drive',
        'unavailable',
        'Google Drive did not create the Crossfade folder.',
      );
    return made.data.id;
  }

  /**
   * One Drive call with the person's tokens: a 401 (a token Google no longer takes although it has not
   * expired by our clock) gets one forced refresh and one more try; the client's own refreshes are
   * stored before the answer is used.
   */
  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      try {
        return await request();
      } catch (error) {
        if (statusOf(error) !== 401) throw error;
        await this.oauth.refreshAccessToken();
        return await request();
      }
    } catch (error) {
      throw googleFailure(error, 'Google Drive refused the request');
    } finally {
      await this.storeRefreshedTokens();
    }
  }

  private async storeRefreshedTokens(): Promise<void> {
    const credentials = this.oauth.credentials;
    if (!credentials.access_token || credentials.access_token === this.tokens.accessToken) return;
    this.tokens = toDriveTokens(credentials, this.tokens);
    await this.onTokens(this.tokens);
  }
}

function statusOf(error: unknown): number | undefined {
  const response = (error as { response?: { status?: number } } | null)?.response;
  return typeof response?.status === 'number' ? response.status : undefined;
}

/** Google's answer (`{error: {message, errors: [{reason}]}}` or the token endpoint's `{error}`) as a failure. */
export function googleFailure(error: unknown, fallback: string): DriveFailure {
  if (error instanceof DriveFailure) return error;
  const status = statusOf(error);
  const data = (error as { response?: { data?: unknown } }).response?.data as
    | { error?: string | { message?: string; errors?: { reason?: string }[] }; error_description?: string }
    | undefined;
  const body = typeof data?.error === 'object' ? data.error : undefined;
  const reason = body?.errors?.[0]?.reason ?? (typeof data?.error === 'string' ? data.error : undefined);
  const said = body?.message ?? data?.error_description;
  const fail = (kind: DriveFailure['kind'], message: string) =>
    new DriveFailure('google-drive', kind, message);
  if (status === 401 || reason === 'invalid_grant' || reason === 'insufficientPermissions') {
    return fail(
      'reconnect',
      'Google Drive no longer accepts Crossfade’s access. Please connect Google Drive again.',
    );
  }
  if (reason === 'storageQuotaExceeded')
    return fail('quota', 'Your Google Drive is full. Free some space, then save again.');
  if (status === 429 || reason === 'rateLimitExceeded' || reason === 'userRateLimitExceeded') {
    return new DriveFailure(
      'google-drive',
      'rate_limited',
      'Google Drive asks us to slow down. Please try again in a minute.',
      60,
    );
  }
  if (status === undefined || status >= 500) {
    return fail('unavailable', 'Google Drive is not answering right now. Please try again in a few minutes.');
  }
  return fail('refused', `${fallback}: ${said ?? `HTTP ${status}`}`);
}
