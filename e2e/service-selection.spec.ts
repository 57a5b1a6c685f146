import { expect, test } from '@playwright/test';

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
