import { expect, type Page, test } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { users } from '../src/server/db/schema';
import type { NormalizedTrack } from '../src/server/providers/types';
import type { SyncList } from '../src/shared/api/syncs';
import { expectAxeClean } from './support/axe';
import { type OwnServer, signUpConnected, startOwnServer } from './support/own-server';
import { expectToast } from './support/toasts';

/**
 * Issue 21's "Done when" for two-way sync, in the browser: a Pro member creates a two-way sync between a
 * Spotify playlist and a new Apple Music playlist on /syncs; on the sandbox's Apple page they add two songs
 * and remove one, on the Spotify page they add one; the run copies the three adds to the other sides and
 * applies the Apple removal to Spotify (removals on). Two-way is Pro, so (as syncs.spec.ts) the file runs
 * a server of its own whose database it can reach.
 */
test.describe.configure({ timeout: 240_000 });

let app: OwnServer;
test.beforeAll(async () => {
  app = await startOwnServer('two-way');
});
test.afterAll(async () => {
  await app?.close();
});

interface Twin {
  spotify: NormalizedTrack;
  apple: NormalizedTrack;
}

/** Songs of the person's library both services carry under one ISRC, titled alike, titles distinct. */
async function twins(userId: string): Promise<Twin[]> {
  const spotify = await app.deps.providers.forUser(userId, 'spotify');
  const apple = await app.deps.providers.forUser(userId, 'apple');
  const tracks: NormalizedTrack[] = [];
  for (const playlist of await spotify.listPlaylists()) {
    if (playlist.isOwned === false || playlist.id.includes(':')) continue;
    for (const entry of (await spotify.getPlaylist(playlist.id)).entries)
      if (entry.kind === 'track' && entry.track.isrc && !tracks.some((t) => t.isrc === entry.track.isrc))
        tracks.push(entry.track);
  }
  const onApple = await apple.lookupIsrcs(tracks.map((track) => track.isrc?.toUpperCase() ?? ''));
  const titles = new Set<string>();
  return tracks.flatMap((track) => {
    const found = onApple.get(track.isrc?.toUpperCase() ?? '') ?? [];
    const twin = found[0];
    if (!twin || found.length !== 1 || twin.name !== track.name || titles.has(track.name)) return [];
    if (twin.artists.join() !== track.artists.join() || /[^\x20-\x7e]/.test(track.name)) return [];
    titles.add(track.name);
    return [{ spotify: track, apple: twin }];
  });
}

/** On a sandbox playlist page: search the song by its title and press "Add" on its row. */
async function addOnPage(page: Page, path: string, track: NormalizedTrack) {
  await page.goto(`${app.url}${path}`);
  const search = page.getByRole('searchbox', { name: 'Search for songs' });
  await search.fill(track.name);
  await search.press('Enter');
  const row = page
    .getByRole('list', { name: 'Search results' })
    .getByRole('listitem')
    .filter({ hasText: track.name })
    .filter({ hasText: track.artists[0] ?? '' })
    .first();
  await row.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('status')).toHaveText('Added to the end of the playlist.');
}

test('a two-way sync copies adds both ways and applies an Apple Music removal to Spotify', async ({
  page,
}) => {
  const user = await signUpConnected(page, app, 'twoway', 'pro');
  const [row] = await app.deps.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.username, user.username));
  const userId = row?.id ?? '';
  const songs = await twins(userId);
  expect(songs.length).toBeGreaterThanOrEqual(15);
  const spotify = await app.deps.providers.forUser(userId, 'spotify');
  const source = await spotify.createPlaylist('Both ways in the browser');
  await spotify.addTracks(
    source.id,
    songs.slice(0, 12).map((song) => song.spotify.uri),
  );

  await page.goto(`${app.url}/syncs`);
  const form = page.getByRole('form', { name: 'New sync' });
  await form.getByLabel('Source playlist').selectOption({ label: 'Both ways in the browser' });
  await form.getByLabel('Schedule').selectOption('manual');
  await form.getByRole('radio', { name: /Two ways/ }).check();
  await expect(form).toContainText('the add wins');
  await form.getByRole('checkbox', { name: /Apply removals to the other side/ }).check();
  await form.getByRole('button', { name: 'Create sync' }).click();
  await expectToast(page, 'Sync created');

  const sync = page.getByRole('article', { name: 'Sync of Both ways in the browser' });
  await expect(sync).toContainText('Two-way');
  await expect(sync).toContainText('the add wins');
  await expect(sync).toContainText('Last run: Done (preview)', { timeout: 60_000 });
  await sync.getByRole('button', { name: 'History' }).click();
  const history = sync.getByRole('list', { name: 'Run history' });
  await expect(history.getByRole('listitem').first()).toContainText('Apple Music: 12 would be added');
  await sync.getByRole('button', { name: 'Run now' }).click();
  await expect(history.getByRole('listitem')).toHaveCount(2, { timeout: 60_000 });
  await expect(history.getByRole('listitem').first()).toContainText('verified: 12 of 12', {
    timeout: 60_000,
  });
  await expectAxeClean(page, 'two-way sync');

  const list = (await (await page.request.get(`${app.url}/api/syncs`)).json()) as SyncList;
  const appleId = list.syncs[0]?.destinationPlaylistId ?? '';
  const [removed, appleOne, appleTwo, spotifyOne] = [songs[0], songs[12], songs[13], songs[14]];
  if (!removed || !appleOne || !appleTwo || !spotifyOne) throw new Error('too few songs');

  // On the Apple page: two songs added, one removed; on the Spotify page: one added.
  const applePage = `/sandbox/apple/web/library/playlist/${appleId}`;
  await addOnPage(page, applePage, appleOne.apple);
  await addOnPage(page, applePage, appleTwo.apple);
  await page
    .getByRole('list', { name: 'Songs' })
    .getByRole('listitem')
    .filter({ hasText: removed.apple.name })
    .getByRole('button', { name: 'Remove', exact: true })
    .click();
  await expect(page.getByRole('status')).toHaveText('Removed from the playlist.');
  await addOnPage(page, `/sandbox/spotify/api/open/playlist/${source.id}`, spotifyOne.spotify);

  await page.goto(`${app.url}/syncs`);
  await sync.getByRole('button', { name: 'Run now' }).click();
  await sync.getByRole('button', { name: 'History' }).click();
  await expect(history.getByRole('listitem')).toHaveCount(3, { timeout: 60_000 });
  const last = history.getByRole('listitem').first();
  await expect(last).toContainText('Apple Music: 1 added, 0 removed · Spotify: 2 added, 1 removed', {
    timeout: 60_000,
  });
  const onSpotify = (await spotify.getPlaylist(source.id)).entries.flatMap((entry) =>
    entry.kind === 'track' ? [entry.track.isrc?.toUpperCase()] : [],
  );
  const expected = [...songs.slice(1, 12), spotifyOne, appleOne, appleTwo].map((song) =>
    song.spotify.isrc?.toUpperCase(),
  );
  expect(onSpotify).toEqual(expected);
});
