import { expect, type Page, test } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { users } from '../src/server/db/schema';
import { csrfHeaders, type OwnServer, registerOn, startOwnServer } from './support/own-server';
import { connectThroughUi } from './support/services';
import { expectToast, notifications } from './support/toasts';
import { registerThroughApi } from './support/users';

/**
 * Save to Cloud on the person's own Google Drive and Dropbox (issue 23, decision 0027), in the export
 * panel, against the sandbox's emulators: connect through their consent pages, save, and find the file on
 * the drive's own page. Vault+ is needed, so this file runs a server of its own whose database it reaches.
 */

const picker = (page: Page) => page.getByLabel('Playlist');

async function openExportPanel(page: Page, url: string) {
  await page.goto(`${url}/visualizations?tab=export-options`);
  await expect(page.getByRole('heading', { name: 'Export Options' })).toBeVisible();
  await expect(
    picker(page).locator('option', { hasText: /^Road Trip \(Spotify, \d+ tracks\)$/ }),
  ).toHaveCount(1, {
    timeout: 30_000,
  });
}

async function chooseRoadTrip(page: Page) {
  const label = await picker(page)
    .locator('option', { hasText: /^Road Trip \(Spotify, \d+ tracks\)$/ })
    .textContent();
  await picker(page).selectOption({ label: label ?? '' });
}

test.describe('Save to Cloud', () => {
  test.describe.configure({ timeout: 150_000 });
  let own: OwnServer;
  test.beforeAll(async () => {
    own = await startOwnServer('cloud');
  });
  test.afterAll(async () => {
    await own?.close();
  });

  for (const { drive, format, consent, fileName, contains } of [
    {
      drive: 'Google Drive',
      format: 'CSV',
      consent: 'Allow',
      fileName: 'Road-Trip.csv',
      contains: 'Track Name,Artist,Album,Duration',
    },
    {
      drive: 'Dropbox',
      format: 'JSON',
      consent: 'Allow',
      fileName: 'Road-Trip.json',
      contains: '"name": "Road Trip"',
    },
  ]) {
    test(`Save to ${drive} leaves the ${format} export on the ${drive} emulator’s page`, async ({ page }) => {
      const user = await registerOn(page, own.url, 'cloud');
      await own.deps.db.update(users).set({ plan: 'vault' }).where(eq(users.username, user.username));
      await page.goto(`${own.url}/transfer`);
      await page.getByRole('button', { name: 'Connect Spotify' }).click();
      await page.getByRole('button', { name: 'Agree', exact: true }).click();
      await expectToast(page, 'Connected to Spotify');

      await openExportPanel(page, own.url);
      await chooseRoadTrip(page);
      await page.getByRole('tab', { name: format }).click();
      const save = page.getByRole('button', { name: `Save to ${drive}` });
      // Not connected yet: the button says why and what to do next.
      await expect(save).toBeDisabled();
      await expect(save).toHaveAccessibleDescription(`Connect ${drive} first.`);

      await page.getByRole('button', { name: `Connect ${drive}` }).click();
      await page.getByRole('button', { name: consent, exact: true }).click();
      await expect(page).toHaveURL(/\/visualizations\?tab=export-options$/);
      await expectToast(page, `Connected to ${drive}`);
      const row = page.getByTestId(drive === 'Dropbox' ? 'drive-dropbox' : 'drive-google-drive');
      await expect(row).toContainText(/Connected as .+@sandbox\.example/);

      await chooseRoadTrip(page);
      await page.getByRole('tab', { name: format }).click();
      await expect(save).toBeEnabled();
      await save.click();
      await expectToast(page, 'Export Complete');
      await expect(notifications(page)).toContainText(`Saved ${fileName}`);

      // The drive's own page, in this browser (signed in there at consent), shows the file and its content.
      const drivePage = await row.getByRole('link', { name: `Open ${drive}` }).getAttribute('href');
      await page.goto(drivePage ?? '');
      await page
        .getByRole('link', { name: new RegExp(fileName.replace('.', '\\.')) })
        .first()
        .click();
      await expect(page.locator('pre')).toContainText(contains);
    });
  }

  test('another person does not see those files on the drive’s page', async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${own.url}/sandbox/google-drive/drive/my-drive`);
    await expect(page.getByRole('heading', { name: 'Sign in to Google Drive' })).toBeVisible();
    await expect(page.getByText('Road-Trip.csv')).toHaveCount(0);
    await page.goto(`${own.url}/sandbox/dropbox/www/home`);
    await expect(page.getByRole('heading', { name: 'Sign in to Dropbox' })).toBeVisible();
    await context.close();
  });
});

test('the export picker shows an unreadable playlist disabled with its reason, and a failed export shows the server’s reason', async ({
  page,
}) => {
  await registerThroughApi(page);
  await connectThroughUi(page, 'Spotify');
  await page.goto('/visualizations?tab=export-options');
  const followed = picker(page).locator('option', { hasText: /^Fresh Finds Friday/ });
  await expect(followed).toHaveCount(1, { timeout: 30_000 });
  await expect(followed).toBeDisabled();
  await expect(page.getByTestId('unreadable-playlist').filter({ hasText: 'Fresh Finds Friday' })).toHaveText(
    'Fresh Finds Friday: This playlist belongs to someone else; Spotify lets this app read only your own playlists. Import it as a CSV (Exportify) instead.',
  );
  await expect(page.getByRole('button', { name: 'Save to Google Drive' })).toHaveAccessibleDescription(
    'Save to Cloud needs Vault+.',
  );

  // Spotify disconnected in another tab: the export the page still offers fails, and says why.
  await chooseRoadTrip(page);
  const disconnected = await page.request.post('/api/auth/spotify/disconnect', {
    headers: await csrfHeaders(page, new URL(page.url()).origin),
  });
  expect(disconnected.status()).toBe(204);
  await page.getByRole('button', { name: 'Export CSV' }).click();
  await expectToast(page, 'Export Failed');
  await expect(notifications(page)).toContainText('There was a problem exporting your playlist');
  await expect(notifications(page)).toContainText('Please connect to Spotify before continuing.');
});
