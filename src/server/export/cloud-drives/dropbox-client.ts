import { Dropbox, DropboxAuth, DropboxResponseError } from 'dropbox';
import type { CloudDriveFile } from '../../../shared/api/export';
import {
  type CloudDriveClient,
  DRIVE_TIMEOUT_MS,
  DriveFailure,
  type DriveTokens,
  type DriveUpload,
  LIST_LIMIT,
  LIST_PAGE_SIZE,
  type SavedDriveFile,
  type TokenListener,
} from './drive-client';

/**
 * Dropbox through its official JavaScript SDK (`dropbox`): `DropboxAuth` for the PKCE consent URL, the
 * code exchange and refreshes, `Dropbox` for `files/upload`, `files/list_folder` (+ `/continue`) and
 * `users/get_current_account`. The SDK always builds `https://api.dropboxapi.com`-style addresses; the
 * `fetch` we give it sends each host to its configured base URL (the real hosts by default, the sandbox's
 * emulator otherwise) and refuses any other address, so tokens never go anywhere unexpected.
 *
 * PKCE without the app secret: the SDK sends either the secret or the verifier on the exchange, never
 * both, so with PKCE (which we want, with `state`) the app key alone is used, as Dropbox documents for PKCE.
 */

export const DROPBOX_SCOPES = ['account_info.read', 'files.metadata.read', 'files.content.write'];

export interface DropboxApp {
  clientId: string;
  redirectUri: string;
  /** `https://www.dropbox.com`, `https://api.dropboxapi.com`, `https://content.dropboxapi.com`. */
  wwwUrl: string;
  apiUrl: string;
  contentUrl: string;
}

/** The SDK's fixed addresses, as each configured base URL replaces them. */
function hostFetch(app: DropboxApp): typeof fetch {
  const hosts: [string, string][] = [
    ['https://api.dropboxapi.com/', app.apiUrl],
    ['https://content.dropboxapi.com/', app.contentUrl],
    ['https://dropbox.com/', app.wwwUrl],
  ];
  return (input, init) => {
    const address = String(input);
    const host = hosts.find(([prefix]) => address.startsWith(prefix));
    if (!host)
      return Promise.reject(
        new Error(`The Dropbox SDK asked for an unexpected address: ${new URL(address).origin}`),
      );
    const target = `${host[1].replace(/\/$/, '')}/${address.slice(host[0].length)}`;
    return fetch(target, { ...init, signal: AbortSignal.timeout(DRIVE_TIMEOUT_MS) });
  };
}

function sdkAuth(app: DropboxApp, tokens?: DriveTokens): DropboxAuth {
  return new DropboxAuth({
    clientId: app.clientId,
    fetch: hostFetch(app),
    ...(tokens
      ? {
          accessToken: tokens.accessToken,
          refreshToken: tokens.refreshToken,
          accessTokenExpiresAt: new Date(tokens.expiresAt),
        }
      : {}),
  });
}

export async function dropboxAuthorization(
  app: DropboxApp,
  input: { state: string; extraParams?: Record<string, string> },
): Promise<{ url: string; verifier: string }> {
  const auth = sdkAuth(app);
  const address = String(
    await auth.getAuthenticationUrl(
      app.redirectUri,
      input.state,
      'code',
      'offline',
      DROPBOX_SCOPES,
      'none',
      true,
    ),
  );
  // The SDK writes its `https://dropbox.com/oauth2/authorize`; people consent on the configured www host.
  const url = new URL(`${app.wwwUrl.replace(/\/$/, '')}/oauth2/authorize${new URL(address).search}`);
  for (const [key, value] of Object.entries(input.extraParams ?? {})) url.searchParams.set(key, value);
  return { url: url.toString(), verifier: auth.getCodeVerifier() };
}

export async function exchangeDropboxCode(
  app: DropboxApp,
  code: string,
  verifier: string,
): Promise<DriveTokens> {
  const auth = sdkAuth(app);
  auth.setCodeVerifier(verifier);
  try {
    const { result } = (await auth.getAccessTokenFromCode(app.redirectUri, code)) as {
      result: { access_token?: string; refresh_token?: string; expires_in?: number; scope?: string };
    };
    if (!result.access_token || !result.refresh_token) {
      throw new DriveFailure(
        'dropbox',
        'reconnect',
        'Dropbox did not grant lasting access. Please connect again.',
      );
    }
    return {
      accessToken: result.access_token,
      refreshToken: result.refresh_token,
      expiresAt: Date.now() + (result.expires_in ?? 14_400) * 1000,
      scope: result.scope ?? DROPBOX_SCOPES.join(' '),
    };
  } catch (error) {
    const said =
      error instanceof DropboxResponseError
        ? (error.error as { error?: unknown; error_description?: string })
        : undefined;
    if (typeof said?.error === 'string') {
      throw new DriveFailure(
        'dropbox',
        'refused',
        `Dropbox did not accept the sign-in (${said.error_description ?? said.error}). Please try connecting again.`,
      );
    }
    throw dropboxFailure(error);
  }
}

export class DropboxClient implements CloudDriveClient {
  private readonly auth: DropboxAuth;
  private readonly api: Dropbox;

  constructor(
    app: DropboxApp,
    private tokens: DriveTokens,
    private readonly onTokens: TokenListener,
  ) {
    this.auth = sdkAuth(app, tokens);
    this.api = new Dropbox({ auth: this.auth });
  }

  async accountName(): Promise<string> {
    const { result } = await this.call(() => this.api.usersGetCurrentAccount());
    return `${result.name.display_name} (${result.email})`;
  }

  async upload(file: DriveUpload): Promise<SavedDriveFile> {
    const { result } = await this.call(() =>
      this.api.filesUpload({
        path: `/${file.fileName}`,
        contents: Buffer.from(file.data),
        mode: { '.tag': 'add' },
        autorename: true,
      }),
    );
    return {
      id: result.id,
      name: result.name,
      sizeBytes: result.size,
      createdAt: result.server_modified,
      location: `Dropbox app folder › ${(result.path_display ?? result.name).replace(/^\//, '')}`,
    };
  }

  async listFiles(): Promise<CloudDriveFile[]> {
    const files: CloudDriveFile[] = [];
    let page = await this.call(() => this.api.filesListFolder({ path: '', limit: LIST_PAGE_SIZE }));
    for (;;) {
      for (const entry of page.result.entries) {
        if (entry['.tag'] !== 'file') continue;
        files.push({
          id: entry.id,
          name: entry.name,
          sizeBytes: entry.size,
          createdAt: entry.server_modified,
        });
      }
      const { cursor, has_more: more } = page.result;
      if (!more || files.length >= LIST_LIMIT) break;
      page = await this.call(() => this.api.filesListFolderContinue({ cursor }));
    }
    return files.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, LIST_LIMIT);
  }

  /**
   * One Dropbox call: the SDK refreshes a token that is about to expire by itself; one Dropbox says is
   * expired anyway gets one refresh and one more try. New tokens are stored before the answer is used.
   */
  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      try {
        return await request();
      } catch (error) {
        if (
          !(error instanceof DropboxResponseError) ||
          error.status !== 401 ||
          authTag(error) !== 'expired_access_token'
        )
          throw error;
        await this.auth.refreshAccessToken();
        return await request();
      }
    } catch (error) {
      throw dropboxFailure(error);
    } finally {
      await this.storeRefreshedTokens();
    }
  }

  private async storeRefreshedTokens(): Promise<void> {
    const accessToken = this.auth.getAccessToken();
    if (!accessToken || accessToken === this.tokens.accessToken) return;
    this.tokens = { ...this.tokens, accessToken, expiresAt: this.auth.getAccessTokenExpiresAt().getTime() };
    await this.onTokens(this.tokens);
  }
}

function authTag(error: DropboxResponseError<unknown>): string | undefined {
  const body = error.error as { error?: { '.tag'?: string } } | undefined;
  return body?.error?.['.tag'];
}

/** Dropbox's answer as a failure: 401s by their tag, 409 route errors by their `error_summary`. */
export function dropboxFailure(error: unknown): DriveFailure {
  if (error instanceof DriveFailure) return error;
  const fail = (kind: DriveFailure['kind'], message: string) => new DriveFailure('dropbox', kind, message);
  if (!(error instanceof DropboxResponseError)) {
    return fail('unavailable', 'Dropbox is not answering right now. Please try again in a few minutes.');
  }
  const body = error.error as
    | { error_summary?: string; error?: string; error_description?: string }
    | string
    | undefined;
  const summary = typeof body === 'object' ? (body.error_summary ?? '') : '';
  if (error.status === 401 || (typeof body === 'object' && body.error === 'invalid_grant')) {
    return fail('reconnect', 'Dropbox no longer accepts Crossfade’s access. Please connect Dropbox again.');
  }
  if (summary.includes('insufficient_space'))
    return fail('quota', 'Your Dropbox is full. Free some space, then save again.');
  if (error.status === 429) {
    return new DriveFailure(
      'dropbox',
      'rate_limited',
      'Dropbox asks us to slow down. Please try again in a minute.',
      60,
    );
  }
  if (error.status >= 500)
    return fail('unavailable', 'Dropbox is not answering right now. Please try again in a few minutes.');
  const said =
    summary.replace(/\/\.*$/, '') ||
    (typeof body === 'object' ? body.error_description : undefined) ||
    (typeof body === 'string' ? body : `HTTP ${error.status}`);
  return fail('refused', `Dropbox refused the request: ${said}`);
}
