import { expect, test } from '@playwright/test';
import { registerThroughApi, uniqueUser } from './support/users';

test('choosing the same service for both ends flips the destination, and Continue opens the wizard', async ({
  page,
}) => {
  await page.goto('/service-selection');
  const from = page.getByRole('group', { name: 'Transfer from' });
  const to = page.getByRole('group', { name: 'Transfer to' });
  await expect(from.getByLabel('Spotify')).toBeChecked();
  await expect(to.getByLabel('Apple Music')).toBeChecked();

  await from.getByText('Apple Music').click();
  await expect(from.getByLabel('Apple Music')).toBeChecked();
  await expect(to.getByLabel('Spotify')).toBeChecked();

  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/transfer\?from=apple&to=spotify$/);
  const stored = await page.evaluate(() => sessionStorage.getItem('crossfade.services'));
  expect(JSON.parse(stored ?? 'null')).toEqual({ from: 'apple', to: 'spotify' });
});

test('the service radios work from the keyboard', async ({ page }) => {
  await page.goto('/service-selection');
  const from = page.getByRole('group', { name: 'Transfer from' });
  await from.getByLabel('Spotify').focus();
  await page.keyboard.press('ArrowRight');
  await expect(from.getByLabel('Apple Music')).toBeChecked();
  await expect(page.getByRole('group', { name: 'Transfer to' }).getByLabel('Spotify')).toBeChecked();
});

test('services chosen on /service-selection are not asked for again: step 1 only connects, then step 2 opens', async ({
  page,
}) => {
  await registerThroughApi(page, uniqueUser('chosen'));
  await page.goto('/service-selection');
  await page.getByRole('group', { name: 'Transfer from' }).getByText('Apple Music').click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/transfer\?from=apple&to=spotify$/);
  // Step 1 names the choice instead of asking for it again, and asks only for the connections.
  await expect(page.getByText(/From Apple Music to Spotify, as you chose/)).toBeVisible();
  await expect(page.getByRole('group', { name: 'Transfer from' })).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'Transfer to' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Connect Spotify' }).click();
  await page.getByRole('button', { name: 'Agree', exact: true }).click();
  await expect(page).toHaveURL(/\/transfer$/);
  await page.getByRole('button', { name: 'Connect Apple Music' }).click();
  await page.getByRole('button', { name: 'Allow', exact: true }).click();
  // With both connected, the wizard goes on to step 2 by itself.
  await expect(page).toHaveURL(/\/playlists$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Select Playlist');
  // Back returns to step 1, which now offers the services to change.
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL(/\/transfer$/);
  await expect(page.getByRole('group', { name: 'Transfer from' }).getByLabel('Apple Music')).toBeChecked();

  // Connected already: Continue on /service-selection opens step 2 straight away.
  await page.goto('/service-selection');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/playlists$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Select Playlist');
});
