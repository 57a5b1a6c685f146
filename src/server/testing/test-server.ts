import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApp } from '../app';
import type { AppDeps } from '../app-context';
import { type Config, loadConfig } from '../config';
import { createLogger } from '../logger';
import { createEncryptor } from '../security/encryption';
import { createTestDatabase } from './test-database';

/**
 * The real app on a real port with a fresh database, for integration tests over HTTP.
 */
export interface TestServer {
  url: string;
  deps: AppDeps;
  /** A browser-like client: keeps cookies and echoes the CSRF cookie on mutating requests. */
  newClient(): TestClient;
  close(): Promise<void>;
}

export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const database = await createTestDatabase();
  const config: Config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent-test-data', ...env });
  const deps: AppDeps = {
    config,
    db: database.db,
    logger: createLogger('silent'),
    encryptor: createEncryptor(Buffer.alloc(32, 7)),
  };
  const app = createApp(deps);
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    deps: { ...deps, config: { ...config, publicUrl: url } },
    newClient: () => new TestClient(url),
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await database.close();
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
  constructor(readonly baseUrl: string) {}

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
      body: payload,
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
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }
}
