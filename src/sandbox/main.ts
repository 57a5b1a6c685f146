import { join, resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { z } from 'zod';
import { CatalogFileError, loadCatalog } from './catalog/load-file';
import { createSandboxParts, SANDBOX_PATHS } from './index';
import { loadOrCreateSandboxAccountSecret, loadOrCreateSandboxAppleKey } from './sandbox-keys';
import { sandboxSettingsShape } from './settings';
import { loadOrCreateSandboxStripeKey } from './stripe/sandbox-key';

/** `npm run sandbox`: both emulators as a standalone server, for working on clients or the CLI against them. */
const environment = z.object({
  /** What the app's settings share (src/sandbox/settings.ts); the app and this server read them alike. */
  ...sandboxSettingsShape,
  SANDBOX_HOST: z.string().default('127.0.0.1'),
  SANDBOX_PORT: z.coerce.number().int().min(0).max(65_535).default(3001),
  /** `1`: also serve the Apple Music API at the root of SANDBOX_APPLE_PORT (root-relative `next` links work). */
  SANDBOX_APPLE_ROOT: z.enum(['0', '1', '']).default('0'),
  SANDBOX_APPLE_PORT: z.coerce.number().int().min(0).max(65_535).default(3002),
  SPOTIFY_MODE: z.enum(['development', 'extended']).default('development'),
  DATA_DIR: z.string().default('./data'),
  /**
   * `memory`: the emulators keep their state (accounts, tokens, writes) in memory and lose it on exit. Each
   * write rewrites its account's whole document on disk, so a test writing 100,000 favourites one by one
   * (Apple rates each song alone) would write that document 100,000 times; the keys stay in DATA_DIR.
   */
  SANDBOX_STATE: z.enum(['disk', 'memory']).default('disk'),
  /**
   * The app's address: its Spotify callback is the redirect URI registered for the sandbox's client, and
   * the cloud-drive emulators' sandbox clients redirect only to its callbacks.
   */
  PUBLIC_URL: z.url().default('http://127.0.0.1:3000'),
  /** More registered Spotify redirect URIs (comma list), for clients worked on against the emulators. */
  SANDBOX_SPOTIFY_REDIRECT_URIS: z
    .string()
    .default('')
    .transform((text) =>
      text
        .split(',')
        .map((uri) => uri.trim())
        .filter(Boolean),
    ),
});

async function main(): Promise<void> {
  const parsed = environment.safeParse(process.env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) console.error(`${issue.path.join('.')}: ${issue.message}`);
    process.exit(1);
  }
  const settings = parsed.data;
  const dataDir = resolve(settings.DATA_DIR);
  // DATA_DIR is private (keys, state): new files 0600, folders 0700, as the server makes them.
  process.umask(0o077);
  const catalog = loadCatalog({
    path: settings.SANDBOX_CATALOG,
    trackCount: settings.SANDBOX_CATALOG_TRACKS,
  });
  const key = await loadOrCreateSandboxAppleKey(dataDir);
  let origin = `http://${settings.SANDBOX_HOST}:${settings.SANDBOX_PORT}`;
  const spotifyCallback = `${settings.PUBLIC_URL.replace(/\/$/, '')}/api/auth/spotify/callback`;
  const { app, appleRoot } = createSandboxParts({
    catalog,
    ...(settings.SANDBOX_STATE === 'disk' ? { dataDir } : {}),
    rateLimit:
      settings.SANDBOX_RATE_LIMIT > 0
        ? { budget: settings.SANDBOX_RATE_LIMIT, windowMs: settings.SANDBOX_RATE_WINDOW_SECONDS * 1000 }
        : null,
    faults: settings.SANDBOX_FAULTS,
    spotifyMode: settings.SPOTIFY_MODE,
    latencyMs: settings.SANDBOX_LATENCY_MS,
    appleDeveloperKeys: [{ teamId: key.teamId, keyId: key.keyId, publicKey: key.publicKeyJwk }],
    appOrigin: settings.PUBLIC_URL.replace(/\/$/, ''),
    stripe: { secretKey: loadOrCreateSandboxStripeKey(dataDir), publicOrigin: () => origin },
    accountSecret: loadOrCreateSandboxAccountSecret(dataDir, settings.SANDBOX_ACCOUNT_SECRET),
    spotifyRedirectUris: [spotifyCallback, ...settings.SANDBOX_SPOTIFY_REDIRECT_URIS],
    consentsPerHour: settings.SANDBOX_CONSENTS_PER_HOUR,
  });
  const server = serve(
    { fetch: app.fetch, hostname: settings.SANDBOX_HOST, port: settings.SANDBOX_PORT },
    (info) => {
      origin = `http://${settings.SANDBOX_HOST}:${info.port}`;
      console.log(
        `Crossfade sandbox: ${catalog.tracks.length} tracks, state in ${settings.SANDBOX_STATE === 'disk' ? join(dataDir, 'sandbox') : 'memory'}`,
      );
      const lines: [string, string][] = [
        ['Index', `${origin}${SANDBOX_PATHS.index}`],
        ['Spotify accounts', `${origin}${SANDBOX_PATHS.spotifyAccounts}`],
        ['Spotify API', `${origin}${SANDBOX_PATHS.spotifyApi}/v1`],
        ['Apple Music API', `${origin}${SANDBOX_PATHS.apple}/v1`],
        ['Google Drive', `${origin}${SANDBOX_PATHS.googleDrive} (for ${settings.PUBLIC_URL})`],
        ['Dropbox', `${origin}${SANDBOX_PATHS.dropbox} (for ${settings.PUBLIC_URL})`],
        ['Stripe API', `${origin}${SANDBOX_PATHS.stripe}/v1`],
        [
          'Apple dev key',
          `team ${key.teamId}, key ${key.keyId} (${join(dataDir, 'sandbox', 'apple-dev-key.json')})`,
        ],
      ];
      for (const [label, value] of lines) console.log(`  ${label.padEnd(17)} ${value}`);
    },
  );
  const appleServer =
    settings.SANDBOX_APPLE_ROOT === '1' || process.argv.includes('--apple-root')
      ? serve(
          { fetch: appleRoot.fetch, hostname: settings.SANDBOX_HOST, port: settings.SANDBOX_APPLE_PORT },
          (info) =>
            console.log(`  ${'Apple at root'.padEnd(17)} http://${settings.SANDBOX_HOST}:${info.port}/v1`),
        )
      : undefined;
  const stop = () => {
    appleServer?.close();
    server.close(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  // A bad catalog file is the user's to fix: say which line, without a stack trace.
  if (error instanceof CatalogFileError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
