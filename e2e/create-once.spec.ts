import { expect, type Page, test } from '@playwright/test';
import { connectThroughUi } from './support/services';
import { expectToast } from './support/toasts';
import { registerThroughApi } from './support/users';

test.describe.configure({ timeout: 120_000 });

/** The person's Spotify playlists as Crossfade lists them (the emulator's, read again each time). */
async function spotifyPlaylists(page: Page) {
  const response = await page.request.get('/api/playlists/spotify');
  expect(response.ok()).toBe(true);
  return (await response.json()) as { id: string; name: string }[];
}

/**
 * Issue 20 item 9 as it was found: "Create Optimized Playlist" clicked twice made two playlists. A double
 * click faster than the page can disable its button, and another click once it is done, leave one
 * playlist in the destination; the create went out once, with an Idempotency-Key.
 */
test('a double click on "Create Optimized Playlist" creates one playlist', async ({ page }) => {
  await registerThroughApi(page);
  await connectThroughUi(page, 'Spotify', { secondDemoListener: true });
  const around = (await spotifyPlaylists(page)).find((playlist) => playlist.name === 'Around the World');
  expect(around).toBeDefined();
  const madeBefore = (await spotifyPlaylists(page)).filter((p) => p.name === 'Around the World (JP)').length;

  const creates: (string | null)[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/create-region-optimized-playlist'))
      creates.push(request.headers()['idempotency-key'] ?? null);
  });

  await page.goto('/geo-lock');
  await page.getByLabel('Playlist URL').fill(`https://open.spotify.com/playlist/${around?.id}`);
  await page.getByLabel('Source region').selectOption('US');
  await page.getByLabel('Target region').selectOption('JP');
  await page.getByRole('button', { name: 'Analyze Playlist' }).click();
  await expect(page.getByTestId('geo-summary')).toBeVisible();

  const create = page.getByRole('button', { name: /^(Create Optimized Playlist|Playlist created)$/ });
  // The quickest double click there is: both clicks in one task, before the page can disable anything.
  await create.evaluate((button: HTMLButtonElement) => {
    button.click();
    button.click();
  });
  await expectToast(page, 'Playlist created');
  // Done: the same choices are not made into a second copy by another click.
  await create.click({ force: true });
  await expect(create).toHaveText('Playlist created');
  await expect(create).toBeDisabled();

  const made = (await spotifyPlaylists(page)).filter((p) => p.name === 'Around the World (JP)');
  expect(made).toHaveLength(madeBefore + 1);
  expect(creates).toHaveLength(1);
  expect(creates[0]).toMatch(/^[0-9a-f]{32}$/);
});
