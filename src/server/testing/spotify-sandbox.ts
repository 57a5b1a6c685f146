import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { Catalog } from '../../sandbox/catalog/types';
import { createSpotifyEmulator, type SpotifyEmulatorOptions } from '../../sandbox/spotify';
import { buildFixtureCatalog } from '../../sandbox/spotify/fixture-catalog';
import {
  SpotifyProvider,
  type SpotifyProviderOptions,
  type SpotifyTokenSource,
} from '../providers/spotify/client';
import {
  createSpotifyAuthorization,
  exchangeSpotifyCode,
  refreshSpotifyToken,
  type SpotifyTokens,
} from '../providers/spotify/oauth';

/**
 * Test-only: the Spotify emulator mounted the way the app mounts it, served over real HTTP on a free
 * loopback port, with a fault switch in front of the Web API (5xx and broken JSON) and a scripted browser
 * for the consent page.
 */

export const CLIENT_ID = 'crossfade-sandbox';
export const REDIRECT_URI = 'http://127.0.0.1:5173/api/auth/spotify/callback';

export interface Faults {
  /** The next N Web API calls answer this status (default 503) without reaching the emulator. */
  failNext(count: number, status?: number): void;
  /** The next N Web API calls answer 200 with a body that is not JSON. */
  malformNext(count: number): void;
}

export interface SandboxServer {
  origin: string;
  accountsBaseUrl: string;
  apiBaseUrl: string;
  faults: Faults;
  /** Web API calls that reached the fault switch (including failed ones). */
  apiCalls: number;
  /** The cookies of the browser that consented (the emulator's web session), as a `cookie` header. */
  browserCookies: Map<string, string>;
  close(): Promise<void>;
}

export async function startSandbox(
  options: Partial<SpotifyEmulatorOptions> & { catalog?: Catalog } = {},
): Promise<SandboxServer> {
  const emulator = createSpotifyEmulator({
    catalog: options.catalog ?? buildFixtureCatalog(),
    redirectUris: [REDIRECT_URI],
    ...options,
  });
  let failures = 0;
  let failureStatus = 503;
  let malformed = 0;
  const root = new Hono();
  const sandbox: SandboxServer = {
    origin: '',
    accountsBaseUrl: '',
    apiBaseUrl: '',
    apiCalls: 0,
    browserCookies: new Map(),
    faults: {
      failNext(count, status = 503) {
        failures = count;
        failureStatus = status;
      },
      malformNext(count) {
        malformed = count;
      },
    },
    close: async () => {},
  };
  root.use('/sandbox/spotify/api/v1/*', async (c, next) => {
    sandbox.apiCalls++;
    if (failures > 0) {
      failures--;
      return c.text('Service unavailable', failureStatus as 500);
    }
    if (malformed > 0) {
      malformed--;
      return c.body('{"items": [ this is not json', 200, { 'content-type': 'application/json' });
    }
    await next();
  });
  root.route('/sandbox/spotify/accounts', emulator.accounts);
  root.route('/sandbox/spotify/api', emulator.api);

  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: root.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  sandbox.origin = `http://127.0.0.1:${port}`;
  sandbox.accountsBaseUrl = `${sandbox.origin}/sandbox/spotify/accounts`;
  sandbox.apiBaseUrl = `${sandbox.origin}/sandbox/spotify/api/v1`;
  sandbox.close = () =>
    new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return sandbox;
}

/**
 * What a person does on the consent page: the page's own form, submitted with one choice. `browser`
 * keeps the cookies the emulator sets (its web session), as a browser would.
 */
export async function submitConsent(
  authorizeUrl: string,
  choice: { account?: string; decision: 'agree' | 'cancel' },
  browser?: Map<string, string>,
): Promise<URL> {
  const page = await fetch(authorizeUrl);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${html}`);
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? '';
  const form = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    form.set(name ?? '', decodeEntities(value ?? ''));
  }
  const checked = /<input type="radio" name="account" value="([^"]+)" checked>/.exec(html)?.[1] ?? '';
  form.set('account', choice.account ?? checked);
  form.set('decision', choice.decision);
  const answer = await fetch(new URL(action, authorizeUrl), {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  for (const cookie of answer.headers.getSetCookie()) {
    const [name = '', value = ''] = (cookie.split(';')[0] ?? '').split('=');
    browser?.set(name, value);
  }
  const location = answer.headers.get('location');
  if (answer.status !== 302 || !location) throw new Error(`consent answered ${answer.status}`);
  return new URL(location);
}

const decodeEntities = (value: string) =>
  value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/** The `cookie` header of a browser's cookies. */
export const cookieHeader = (cookies: Map<string, string>) =>
  [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');

/** Runs the whole Authorization Code + PKCE flow as the app and a person would. */
export async function connect(
  sandbox: SandboxServer,
  account?: string,
  now?: () => number,
): Promise<SpotifyTokens> {
  const config = {
    accountsBaseUrl: sandbox.accountsBaseUrl,
    clientId: CLIENT_ID,
    redirectUri: REDIRECT_URI,
    ...(now ? { now } : {}),
  };
  const request = await createSpotifyAuthorization(config);
  const callback = await submitConsent(
    request.url,
    { decision: 'agree', ...(account ? { account } : {}) },
    sandbox.browserCookies,
  );
  return exchangeSpotifyCode({
    ...config,
    callback,
    expectedState: request.state,
    codeVerifier: request.codeVerifier,
  });
}

/** A token source backed by real refreshes, as the server's connection store will be. */
export class RefreshingTokens implements SpotifyTokenSource {
  refreshes = 0;
  constructor(
    private tokens: SpotifyTokens,
    private readonly accountsBaseUrl: string,
  ) {}
  async getAccessToken() {
    return this.tokens.accessToken;
  }
  async refresh() {
    this.refreshes++;
    this.tokens = await refreshSpotifyToken({
      accountsBaseUrl: this.accountsBaseUrl,
      clientId: CLIENT_ID,
      refreshToken: this.tokens.refreshToken,
    });
    return this.tokens.accessToken;
  }
  /** Simulates a stored access token that Spotify no longer accepts. */
  spoilAccessToken() {
    this.tokens = { ...this.tokens, accessToken: 'stale-token-from-yesterday' };
  }
}

export async function connectedProvider(
  sandbox: SandboxServer,
  options: Partial<SpotifyProviderOptions> & { account?: string } = {},
): Promise<{ provider: SpotifyProvider; tokens: RefreshingTokens }> {
  const tokens = new RefreshingTokens(await connect(sandbox, options.account), sandbox.accountsBaseUrl);
  const provider = new SpotifyProvider({
    apiBaseUrl: sandbox.apiBaseUrl,
    mode: 'development',
    tokens,
    ...options,
    http: { backoffBaseMs: 1, ...options.http },
  });
  return { provider, tokens };
}
