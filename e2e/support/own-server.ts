import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { expect, type Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { createApp } from '../../src/server/app';
import type { AppDeps } from '../../src/server/app-context';
import { loadConfig } from '../../src/server/config';
import type { DatabaseHandle } from '../../src/server/db/client';
import { openDatabase } from '../../src/server/db/open';
import { users } from '../../src/server/db/schema';
import { jobRegistry } from '../../src/server/jobs/define-job';
import { JobRunner } from '../../src/server/jobs/job-runner';
import { createLogger } from '../../src/server/logger';
import { createRuntime, JOBS } from '../../src/server/runtime';
import { ROOMY_LIMITS, TEST_SANDBOX_SCENARIOS } from '../../src/server/testing/roomy-limits';
import { testCatalog } from '../../src/server/testing/test-server';
import { CSRF_COOKIE, CSRF_HEADER, type Plan } from '../../src/shared/api/auth';
import { expectToast } from './toasts';
import { type TestUser, uniqueUser } from './users';

/**
 * The app and the built web app on a server of the test file's own, whose database the test can reach:
 * for journeys that need a plan (Pro, Vault+), which changes only through the operator CLI or the
 * database, while the shared e2e server's embedded database belongs to its own process.
 */
export interface OwnServer {
  url: string;
  deps: AppDeps;
  close(): Promise<void>;
}

export async function startOwnServer(name: string): Promise<OwnServer> {
  const database: DatabaseHandle = await openDatabase({ memory: true });
  const dataDir = mkdtempSync(join(tmpdir(), `crossfade-e2e-${name}-`));
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: url,
    SANDBOX_RATE_LIMIT: '0',
    JOB_WORKERS: '0',
    ...ROOMY_LIMITS,
    ...TEST_SANDBOX_SCENARIOS,
  });
  const { deps, mounts } = await createRuntime(config, database.db, createLogger('silent'), {
    encryptionKey: Buffer.alloc(32, 9),
    catalog: testCatalog(),
  });
  const runner = new JobRunner({
    db: database.db,
    logger: deps.logger,
    handlers: jobRegistry(JOBS, deps),
    concurrency: 2,
    pollIntervalMs: 100,
  });
  deps.jobs.poke = () => runner.poke();
  runner.start();
  const webRoot = fileURLToPath(new URL('../../dist/web', import.meta.url));
  server.on('request', getRequestListener(createApp(deps, { webRoot, mounts }).fetch));
  return {
    url,
    deps,
    async close() {
      await runner.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The CSRF header for calls to the server at `url`, from the cookie the page's context holds for it. */
export async function csrfHeaders(page: Page, url: string): Promise<Record<string, string>> {
  const csrf = (await page.context().cookies(url)).find((cookie) => cookie.name === CSRF_COOKIE)?.value ?? '';
  return { [CSRF_HEADER]: csrf };
}

/** Signs a new person up on the server at `url` through its API. */
export async function registerOn(page: Page, url: string, prefix: string): Promise<TestUser> {
  const user = uniqueUser(prefix);
  expect((await page.request.get(`${url}/api/auth/status`)).ok()).toBe(true);
  const response = await page.request.post(`${url}/api/auth/register`, {
    data: user,
    headers: await csrfHeaders(page, url),
  });
  expect(response.status(), await response.text()).toBe(201);
  return user;
}

/**
 * A new person on `plan` (plans change only in the database), connected to Spotify and Apple Music through
 * the consent pages from the transfer page, as they would do it.
 */
export async function signUpConnected(
  page: Page,
  own: OwnServer,
  prefix: string,
  plan: Plan,
): Promise<TestUser> {
  const user = await registerOn(page, own.url, prefix);
  await own.deps.db.update(users).set({ plan }).where(eq(users.username, user.username));
  for (const service of ['Spotify', 'Apple Music'] as const) {
    await page.goto(`${own.url}/transfer`);
    await page.getByRole('button', { name: `Connect ${service}` }).click();
    await page.getByRole('button', { name: service === 'Spotify' ? 'Agree' : 'Allow', exact: true }).click();
    await expectToast(page, `Connected to ${service}`);
  }
  return user;
}
