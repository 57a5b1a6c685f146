import { expect, test } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { users } from '../src/server/db/schema';
import { expectAxeClean } from './support/axe';
import { type OwnServer, signUpConnected, startOwnServer } from './support/own-server';
import { expectToast } from './support/toasts';
import { registerThroughApi, uniqueUser } from './support/users';

/**
 * Sync (issue 14) in the browser: a Pro member creates a sync on /syncs (reached from the account page),
 * sees the first run as a preview, runs it, adds songs to the source and sees exactly those added and
 * verified, then nothing the next time. Sync needs the Pro plan, which changes only through the operator
 * CLI or the database, so (like vault.spec.ts) this file runs the app and the built web app on a server
 * of its own, whose database it can reach.
 */
test.describe('Pro member', () => {
  test.describe.configure({ timeout: 150_000 });
  let app: OwnServer;
  test.beforeAll(async () => {
    app = await startOwnServer('sync');
  });
  test.afterAll(async () => {
    await app?.close();
  });

  test('creates a sync, previews it, runs it, and a second run adds only what is new', async ({ page }) => {
    const user = await signUpConnected(page, app, 'sync', 'pro');
    const [row] = await app.deps.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.username, user.username));
    const userId = row?.id ?? '';

    // A small source playlist on the emulated Spotify, as the person would make it in the Spotify app.
    const spotify = await app.deps.providers.forUser(userId, 'spotify');
    const roadTrip = (await spotify.listPlaylists()).find((playlist) => playlist.name === 'Road Trip');
    // Songs Apple Music carries too, each recording once (the person's own library may hold a song that is
    // not on Apple, or one recording twice): the figures below are then the same for every sandbox account.
    const isrcs = new Set<string>();
    const candidates = (await spotify.getPlaylist(roadTrip?.id ?? '')).entries.flatMap((entry) => {
      const isrc = entry.kind === 'track' ? entry.track.isrc?.toUpperCase() : undefined;
      if (entry.kind !== 'track' || !isrc || isrcs.has(isrc)) return [];
      isrcs.add(isrc);
      return [{ track: entry.track, isrc }];
    });
    const apple = await app.deps.providers.forUser(userId, 'apple');
    const region = (await app.deps.providers.connections.get(userId, 'apple'))?.region;
    const onApple = await apple.lookupIsrcs(
      candidates.map((candidate) => candidate.isrc),
      region ? { region } : {},
    );
    const tracks = candidates
      .filter((candidate) => (onApple.get(candidate.isrc)?.length ?? 0) > 0)
      .map((candidate) => candidate.track);
    const source = await spotify.createPlaylist('Synced in the browser');
    await spotify.addTracks(
      source.id,
      tracks.slice(0, 3).map((track) => track.uri),
    );

    await page.goto(`${app.url}/account`);
    await page.getByRole('link', { name: 'See and manage your syncs' }).click();
    await expect(page).toHaveURL(/\/syncs$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Syncs' })).toBeVisible();
    const form = page.getByRole('form', { name: 'New sync' });
    await form.getByLabel('Source playlist').selectOption({ label: 'Synced in the browser' });
    await form.getByLabel('Schedule').selectOption('daily');
    await form.getByRole('button', { name: 'Create sync' }).click();
    await expectToast(page, 'Sync created');

    const sync = page.getByRole('article', { name: 'Sync of Synced in the browser' });
    await expect(sync).toContainText('Last run: Done (preview)', { timeout: 30_000 });
    await sync.getByRole('button', { name: 'History' }).click();
    const history = sync.getByRole('list', { name: 'Run history' });
    await expect(history.getByRole('listitem').first()).toContainText('3 would be added');
    await expectAxeClean(page, 'syncs');

    await sync.getByRole('button', { name: 'Run now' }).click();
    await expect(history.getByRole('listitem')).toHaveCount(2, { timeout: 30_000 });
    await expect(history.getByRole('listitem').first()).toContainText('verified: 3 of 3', {
      timeout: 30_000,
    });
    // The first real run made the playlist on Apple Music: the form's list of Apple playlists (read before
    // the run, and never stale on its own) offers it without a reload.
    await expect(
      form.getByLabel('Destination playlist').locator('option', { hasText: 'Synced in the browser' }),
    ).toHaveCount(1);

    await spotify.addTracks(
      source.id,
      tracks.slice(3, 5).map((track) => track.uri),
    );
    await sync.getByRole('button', { name: 'Run now' }).click();
    await expect(history.getByRole('listitem')).toHaveCount(3, { timeout: 30_000 });
    await expect(history.getByRole('listitem').first()).toContainText('2 added', { timeout: 30_000 });
    await expect(history.getByRole('listitem').first()).toContainText('verified: 2 of 2');

    await sync.getByRole('button', { name: 'Run now' }).click();
    await expect(history.getByRole('listitem')).toHaveCount(4, { timeout: 30_000 });
    await expect(history.getByRole('listitem').first()).toContainText('0 added, 0 removed, 5 already there', {
      timeout: 30_000,
    });

    await sync.getByRole('button', { name: 'Pause' }).click();
    await expect(sync).toContainText('· paused');
    await expect(sync.getByRole('button', { name: 'Run now' })).toBeDisabled();
  });
});

test('people on the Free plan are told sync is a Pro feature', async ({ page }) => {
  await registerThroughApi(page, uniqueUser('free'));
  await page.goto('/syncs');
  await expect(page.getByText(/^Sync is a Pro feature/)).toBeVisible();
  await page.getByRole('link', { name: 'See plans and pricing' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  const row = page
    .getByRole('table', { name: 'What each plan includes' })
    .getByRole('row', { name: /kept in sync/ });
  await expect(row.getByText('Included', { exact: true })).toHaveCount(2);
});
