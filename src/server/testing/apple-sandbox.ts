import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { type AppleEmulatorOptions, createAppleEmulator } from '../../sandbox/apple';
import { buildTestCatalog } from '../../sandbox/apple/test-catalog';
import { AppleMusicProvider, type AppleMusicProviderOptions } from '../providers/apple/client';
import {
  createDeveloperTokenSigner,
  generateSandboxAppleKeys,
  type SandboxAppleKeys,
} from '../providers/apple/developer-token';

/**
 * Test support (not a test): serves the Apple emulator over real HTTP, mounted under /sandbox/apple as the
 * app mounts it, and signs in the demo user through the real consent form. A thin layer in front of the
 * emulator records every request and can answer the next ones with an injected upstream failure (a 5xx,
 * a non-JSON body) the way a flaky network would.
 */
export interface AppleSandboxHarness {
  origin: string;
  apiBaseUrl: string;
  keys: SandboxAppleKeys;
  musicUserToken: string;
  /** Requests that reached the server, as "METHOD /path?query" without the mount prefix. */
  requests: string[];
  /** The next requests are answered with these instead of reaching the emulator. */
  faults: { status: number; body: string; contentType?: string }[];
  provider(extra?: Partial<AppleMusicProviderOptions>): AppleMusicProvider;
  developerToken(): Promise<string>;
  close(): Promise<void>;
}

export async function startAppleSandbox(
  overrides: Partial<Omit<AppleEmulatorOptions, 'developerKeys'>> = {},
): Promise<AppleSandboxHarness> {
  const keys = await generateSandboxAppleKeys();
  const emulator = createAppleEmulator({
    catalog: buildTestCatalog(),
    developerKeys: [{ teamId: keys.teamId, keyId: keys.keyId, publicKey: keys.publicKeyJwk }],
    ...overrides,
  });
  const requests: string[] = [];
  const faults: AppleSandboxHarness['faults'] = [];
  const root = new Hono();
  root.use('/sandbox/apple/*', async (c, next) => {
    const url = new URL(c.req.url);
    requests.push(`${c.req.method} ${url.pathname.replace('/sandbox/apple', '')}${url.search}`);
    const fault = url.pathname.includes('/v1/') ? faults.shift() : undefined;
    if (fault) {
      return new Response(fault.body, {
        status: fault.status,
        headers: { 'content-type': fault.contentType ?? 'application/json' },
      });
    }
    await next();
  });
  root.route('/sandbox/apple', emulator.app);

  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>(
    (resolve) => {
      const started = serve({ fetch: root.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
        resolve({ server: started, port: info.port }),
      );
    },
  );
  const origin = `http://127.0.0.1:${port}`;
  // Issued for the origin of the consent page's redirect address, as MusicKit tokens name their origin.
  const signer = createDeveloperTokenSigner({ ...keys, origins: [CONSENT_REDIRECT_ORIGIN] });
  const musicUserToken = await signInThroughConsentPage(origin, await signer.getToken());
  requests.length = 0;

  return {
    origin,
    apiBaseUrl: `${origin}/sandbox/apple/v1`,
    keys,
    musicUserToken,
    requests,
    faults,
    developerToken: () => signer.getToken(),
    provider: (extra = {}) =>
      new AppleMusicProvider({
        apiBaseUrl: `${origin}/sandbox/apple/v1`,
        developerToken: signer,
        musicUserToken: async () => musicUserToken,
        ...extra,
        // Waits are real calls to `sleep`, just short, so retry tests stay quick without faking time.
        http: { backoffBaseMs: 2, ...extra.http },
      }),
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** Where the test's consent page sends the person back to (the origin its developer tokens name). */
export const CONSENT_REDIRECT_ORIGIN = 'http://localhost:5173';

/** Clicks "Allow" on the sandbox consent page the way a browser submits its form. */
export async function signInThroughConsentPage(
  origin: string,
  developerToken: string,
  decision: 'allow' | 'deny' = 'allow',
): Promise<string> {
  const redirectUri = `${CONSENT_REDIRECT_ORIGIN}/api/auth/apple/callback`;
  const page = await fetch(
    `${origin}/sandbox/apple/authorize?${new URLSearchParams({ developer_token: developerToken, redirect_uri: redirectUri, state: 'xyz' })}`,
  );
  if (!page.ok) throw new Error(`consent page answered ${page.status}`);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error('consent page has no form');
  const fields = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields.set(match[1] ?? '', decodeEntities(match[2] ?? ''));
  }
  fields.set('decision', decision);
  const answer = await fetch(new URL(action, page.url), { method: 'POST', body: fields, redirect: 'manual' });
  const location = answer.headers.get('location');
  if (answer.status !== 302 || !location) throw new Error(`consent form answered ${answer.status}`);
  const target = new URL(location);
  return target.searchParams.get('music_user_token') ?? `error:${target.searchParams.get('error')}`;
}

const decodeEntities = (text: string) =>
  text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
