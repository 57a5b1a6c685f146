import { expect, test } from '@playwright/test';
import { expectToast } from './support/toasts';
import { registerThroughApi } from './support/users';

test('a pasted list becomes a playlist that opens the wizard at the matching step', async ({ page }) => {
  await registerThroughApi(page);
  await page.goto('/recreate');
  const form = page.getByRole('form', { name: 'Paste a list of songs' });
  await form.getByRole('button', { name: 'Rebuild playlist' }).click();
  await expectToast(page, 'Missing information', 'Please enter a name for the playlist');

  await form.getByLabel('Playlist name').fill('Road trip 2019');
  await form
    .getByLabel('Songs, one per line')
    .fill('Daft Punk - One More Time\n%%%\nHey Jude by The Beatles');
  await form.getByRole('button', { name: 'Rebuild playlist' }).click();

  const ready = page.getByRole('region', { name: 'Playlist ready' });
  await expect(ready.getByText('2 songs are ready to be matched.')).toBeVisible();
  await expect(ready.getByText("Line 2 doesn't look like a song.")).toBeVisible();
  await ready.getByLabel('Apple Music').check();
  await ready.getByRole('button', { name: 'Match songs' }).click();

  await expect(page).toHaveURL(/\/matches$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Match Songs' })).toBeVisible();
});

test('signed out, /recreate asks to sign in', async ({ page }) => {
  await page.goto('/recreate');
  await expect(page.getByRole('heading', { name: 'Sign in to recreate a playlist' })).toBeVisible();
});
