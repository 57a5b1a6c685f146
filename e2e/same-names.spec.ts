import { expect, type Locator, test } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { users } from '../src/server/db/schema';
import { type OwnServer, signUpConnected, startOwnServer } from './support/own-server';

/**
 * Issue 23 item 3: two playlists of one name ("Road Trip" twice on Apple Music, "Late Night Jazz" twice on
 * Spotify) can be told apart wherever playlists are picked: step 2, the batch picker, the sync picker and the
 * export picker each say what differs (owner, track count, last change, cover). The second copies are made on
 * the emulators as the person would make them in the services' own apps, so this file runs a server of its
 * own (a Pro member, for batches and sync).
 */
test.describe.configure({ timeout: 150_000 });
let app: OwnServer;
test.beforeAll(async () => {
  app = await startOwnServer('twins');
});
test.afterAll(async () => {
  await app?.close();
});

async function expectTwoDistinct(texts: Locator, label: string) {
  await expect(texts, label).toHaveCount(2);
  const [first, second] = await texts.allTextContents();
  expect(first, label).not.toBe('');
  expect(first, label).not.toBe(second);
}

test('same-named playlists say what tells them apart in step 2 and in the batch, sync and export pickers', async ({
  page,
}) => {
  const user = await signUpConnected(page, app, 'twins', 'pro');
  const [row] = await app.deps.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.username, user.username));
  const userId = row?.id ?? '';
  const apple = await app.deps.providers.forUser(userId, 'apple');
  const spotify = await app.deps.providers.forUser(userId, 'spotify');
  const appleRoadTrip = (await apple.listPlaylists()).find((playlist) => playlist.name === 'Road Trip');
  expect(appleRoadTrip, 'the demo library has a Road Trip on Apple Music').toBeDefined();
  const spotifyJazz = (await spotify.listPlaylists()).find((playlist) => playlist.name === 'Late Night Jazz');
  expect(spotifyJazz, 'the demo library has a Late Night Jazz on Spotify').toBeDefined();
  await apple.createPlaylist('Road Trip');
  // The Spotify copy gets two of the original's songs, so every picker (the merge one lists only playlists
  // with songs) shows both.
  const jazzCopy = await spotify.createPlaylist('Late Night Jazz');
  const jazzUris = (await spotify.getPlaylist(spotifyJazz?.id ?? '')).entries.flatMap((entry) =>
    entry.kind === 'track' ? [entry.track.uri] : [],
  );
  await spotify.addTracks(jazzCopy.id, jazzUris.slice(0, 2));

  // Step 2, from Apple Music: the two Road Trips' cards each say what differs.
  await page.goto(`${app.url}/transfer?from=apple&to=spotify`);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/playlists$/);
  await page.getByPlaceholder('Search your playlists...').fill('Road Trip');
  const cards = page
    .getByRole('list', { name: 'Your playlists' })
    .getByRole('button', { name: /^Road Trip\b/ });
  await expect(cards).toHaveCount(2, { timeout: 30_000 });
  await expectTwoDistinct(cards.getByTestId('same-name-details'), 'step 2');
  await expect(cards.getByTestId('same-name-details').first()).toContainText(/tracks?/);
  // A playlist with a name of its own says nothing more.
  await page.getByPlaceholder('Search your playlists...').fill('Gym Rotation');
  await expect(page.getByTestId('same-name-details')).toHaveCount(0);
  await page.getByPlaceholder('Search your playlists...').fill('');

  // The batch picker on the same page.
  await page.getByRole('button', { name: 'Move several playlists at once' }).click();
  const picker = page.getByRole('region', { name: /Move several playlists to Spotify/ });
  await expectTwoDistinct(picker.getByRole('listitem').filter({ hasText: /^Road Trip\b/ }), 'batch picker');

  // The sync picker: Spotify's two Late Night Jazz.
  await page.goto(`${app.url}/syncs`);
  const source = page.getByLabel('Source playlist');
  await expectTwoDistinct(source.locator('option', { hasText: /^Late Night Jazz — / }), 'sync picker');

  // The merge picker.
  await page.goto(`${app.url}/merge`);
  await expectTwoDistinct(
    page
      .locator('fieldset')
      .first()
      .getByRole('button', { name: /^Late Night Jazz/ })
      .filter({ hasText: /Spotify$/ }),
    'merge picker',
  );

  // The export picker.
  await page.goto(`${app.url}/visualizations?tab=export-options`);
  const exportPicker = page.getByLabel('Playlist', { exact: true });
  await expectTwoDistinct(
    exportPicker.locator('option', { hasText: /^Late Night Jazz \(Spotify, \d+ tracks?\) — / }),
    'export picker',
  );
});
