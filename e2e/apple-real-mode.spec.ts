import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { loadOrCreateSandboxAppleKey } from '../src/sandbox/sandbox-keys';
import { isConnectionFailure } from '../src/server/testing/expected-errors';
import { ROOMY_LIMITS } from '../src/server/testing/roomy-limits';
import { expectToast } from './support/toasts';
import { registerThroughApi } from './support/users';

// Apple Music in real mode, as a self-hoster runs it: the app signs developer tokens with its own MusicKit
// key, loads MusicKit on the Web from MUSICKIT_SCRIPT_URL and gets the Music User Token from MusicKit's
// sign-in popup. Here the key is the sandbox's, the Apple Music API is the standalone emulator
// (APPLE_API_URL), and MusicKit is a stand-in with the same surface (configure, getInstance, authorize
// opening the emulator's sign-in in a popup, which hands the token back to its opener at the app's origin,
// the one the developer token names), served from its own origin.
const base = Number(process.env.E2E_PORT ?? 3100);
const appPort = base + 31;
const sandboxPort = base + 32;
const musicKitPort = base + 33;
const appOrigin = `http://127.0.0.1:${appPort}`;
const sandboxOrigin = `http://127.0.0.1:${sandboxPort}`;
const musicKitOrigin = `http://127.0.0.1:${musicKitPort}`;

const children: ChildProcess[] = [];
let musicKit: Server | undefined;

/** MusicKit on the Web's surface, as the app uses it; authorize() signs in through a popup like Apple's. */
const STAND_IN_MUSICKIT = `(() => {
  let developerToken = '';
  const instance = {
    authorize() {
      return new Promise((resolve, reject) => {
        const url = new URL('${sandboxOrigin}/sandbox/apple/authorize');
        url.searchParams.set('developer_token', developerToken);
        // As MusicKit's popup does: the answer comes back as a message to this page's origin.
        url.searchParams.set('origin', window.location.origin);
        url.searchParams.set('state', String(Math.random()).slice(2));
        const popup = window.open(url.toString(), 'musickit-sign-in', 'width=520,height=640');
        if (!popup) return reject(new Error('The sign-in popup was blocked'));
        window.addEventListener('message', function answer(event) {
          if (event.origin !== '${sandboxOrigin}') return;
          window.removeEventListener('message', answer);
          if (event.data && event.data.music_user_token) resolve(event.data.music_user_token);
          else reject(new Error('Apple Music sign-in was cancelled'));
        });
      });
    },
  };
  window.MusicKit = {
    configure(options) { developerToken = options.developerToken; return Promise.resolve(instance); },
    getInstance() { return instance; },
  };
  document.dispatchEvent(new Event('musickitloaded'));
})();`;

function start(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['scripts/start.mjs', ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: 'ignore',
  });
  children.push(child);
}

/** The status `url` answers, or 0 while nothing listens there yet (any other failure fails the test). */
const answers = async (url: string) =>
  (
    await fetch(url).catch((error: unknown) => {
      if (isConnectionFailure(error)) return null;
      throw error;
    })
  )?.status ?? 0;

test.describe.configure({ timeout: 240_000 });
test.use({ baseURL: appOrigin });

test.beforeAll(async () => {
  const sandboxDir = mkdtempSync(join(tmpdir(), 'crossfade-e2e-apple-sandbox-'));
  const key = await loadOrCreateSandboxAppleKey(sandboxDir);
  musicKit = createServer((request, response) => {
    if (request.url === '/musickit.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      response.end(STAND_IN_MUSICKIT);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => musicKit?.listen(musicKitPort, '127.0.0.1', resolve));
  start(['sandbox'], {
    DATA_DIR: sandboxDir,
    SANDBOX_HOST: '127.0.0.1',
    SANDBOX_PORT: String(sandboxPort),
    SANDBOX_CATALOG_TRACKS: '3000',
  });
  start([], {
    ...ROOMY_LIMITS,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'crossfade-e2e-apple-app-')),
    PORT: String(appPort),
    PUBLIC_URL: appOrigin,
    APPLE_TEAM_ID: key.teamId,
    APPLE_KEY_ID: key.keyId,
    APPLE_PRIVATE_KEY: key.privateKeyPem,
    APPLE_API_URL: `${sandboxOrigin}/sandbox/apple/v1`,
    MUSICKIT_SCRIPT_URL: `${musicKitOrigin}/musickit.js`,
    SANDBOX_CATALOG_TRACKS: '3000',
    DATABASE_URL: '',
    ANTHROPIC_API_KEY: '',
  });
  await expect.poll(() => answers(`${sandboxOrigin}/sandbox`), { timeout: 120_000 }).toBeLessThan(500);
  await expect.poll(() => answers(`${appOrigin}/api/health`), { timeout: 120_000 }).toBe(200);
});

test.afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
  musicKit?.close();
});

test('real-mode Apple Music connects through MusicKit’s sign-in popup, straight from the click', async ({
  page,
}) => {
  await registerThroughApi(page);
  const response = await page.goto('/transfer');
  // Same-origin-allow-popups keeps the tie between the page and MusicKit's popup (same-origin cuts it).
  expect(response?.headers()['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
  expect(response?.headers()['content-security-policy']).toContain(musicKitOrigin);

  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Connect Apple Music' }).click();
  const popup = await popupOpened;
  // The popup is Apple's sign-in (the emulator's), asking to allow Crossfade.
  await popup.getByRole('button', { name: 'Allow', exact: true }).click();
  await expectToast(page, 'Connected to Apple Music');
  const status = (await (await page.request.get('/api/auth/status')).json()) as { appleConnected: boolean };
  expect(status.appleConnected).toBe(true);
  // The connection really works: the person's Apple Music library is read with the token.
  const playlists = await page.request.get('/api/playlists/apple');
  expect(playlists.status()).toBe(200);
  expect(((await playlists.json()) as unknown[]).length).toBeGreaterThan(0);
});
