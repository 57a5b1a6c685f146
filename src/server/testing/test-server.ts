import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { generateCatalog } from '../../sandbox/catalog/generator';
import type { Catalog } from '../../sandbox/catalog/types';
import { createApp } from '../app';
import type { AppDeps } from '../app-context';
import { type Config, loadConfig } from '../config';
import type { DatabaseHandle } from '../db/client';
import { createLogger, type Logger } from '../logger';
import { createRuntime } from '../runtime';
import { QUICK_APPLE_SETTLE, ROOMY_LIMITS, TEST_SANDBOX_SCENARIOS } from './roomy-limits';
import { createTestDatabase } from './test-database';

/**
 * The real app on a real port with a fresh database, for integration tests over HTTP.
 */
export interface TestServer {
  url: string;
  deps: AppDeps;
  /** A browser-like client: keeps cookies and echoes the CSRF cookie on mutating requests. */
  newClient(): TestClient;
  /** Closes the database under the running server: what an outage looks like to it. */
  closeDatabase(): Promise<void>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  env?: Record<string, string>;
  /** Catalog for the emulators; a small generated one by default (fast to build). */
  catalog?: Catalog;
  /** Where the app logs (silent by default); tests that check what is logged pass their own. */
  logger?: Logger;
  /** The database to serve (a test of an upgrade prepares one); a fresh migrated one by default. */
  database?: DatabaseHandle;
}

let defaultCatalog: Catalog | undefined;
/** 3,000 tracks keep start-up quick while still holding the whole demo library. */
export const testCatalog = () => {
  defaultCatalog ??= generateCatalog({ trackCount: 3000 });
  return defaultCatalog;
};

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const database = options.database ?? (await createTestDatabase());
  const dataDir = mkdtempSync(join(tmpdir(), 'crossfade-test-'));
  const server = createServer();
  // Idle connections are closed by the test's client only (fetch's own idle timer), never by this server:
  // a test that keeps this process busy for seconds (the embedded database's inserts run on its thread)
  // would otherwise let the server's 5 s idle timeout close a pooled connection just as the client sends
  // its next request on it (ECONNRESET). `close()` still ends idle connections.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  // PUBLIC_URL is the real port, so OAuth redirects and consent pages point back at this server.
  const config: Config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: url,
    SANDBOX_RATE_LIMIT: '0',
    ...ROOMY_LIMITS,
    ...TEST_SANDBOX_SCENARIOS,
    ...QUICK_APPLE_SETTLE,
    ...options.env,
  });
  const { deps, mounts, jobRunner } = await createRuntime(
    config,
    database.db,
    options.logger ?? createLogger('silent'),
    {
      encryptionKey: Buffer.alloc(32, 7),
      catalog: options.catalog ?? testCatalog(),
    },
  );
  const app = createApp(deps, { mounts });
  server.on('request', getRequestListener(app.fetch));
  jobRunner?.start();
  let databaseClosed: Promise<void> | undefined;
  const closeDatabase = () => {
    databaseClosed ??= database.close();
    return databaseClosed;
  };
  return {
    url,
    deps,
    newClient: () => new TestClient(url),
    closeDatabase,
    async close() {
      await jobRunner?.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await closeDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export class TestClient {
  readonly cookies = new Map<string, string>();
  constructor(public baseUrl: string) {}

  get(path: string) {
    return this.send('GET', path);
  }
  post(path: string, body?: unknown, init: { headers?: Record<string, string>; raw?: string } = {}) {
    return this.send('POST', path, body, init);
  }

  async send(
    method: string,
    path: string,
    body?: unknown,
    init: { headers?: Record<string, string>; raw?: string; skipCsrf?: boolean } = {},
  ): Promise<TestResponse> {
    if (method !== 'GET' && !this.cookies.has('cf_csrf')) await this.send('GET', '/api/auth/status');
    const headers: Record<string, string> = { ...init.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (method !== 'GET' && !init.skipCsrf && !('x-csrf-token' in headers)) {
      headers['x-csrf-token'] = this.cookies.get('cf_csrf') ?? '';
    }
    let payload: string | undefined = init.raw;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(payload !== undefined ? { body: payload } : {}),
      redirect: 'manual',
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = cookie.split(';');
      const [name = '', value = ''] = pair.split('=');
      const expired = attributes.some((a) => /max-age=0/i.test(a) || /expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch (error) {
      // Not JSON: keep the text.
      if (!(error instanceof SyntaxError)) throw error;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }
}
