import { expect, test } from '@playwright/test';
import { PUBLIC_ROUTES } from './support/routes';

test('home page pitches the product and Get Started leads to the transfer wizard', async ({ page }) => {
  await page.goto('/');
  await expect(
    page.getByRole('heading', { level: 1, name: /Transfer your playlists between Spotify and Apple Music/ }),
  ).toBeVisible();
  for (const feature of ['One-Click Transfer', 'Smart Matching', 'CSV Export']) {
    await expect(page.getByRole('heading', { level: 3, name: feature })).toBeVisible();
  }
  await expect(page.getByText(/Matched by ISRC and metadata/)).toBeVisible();

  await page.getByRole('main').getByRole('link', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/transfer$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Transfer Playlists');
});

test('an unknown path shows the 404 page, with HTTP status 404', async ({ page }) => {
  const response = await page.goto('/this/route/does/not/exist');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Page Not Found');
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
});

test('header and footer link to the shared destinations', async ({ page }) => {
  await page.goto('/help');
  const header = page.getByRole('banner');
  await header.getByRole('link', { name: 'Features' }).click();
  await expect(page).toHaveURL(/\/visualizations$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Features');

  const footer = page.getByRole('contentinfo');
  await expect(footer).toContainText('not affiliated with Apple Inc. or Spotify AB');
  await footer.getByRole('link', { name: 'Privacy Policy' }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await footer.getByRole('link', { name: 'Terms of Service' }).click();
  await expect(page).toHaveURL(/\/terms$/);
  await footer.getByRole('link', { name: 'Help' }).click();
  await expect(page).toHaveURL(/\/help$/);

  await header.getByRole('link', { name: /Crossfade/ }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('every route answers a direct load with exactly one h1', async ({ page }) => {
  for (const route of PUBLIC_ROUTES) {
    await page.goto(route.path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(route.heading);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  }
});

test('the skip link moves keyboard focus past the header to the main content', async ({ page }) => {
  await page.goto('/');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
});
