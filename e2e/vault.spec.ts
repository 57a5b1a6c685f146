import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { expect, type Page, test } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { createApp } from '../src/server/app';
import type { AppDeps } from '../src/server/app-context';
import { loadConfig } from '../src/server/config';
import { type DatabaseHandle, openDatabase } from '../src/server/db/client';
import { users } from '../src/server/db/schema';
import { jobRegistry } from '../src/server/jobs/define-job';
import { JobRunner } from '../src/server/jobs/job-runner';
import { createLogger } from '../src/server/logger';
import { createRuntime, JOBS } from '../src/server/runtime';
import { testCatalog } from '../src/server/testing/test-server';
import { CSRF_COOKIE, CSRF_HEADER } from '../src/shared/api/auth';
import { expectToast } from './support/toasts';
import { registerThroughApi, uniqueUser } from './support/users';

/**
 * The Vault+ journey needs a person on the Vault+ plan. Plans change only through the operator CLI or the
 * database, and the shared e2e server's embedded database belongs to its own process, so this file runs
 * the same app and built web app on a server of its own, whose database it can reach.
 */
interface VaultServer {
  url: string;
  deps: AppDeps;
  close(): Promise<void>;
}

async function startVaultServer(): Promise<VaultServer> {
  const database: DatabaseHandle = await openDatabase({ memory: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'crossfade-e2e-vault-'));
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PUBLIC_URL: url,
    SANDBOX_RATE_LIMIT: '0',
    JOB_WORKERS: '0',
  });
  const { deps, mounts } = await createRuntime(config, database.db, createLogger('silent'), {
    encryptionKey: Buffer.alloc(32, 9),
    catalog: testCatalog(),
  });
  deps.providers.internalOrigin = url;
  const runner = new JobRunner({
    db: database.db,
    logger: deps.logger,
    handlers: jobRegistry(JOBS, deps),
    concurrency: 2,
    pollIntervalMs: 100,
  });
  deps.jobs.poke = () => runner.poke();
  runner.start();
  const webRoot = fileURLToPath(new URL('../dist/web', import.meta.url));
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

async function registerOn(page: Page, url: string) {
  const user = uniqueUser('vault');
  expect((await page.request.get(`${url}/api/auth/status`)).ok()).toBe(true);
  const csrf = (await page.context().cookies(url)).find((cookie) => cookie.name === CSRF_COOKIE)?.value ?? '';
  const response = await page.request.post(`${url}/api/auth/register`, {
    data: user,
    headers: { [CSRF_HEADER]: csrf },
  });
  expect(response.status(), await response.text()).toBe(201);
  return user;
}

test.describe('Vault+ member', () => {
  test.describe.configure({ timeout: 150_000 });
  let vault: VaultServer;
  test.beforeAll(async () => {
    vault = await startVaultServer();
  });
  test.afterAll(async () => {
    await vault?.close();
  });

  test('backs up now, sees the snapshot with its playlists, and restores one into the wizard', async ({
    page,
  }) => {
    const user = await registerOn(page, vault.url);
    await vault.deps.db.update(users).set({ plan: 'vault' }).where(eq(users.username, user.username));

    await page.goto(`${vault.url}/account`);
    await page.getByRole('button', { name: 'Connect Spotify' }).click();
    await page.getByRole('button', { name: 'Agree', exact: true }).click();
    await expectToast(page, 'Connected to Spotify');

    await page.goto(`${vault.url}/vault`);
    await expect(page.getByRole('heading', { level: 1, name: 'Vault+' })).toBeVisible();
    await expect(page.getByText(/No backups yet/)).toBeVisible();
    await page.getByRole('button', { name: 'Back up now' }).click();
    await expectToast(page, 'Backup complete');

    const backups = page.getByRole('list', { name: 'Backups' });
    const snapshot = backups.getByRole('listitem').filter({ hasText: 'Spotify backup' });
    await expect(snapshot).toHaveCount(1);
    await expect(snapshot).toContainText('Backed up by you');
    await snapshot.getByRole('button', { name: 'Show playlists' }).click();
    const roadTrip = snapshot.locator('details').filter({ hasText: 'Road Trip' });
    await roadTrip.locator('summary').click();
    await expect(roadTrip.getByRole('listitem').first()).toBeVisible();

    await roadTrip.getByRole('button', { name: 'Restore Road Trip to Apple Music' }).click();
    await expect(page).toHaveURL(/\/matches$/);
    const handoff = await page.evaluate(() => sessionStorage.getItem('crossfade.wizard.handoff'));
    // The wizard takes the handoff as it opens; either way the restored playlist is now an import.
    if (handoff)
      expect(JSON.parse(handoff)).toMatchObject({ sourceService: 'spotify', destinationService: 'apple' });
    const sources = await page.request.get(`${vault.url}/api/playlists/spotify`);
    const names = ((await sources.json()) as { name: string }[]).map((playlist) => playlist.name);
    expect(names).toContainEqual(expect.stringMatching(/^Road Trip \(Spotify backup \d{4}-\d{2}-\d{2}\)$/));
  });
});

test('people on another plan see what Vault+ offers and where to get it', async ({ page }) => {
  await registerThroughApi(page, uniqueUser('free'));
  await page.goto('/vault');
  await expect(page.getByRole('heading', { level: 1, name: 'Vault+' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Daily backups' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Back up now' })).toHaveCount(0);
  await page.getByRole('link', { name: 'See plans and pricing' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
});
