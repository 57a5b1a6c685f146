import { expect, type Page, test } from '@playwright/test';
import { expectAxeClean } from './support/axe';
import { connectThroughUi } from './support/services';
import { registerThroughApi } from './support/users';

/**
 * Issue 21 item 4 (decision 0022): "Open in …" leads to the emulators' own pages, where the signed-in
 * owner adds a song found by search, removes one and moves one, by mouse or keyboard, as in the services'
 * apps; Crossfade then reads the changed playlist.
 */
test.describe.configure({ timeout: 180_000 });

type Service = 'spotify' | 'apple';
const PAGES: Record<Service, (id: string) => string> = {
  spotify: (id) => `/sandbox/spotify/api/open/playlist/${id}`,
  apple: (id) => `/sandbox/apple/web/library/playlist/${id}`,
};

async function roadTrip(page: Page, service: Service) {
  const listing = (await (await page.request.get(`/api/playlists/${service}`)).json()) as {
    id: string;
    name: string;
    trackCount: number;
  }[];
  const found = listing.find((playlist) => playlist.name === 'Road Trip');
  expect(found).toBeDefined();
  return found as { id: string; trackCount: number };
}

/** Edits the playlist on the service's own page; answers the title added and the one now first. */
async function editOnServicePage(page: Page, service: Service, id: string) {
  await page.goto(PAGES[service](id));
  const songs = page.getByRole('list', { name: 'Songs' });
  const status = page.getByRole('status');
  const search = page.getByRole('searchbox', { name: 'Search for songs' });
  const titleOf = async (index: number) =>
    (await songs.getByRole('listitem').nth(index).locator('span').first().textContent()) ?? '';
  const [first, second] = [await titleOf(0), await titleOf(1)];
  await expectAxeClean(page, `${service} playlist page`);

  // Two songs found by search, each added with "Add" (the search box keeps the focus for the next one).
  await search.fill('love');
  await search.press('Enter');
  const results = page.getByRole('list', { name: 'Search results' });
  const added: string[] = [];
  for (const index of [0, 1]) {
    const result = results.getByRole('listitem').nth(index);
    added.push((await result.locator('span').first().textContent()) ?? '');
    await result.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(status).toHaveText('Added to the end of the playlist.');
    await expect(search).toBeFocused();
  }
  // "Remove" the first song.
  await songs.getByRole('listitem').first().getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(status).toHaveText('Removed from the playlist.');
  await expect(songs.getByRole('listitem').first()).toContainText(second);
  // The keyboard: the (new) second song moves up with Enter, and the focus stays with it.
  const third = await titleOf(1);
  await songs.getByRole('listitem').nth(1).getByRole('button', { name: 'Move up', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(status).toHaveText('Moved up.');
  await expect(songs.getByRole('listitem').first()).toContainText(third);
  await expect(songs.getByRole('listitem').first().getByRole('button', { name: 'Move down' })).toBeFocused();
  await expectAxeClean(page, `${service} playlist page after edits`);
  expect(first).not.toBe(third);
  return { added, first: third };
}

test('both sandbox pages edit a playlist as the apps do, and Crossfade reads the change', async ({
  page,
}) => {
  await registerThroughApi(page);
  await connectThroughUi(page, 'Spotify');
  await connectThroughUi(page, 'Apple Music');

  for (const [service, other] of [
    ['spotify', 'apple'],
    ['apple', 'spotify'],
  ] as const) {
    const playlist = await roadTrip(page, service);
    const { added, first } = await editOnServicePage(page, service, playlist.id);

    // Crossfade's step 2 counts the two added and the one removed; step 3 reads the songs in order.
    await page.goto(`/transfer?from=${service}&to=${other}`);
    await page.getByRole('button', { name: 'Continue' }).click();
    const card = page
      .getByRole('list', { name: 'Your playlists' })
      .getByRole('button', { name: /^Road Trip\b/ });
    await expect(card).toContainText(`${playlist.trackCount + 1} tracks`);
    await card.click();
    await page.getByRole('button', { name: 'Continue' }).click();
    const results = page.getByRole('region', { name: 'Match results' });
    await expect(results).toBeVisible({ timeout: 60_000 });
    // The song moved up leads the list; the two added close it (the list draws what is on screen).
    await expect(results.getByText('Source:').first()).toBeVisible();
    await expect(results).toContainText(`Source: ${first}`);
    await results.evaluate((list) => list.scrollTo({ top: list.scrollHeight }));
    for (const title of added) await expect(results).toContainText(`Source: ${title}`);
  }

  // Someone else's browser (no sandbox session) is asked to log in, and sees none of it.
  const playlist = await roadTrip(page, 'spotify');
  const browser = page.context().browser();
  if (!browser) throw new Error('the test runs in a browser');
  const stranger = await browser.newContext();
  try {
    const strangerPage = await stranger.newPage();
    const answer = await strangerPage.goto(new URL(PAGES.spotify(playlist.id), page.url()).toString());
    expect(answer?.status()).toBe(401);
    await expect(strangerPage.getByRole('heading', { level: 1 })).toHaveText('Log in to see this playlist');
  } finally {
    await stranger.close();
  }
});
