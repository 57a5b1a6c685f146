import { expect, type Page, test } from '@playwright/test';
import { connectThroughUi } from './support/services';
import { expectToast } from './support/toasts';
import { registerThroughApi } from './support/users';

test.describe.configure({ timeout: 120_000 });

const featureTab = (page: Page, name: string) =>
  page.getByRole('tablist', { name: 'Features' }).getByRole('tab', { name });

const mergePicker = (page: Page) => page.getByRole('group', { name: 'Your playlist' });

/** Moves inside the app the way a link does, so the page (and what it has cached) stays. */
async function openInApp(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect(page).toHaveURL(new RegExp(`${path}$`));
}

test('the Export tab and the merge picker list a playlist imported a moment before, without a reload', async ({
  page,
}) => {
  await registerThroughApi(page);
  await connectThroughUi(page, 'Spotify');
  await connectThroughUi(page, 'Apple Music');

  // Both lists are read once and kept: data never goes stale on its own.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Features' }).click();
  await featureTab(page, 'Export Options').click();
  const exportPicker = page.getByLabel('Playlist');
  // The person's own sandbox library: Road Trip holds as many tracks as their demo library gave it.
  await expect(
    exportPicker.locator('option', { hasText: /^Road Trip \(Spotify, \d+ tracks\)$/ }),
  ).toHaveCount(1);
  await expect(exportPicker.locator('option', { hasText: 'Imported Mixtape' })).toHaveCount(0);
  await featureTab(page, 'Friend Merge').click();
  await expect(
    mergePicker(page)
      .getByRole('button', { name: /^Road Trip\b/ })
      .first(),
  ).toBeVisible();
  await expect(mergePicker(page).getByRole('button', { name: /^Imported Mixtape\b/ })).toHaveCount(0);
  // Set on this page load; still there at the end proves the app was never reloaded.
  await page.evaluate(() => Reflect.set(window, 'crossfadeSameLoad', true));

  await openInApp(page, '/transfer');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/playlists$/);
  await page.getByLabel('CSV file to import').setInputFiles({
    name: 'Imported Mixtape.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('Track Name,Artist,Album\nHello,Adele,25\nSomeone Like You,Adele,21\n'),
  });
  await expectToast(page, 'Playlist imported');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Features' }).click();
  await featureTab(page, 'Export Options').click();
  await expect(
    exportPicker.locator('option', { hasText: 'Imported Mixtape (imported file, 2 tracks)' }),
  ).toHaveCount(1);
  await featureTab(page, 'Friend Merge').click();
  await expect(
    mergePicker(page)
      .getByRole('button', { name: /^Imported Mixtape\b/ })
      .first(),
  ).toBeVisible();
  expect(await page.evaluate(() => Reflect.get(window, 'crossfadeSameLoad'))).toBe(true);
});
