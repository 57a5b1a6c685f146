import { join } from 'node:path';
import { Hono } from 'hono';
import { DriveAccountClaims } from '../cloud-drives/account-claims';
import { FileSpace } from '../cloud-drives/file-space';
import { DriveGrants, type RegisteredClient } from '../cloud-drives/grants';
import { PageSessions } from '../cloud-drives/web-pages';
import { addFilesRoutes } from './files-routes';
import { addOAuthRoutes } from './oauth-routes';
import { addDropboxPages } from './pages';
import { ACCESS_TOKEN_MS, type DropboxItem } from './wire';

/**
 * The sandbox's Dropbox: its three hosts under one mount, `www` (www.dropbox.com: consent page, the
 * person's files), `api` (api.dropboxapi.com: token endpoint, RPC functions) and `content`
 * (content.dropboxapi.com: uploads). Mounted at `/sandbox/dropbox` in the app.
 */

/** The sandbox app's key; it has a secret like every Dropbox app, but Crossfade connects with PKCE alone. */
export const SANDBOX_DROPBOX_CLIENT_ID = 'crossfade-sandbox';
export const SANDBOX_DROPBOX_CLIENT_SECRET = 'crossfade-sandbox-secret';
export const DROPBOX_CALLBACK_PATH = '/api/cloud-drives/dropbox/callback';
/** The sandbox app's folder name (`/Apps/<name>` in the person's Dropbox). */
const SANDBOX_APP_FOLDER = 'Crossfade';

export interface DropboxEmulatorOptions {
  stateDir?: string | undefined;
  /** Registered apps; by default the sandbox app, redirecting to `appOrigin`'s callback. */
  clients?: RegisteredClient[];
  appOrigin?: string;
  /** The path the emulator is mounted at (the sign-in cookie's scope). */
  basePath?: string;
  /** The sandbox secret the app signs account claims with (decision 0022). */
  accountSecret: Uint8Array;
  now?: () => number;
}

export function createDropboxEmulator(options: DropboxEmulatorOptions): Hono {
  const now = options.now ?? Date.now;
  const clients = options.clients ?? [
    {
      id: SANDBOX_DROPBOX_CLIENT_ID,
      secret: SANDBOX_DROPBOX_CLIENT_SECRET,
      redirectUris: [
        `${(options.appOrigin ?? 'http://127.0.0.1:3000').replace(/\/$/, '')}${DROPBOX_CALLBACK_PATH}`,
      ],
    },
  ];
  const grants = new DriveGrants(
    options.stateDir ? join(options.stateDir, 'grants.json') : undefined,
    now,
    ACCESS_TOKEN_MS,
  );
  const space = new FileSpace<DropboxItem>(options.stateDir);
  const sessions = new PageSessions(grants, 'sandbox_dropbox_session', `${options.basePath ?? ''}/www`);
  const app = new Hono();
  addOAuthRoutes(app, {
    clients,
    grants,
    sessions,
    claims: new DriveAccountClaims(options.accountSecret, 'dropbox'),
  });
  addFilesRoutes(app, { grants, space, now });
  addDropboxPages(app, {
    space,
    sessions,
    appFolder: (clientId) => (clientId === SANDBOX_DROPBOX_CLIENT_ID ? SANDBOX_APP_FOLDER : clientId),
  });
  app.all('*', (c) => c.text('Unknown API function', 404));
  return app;
}
