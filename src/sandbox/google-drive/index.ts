import { join } from 'node:path';
import { Hono } from 'hono';
import { DriveAccountClaims } from '../cloud-drives/account-claims';
import { FileSpace } from '../cloud-drives/file-space';
import { DriveGrants, type RegisteredClient } from '../cloud-drives/grants';
import { PageSessions } from '../cloud-drives/web-pages';
import { addDriveRoutes } from './drive-routes';
import { addOAuthRoutes } from './oauth-routes';
import { addDrivePages } from './pages';
import { ACCESS_TOKEN_MS, type DriveItem } from './wire';

export { DRIVE_FILE_SCOPE } from './wire';

/**
 * The sandbox's Google: accounts.google.com's consent page and oauth2.googleapis.com's token endpoint,
 * www.googleapis.com's Drive v3 (`/drive/v3`, `/upload/drive/v3`), and drive.google.com's pages for the
 * person signed in at consent, all under one mount (`/sandbox/google-drive` in the app).
 */

/** The sandbox's registered OAuth client. Not secret: the emulator is offline and its files are test data. */
export const SANDBOX_GOOGLE_CLIENT_ID = 'crossfade-sandbox.apps.googleusercontent.com';
export const SANDBOX_GOOGLE_CLIENT_SECRET = 'crossfade-sandbox-secret';
export const GOOGLE_DRIVE_CALLBACK_PATH = '/api/cloud-drives/google-drive/callback';

export interface GoogleDriveEmulatorOptions {
  /** Folder for the emulator's state; in memory without it. */
  stateDir?: string | undefined;
  /** Registered clients; by default the sandbox client, redirecting to `appOrigin`'s callback. */
  clients?: RegisteredClient[];
  /** Crossfade's origin, for the sandbox client's one registered redirect URI. */
  appOrigin?: string;
  /** Where browsers reach this mount (`https://host/sandbox/google-drive`); the request's origin + mount otherwise. */
  publicBase?: string;
  /** The path the emulator is mounted at (cookie scope and links). */
  basePath?: string;
  /** The sandbox secret the app signs account claims with (decision 0022). */
  accountSecret: Uint8Array;
  now?: () => number;
}

export function createGoogleDriveEmulator(options: GoogleDriveEmulatorOptions): Hono {
  const now = options.now ?? Date.now;
  const basePath = options.basePath ?? '';
  const clients = options.clients ?? [
    {
      id: SANDBOX_GOOGLE_CLIENT_ID,
      secret: SANDBOX_GOOGLE_CLIENT_SECRET,
      redirectUris: [
        `${(options.appOrigin ?? 'http://127.0.0.1:3000').replace(/\/$/, '')}${GOOGLE_DRIVE_CALLBACK_PATH}`,
      ],
    },
  ];
  const grants = new DriveGrants(
    options.stateDir ? join(options.stateDir, 'grants.json') : undefined,
    now,
    ACCESS_TOKEN_MS,
  );
  const space = new FileSpace<DriveItem>(options.stateDir);
  const sessions = new PageSessions(grants, 'sandbox_google_session', basePath);
  const app = new Hono();
  addOAuthRoutes(app, {
    clients,
    grants,
    sessions,
    claims: new DriveAccountClaims(options.accountSecret, 'google-drive'),
  });
  addDriveRoutes(app, {
    grants,
    space,
    now,
    webOrigin: (c) => options.publicBase ?? `${new URL(c.req.url).origin}${basePath}`,
  });
  addDrivePages(app, { space, sessions });
  app.all('*', (c) =>
    c.json(
      {
        error: {
          code: 404,
          message: 'Not Found',
          errors: [{ message: 'Not Found', domain: 'global', reason: 'notFound' }],
          status: 'NOT_FOUND',
        },
      },
      404,
    ),
  );
  return app;
}
