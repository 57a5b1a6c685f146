import { expect, test } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { users } from '../src/server/db/schema';
import { type OwnServer, registerOn, startOwnServer } from './support/own-server';
import { expectToast } from './support/toasts';
import { registerThroughApi, uniqueUser } from './support/users';

/**
 * The Vault+ journey needs a person on the Vault+ plan. Plans change only through the operator CLI or the
 * database, and the shared e2e server's embedded database belongs to its own process, so this file runs
 * the same app and built web app on a server of its own, whose database it can reach.
 */
test.describe('Vault+ member', () => {
  test.describe.configure({ timeout: 150_000 });
  let vault: OwnServer;
  test.beforeAll(async () => {
    vault = await startOwnServer('vault');
  });
  test.afterAll(async () => {
    await vault?.close();
  });

  test('backs up now, sees the backup with its playlists, and restores one into the wizard', async ({
    page,
  }) => {
    const user = await registerOn(page, vault.url, 'vault');
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
    const backup = backups.getByRole('listitem').filter({ hasText: 'Spotify backup' });
    await expect(backup).toHaveCount(1);
    await expect(backup).toContainText('Backed up by you');
    await backup.getByRole('button', { name: 'Show playlists' }).click();
    const roadTrip = backup.locator('details').filter({ hasText: 'Road Trip' });
    await roadTrip.locator('summary').click();
    await expect(roadTrip.getByRole('listitem').first()).toBeVisible();

    await roadTrip.getByRole('button', { name: 'Restore Road Trip to Apple Music' }).click();
    await expect(page).toHaveURL(/\/matches$/);
    // The restored playlist is now an import of the person's (whether the wizard has taken its handoff
    // from sessionStorage yet is a race, so nothing is asserted on it).
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
