import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createDropboxEmulator, SANDBOX_DROPBOX_CLIENT_ID } from '../../sandbox/dropbox/index';
import {
  createGoogleDriveEmulator,
  SANDBOX_GOOGLE_CLIENT_ID,
  SANDBOX_GOOGLE_CLIENT_SECRET,
} from '../../sandbox/google-drive/index';
import { SandboxAccountClaims } from '../connections/sandbox-account';
import type { DropboxApp } from '../export/cloud-drives/dropbox-client';
import type { GoogleApp } from '../export/cloud-drives/google-drive-client';

/**
 * Test-only: both cloud-drive emulators mounted as the app mounts them (`/sandbox/google-drive`,
 * `/sandbox/dropbox`), served over real HTTP on a free loopback port with a clock the test moves, and a
 * scripted browser for their consent pages.
 */

export const TEST_APP_ORIGIN = 'http://127.0.0.1:5173';

export interface DriveEmulators {
  origin: string;
  google: GoogleApp;
  dropbox: DropboxApp;
  /**
   * A consent URL with the app's signed claim for `person`'s own sandbox account (what Crossfade adds in
   * sandbox mode, decision 0022); the same person always has the same account.
   */
  withClaim(url: string, person: string, drive: 'google-drive' | 'dropbox'): Promise<string>;
  /** Moves the emulators' clock (token expiry) forward. */
  advance(ms: number): void;
  close(): Promise<void>;
}

export async function startDriveEmulators(): Promise<DriveEmulators> {
  let offset = 0;
  const now = () => Date.now() + offset;
  // A fixed secret: the tests' accounts are the same every run.
  const accountSecret = new Uint8Array(32).fill(7);
  const claims = new SandboxAccountClaims(accountSecret);
  const root = new Hono();
  root.route(
    '/sandbox/google-drive',
    createGoogleDriveEmulator({
      appOrigin: TEST_APP_ORIGIN,
      basePath: '/sandbox/google-drive',
      accountSecret,
      now,
    }),
  );
  root.route(
    '/sandbox/dropbox',
    createDropboxEmulator({ appOrigin: TEST_APP_ORIGIN, basePath: '/sandbox/dropbox', accountSecret, now }),
  );
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: root.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(started));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const google = `${origin}/sandbox/google-drive`;
  const dropbox = `${origin}/sandbox/dropbox`;
  return {
    origin,
    google: {
      clientId: SANDBOX_GOOGLE_CLIENT_ID,
      clientSecret: SANDBOX_GOOGLE_CLIENT_SECRET,
      redirectUri: `${TEST_APP_ORIGIN}/api/cloud-drives/google-drive/callback`,
      authorizeUrl: `${google}/o/oauth2/v2/auth`,
      tokenUrl: `${google}/token`,
      apiRoot: google,
    },
    dropbox: {
      clientId: SANDBOX_DROPBOX_CLIENT_ID,
      redirectUri: `${TEST_APP_ORIGIN}/api/cloud-drives/dropbox/callback`,
      wwwUrl: `${dropbox}/www`,
      apiUrl: `${dropbox}/api`,
      contentUrl: `${dropbox}/content`,
    },
    withClaim: async (url, person, drive) => (await claims.addTo(new URL(url), person, drive)).toString(),
    advance: (ms) => {
      offset += ms;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface Consent {
  /** Where the consent page sent the browser (the app's callback, with `code` and `state` or `error`). */
  redirect: URL;
  /** The emulator's sign-in cookie (`name=value`), for its files page. */
  cookie: string;
}

/**
 * A person on the consent page: loads it, submits its form with Allow or Cancel. `scopes` replaces what
 * the app asked for (a person granting less, or an older connection).
 */
export async function consentTo(
  authUrl: string,
  options: { decision?: 'allow' | 'deny'; scopes?: string[] } = {},
): Promise<Consent> {
  const url = new URL(authUrl);
  if (options.scopes) url.searchParams.set('scope', options.scopes.join(' '));
  const page = await fetch(url);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${html}`);
  const form = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    form.set(decodeHtml(match[1] ?? ''), decodeHtml(match[2] ?? ''));
  }
  form.set('decision', options.decision ?? 'allow');
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? url.pathname;
  const answer = await fetch(new URL(decodeHtml(action), url), {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  const location = answer.headers.get('location');
  if (!location)
    throw new Error(`consent form answered ${answer.status} without a redirect: ${await answer.text()}`);
  const cookie = (answer.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { redirect: new URL(location), cookie };
}

const decodeHtml = (text: string) =>
  text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
