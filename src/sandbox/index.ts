import { join } from 'node:path';
import { Hono } from 'hono';
import type { JWK } from 'jose';
import { createAppleEmulator } from './apple/index';
import type { Catalog } from './catalog/types';
import { createDropboxEmulator } from './dropbox/index';
import { createAddDropper, faultInjection, NO_FAULTS, type SandboxFaults } from './faults';
import { createGoogleDriveEmulator } from './google-drive/index';
import { createSpotifyEmulator } from './spotify/index';
import { createStripeEmulator, type StripeEmulatorOptions } from './stripe/index';

export interface SandboxOptions {
  catalog: Catalog;
  /** State goes to `<dataDir>/sandbox/{spotify,apple}/`; without it the emulators keep it in memory. */
  dataDir?: string;
  rateLimit?: { budget: number; windowMs: number } | null;
  /** Added to every emulator answer, like a real network round trip (used to slow transfers in tests). */
  latencyMs?: number;
  spotifyMode?: 'development' | 'extended';
  /** `SANDBOX_FAULTS`: write lag and failures on demand; none by default. */
  faults?: SandboxFaults;
  appleDeveloperKeys: { teamId: string; keyId: string; publicKey: JWK }[];
  /** Crossfade's origin (PUBLIC_URL): the cloud-drive emulators' sandbox clients redirect only there. */
  appOrigin?: string;
  /** Where browsers reach the sandbox, when not at the address the app calls (the app's own PUBLIC_URL). */
  publicOrigin?: string;
  /** The payments (Stripe) emulator at /sandbox/stripe, when payments run in sandbox mode. */
  stripe?: Omit<StripeEmulatorOptions, 'stateFile'>;
  /** The secret the app signs sandbox account claims with (decision 0022; sandbox-keys.ts loads it). */
  accountSecret: Uint8Array;
  /** The app's Spotify redirect URIs, as registered for the sandbox's client (exact match). */
  spotifyRedirectUris: readonly string[];
  /** Consent posts per client address and rolling hour, on each emulator (0 = no limit). */
  consentsPerHour?: number;
}

/** Where the emulators live below the sandbox's origin; the app's provider base URLs point here. */
export const SANDBOX_PATHS = {
  index: '/sandbox',
  spotifyAccounts: '/sandbox/spotify/accounts',
  spotifyApi: '/sandbox/spotify/api',
  apple: '/sandbox/apple',
  googleDrive: '/sandbox/google-drive',
  dropbox: '/sandbox/dropbox',
  stripe: '/sandbox/stripe',
} as const;

/**
 * Both emulators under one Hono app, so one process (the standalone `npm run sandbox`, or the app itself in
 * sandbox mode) serves wire-compatible Spotify and Apple Music on the same catalog.
 */
export function createSandbox(options: SandboxOptions): Hono {
  return createSandboxParts(options).app;
}

/**
 * The sandbox app and, on its own, the Apple Music API emulator it mounts (same state), so that
 * `npm run sandbox` can also serve Apple at the root of a port of its own, where Apple's root-relative
 * `next` links resolve without a mount prefix.
 */
export function createSandboxParts(options: SandboxOptions): { app: Hono; appleRoot: Hono } {
  const faults = options.faults ?? NO_FAULTS;
  const stateDir = options.dataDir ? join(options.dataDir, 'sandbox') : undefined;
  const accounts = { accountSecret: options.accountSecret, consentsPerHour: options.consentsPerHour ?? 0 };
  const spotify = createSpotifyEmulator({
    catalog: options.catalog,
    stateDir: stateDir ? join(stateDir, 'spotify') : undefined,
    redirectUris: options.spotifyRedirectUris,
    ...accounts,
    mode: options.spotifyMode ?? 'development',
    rateLimit: options.rateLimit ?? null,
    ownerHasPremium: faults.spotifyOwnerWithoutPremium === 0,
    dropAdds: createAddDropper(faults.droppedAdds),
  });
  const apple = createAppleEmulator({
    catalog: options.catalog,
    stateDir: stateDir ? join(stateDir, 'apple') : undefined,
    ...accounts,
    developerKeys: options.appleDeveloperKeys,
    rateLimit: options.rateLimit ?? null,
    writeLagMs: faults.appleWriteLagMs,
    dropAdds: createAddDropper(faults.droppedAdds),
  });

  const app = new Hono();
  const latencyMs = options.latencyMs ?? 0;
  if (latencyMs > 0) {
    app.use('/sandbox/*', async (_c, next) => {
      await new Promise((resolve) => setTimeout(resolve, latencyMs));
      await next();
    });
  }
  app.use(`${SANDBOX_PATHS.spotifyApi}/v1/*`, faultInjection('spotify', faults));
  app.use(`${SANDBOX_PATHS.apple}/v1/*`, faultInjection('apple', faults));
  app.route(SANDBOX_PATHS.spotifyAccounts, spotify.accounts);
  app.route(SANDBOX_PATHS.spotifyApi, spotify.api);
  app.route(SANDBOX_PATHS.apple, apple.app);
  const drive = (name: string) => ({
    stateDir: stateDir ? join(stateDir, name) : undefined,
    basePath: `/sandbox/${name}`,
    accountSecret: options.accountSecret,
    ...(options.appOrigin ? { appOrigin: options.appOrigin } : {}),
    ...(options.publicOrigin ? { publicBase: `${options.publicOrigin}/sandbox/${name}` } : {}),
  });
  app.route(SANDBOX_PATHS.googleDrive, createGoogleDriveEmulator(drive('google-drive')));
  app.route(SANDBOX_PATHS.dropbox, createDropboxEmulator(drive('dropbox')));
  if (options.stripe) {
    const stateFile = stateDir ? { stateFile: join(stateDir, 'stripe.json') } : {};
    app.route(SANDBOX_PATHS.stripe, createStripeEmulator({ ...options.stripe, ...stateFile }).app);
  }
  app.get(SANDBOX_PATHS.index, (c) => c.html(indexPage(options)));
  app.get(`${SANDBOX_PATHS.index}/`, (c) => c.redirect(SANDBOX_PATHS.index, 301));

  const appleRoot = new Hono();
  if (latencyMs > 0) {
    appleRoot.use('*', async (_c, next) => {
      await new Promise((resolve) => setTimeout(resolve, latencyMs));
      await next();
    });
  }
  appleRoot.use('/v1/*', faultInjection('apple', faults));
  appleRoot.route('/', apple.app);
  return { app, appleRoot };
}

function indexPage(options: SandboxOptions): string {
  const { catalog } = options;
  const spotifyTracks = catalog.tracks.filter((track) => track.spotify).length;
  const appleTracks = catalog.tracks.filter((track) => track.apple).length;
  const limit = options.rateLimit
    ? `${options.rateLimit.budget} calls per ${Math.round(options.rateLimit.windowMs / 1000)} s`
    : 'off';
  const playlists = (list: Catalog['demoLibraries']['spotify']) =>
    list.map((playlist) => `<li>${escapeHtml(playlist.name)} (${playlist.entries.length})</li>`).join('');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Crossfade sandbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5}code{background:#f2f2f2;padding:0 .25rem}</style>
</head>
<body>
<h1>Crossfade sandbox</h1>
<p>Offline stand-ins for Spotify and Apple Music, serving one invented catalog of ${catalog.tracks.length.toLocaleString('en-US')} tracks
(${spotifyTracks.toLocaleString('en-US')} on Spotify, ${appleTracks.toLocaleString('en-US')} on Apple Music). Rate limit: ${limit}.</p>
<h2>Spotify</h2>
<ul>
<li>Accounts service: <code>${SANDBOX_PATHS.spotifyAccounts}</code> (consent page at <code>${SANDBOX_PATHS.spotifyAccounts}/authorize</code>)</li>
<li>Web API: <code>${SANDBOX_PATHS.spotifyApi}/v1</code> (${options.spotifyMode ?? 'development'} mode)</li>
</ul>
<p>Demo library:</p><ul>${playlists(catalog.demoLibraries.spotify)}</ul>
<h2>Apple Music</h2>
<ul>
<li>API: <code>${SANDBOX_PATHS.apple}/v1</code></li>
<li>Sign-in page: <code>${SANDBOX_PATHS.apple}/authorize</code></li>
</ul>
<p>Demo library:</p><ul>${playlists(catalog.demoLibraries.apple)}</ul>
<h2>Google Drive and Dropbox</h2>
<ul>
<li>Google: <code>${SANDBOX_PATHS.googleDrive}</code> (consent page <code>/o/oauth2/v2/auth</code>, Drive API <code>/drive/v3</code>, your files at <code>/drive/my-drive</code>)</li>
<li>Dropbox: <code>${SANDBOX_PATHS.dropbox}</code> (<code>/www</code>, <code>/api</code> and <code>/content</code> hosts, your files at <code>/www/home</code>)</li>
</ul>
${options.stripe ? `<h2>Payments (Stripe)</h2>\n<ul><li>API, Checkout, customer portal: <code>${SANDBOX_PATHS.stripe}</code></li></ul>` : ''}
</body>
</html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
