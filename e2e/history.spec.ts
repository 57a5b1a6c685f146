import { expect, test } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { users } from '../src/server/db/schema';
import { expectAxeClean } from './support/axe';
import { type OwnServer, registerOn, startOwnServer } from './support/own-server';
import { expectToast } from './support/toasts';

/**
 * A playlist's History page (issue 21): a backup records the first version, a change made in Spotify
 * itself the next (`outside`); the person previews restoring the first version, restores it and sees the
 * restore verified. Vault+ on a server of the file's own (plans change only through the database).
 */
test.describe('History of a playlist', () => {
  test.describe.configure({ timeout: 150_000 });
  let own: OwnServer;
  test.beforeAll(async () => {
    own = await startOwnServer('history');
  });
  test.afterAll(async () => {
    await own?.close();
  });

  test('shows each version with its cause and restores an earlier one, verified', async ({ page }) => {
    const user = await registerOn(page, own.url, 'history');
    await own.deps.db.update(users).set({ plan: 'vault' }).where(eq(users.username, user.username));
    const [row] = await own.deps.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.username, user.username));
    const userId = row?.id ?? '';

    await page.goto(`${own.url}/account`);
    await page.getByRole('button', { name: 'Connect Spotify' }).click();
    await page.getByRole('button', { name: 'Agree', exact: true }).click();
    await expectToast(page, 'Connected to Spotify');

    await page.goto(`${own.url}/vault`);
    await page.getByRole('button', { name: 'Back up now' }).click();
    await expectToast(page, 'Backup complete');

    // Changed in Spotify itself: the first track removed.
    const spotify = await own.deps.providers.forUser(userId, 'spotify');
    const roadTrip = (await spotify.listPlaylists()).find((playlist) => playlist.name === 'Road Trip');
    if (!roadTrip) throw new Error('no Road Trip');
    const before = (await spotify.getPlaylist(roadTrip.id)).entries.flatMap((entry) =>
      entry.kind === 'track' ? [entry.track] : [],
    );
    await spotify.removeTracks?.(roadTrip.id, [before[0]?.uri ?? '']);
    await page.goto(`${own.url}/vault`);
    await page.getByRole('button', { name: 'Back up now' }).click();
    await expectToast(page, 'Backup complete');

    await page.goto(`${own.url}/history/spotify/${roadTrip.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Playlist history' })).toBeVisible();
    const versions = page.getByRole('list', { name: 'Versions, newest first' }).locator(':scope > li');
    await expect(versions).toHaveCount(2);
    await expect(versions.nth(0)).toContainText('Changed in the service itself');
    await expect(versions.nth(0)).toContainText(`Removed (1)`);
    await expect(versions.nth(0)).toContainText(before[0]?.name ?? '');
    await expect(versions.nth(1)).toContainText('Crossfade (a backup)');

    // Found by what it is, not where: the restore adds a version on top of the list.
    const first = versions.filter({ hasText: 'Crossfade (a backup)' });
    await first.getByRole('button', { name: 'Preview restore' }).click();
    await expect(first).toContainText(`Afterwards the playlist holds ${before.length} tracks`);
    await first.getByRole('button', { name: 'Restore this version' }).click();
    await expect(first.getByRole('status')).toContainText(`verified ${before.length} of ${before.length}`);
    await expect(versions).toHaveCount(3);
    await expect(versions.nth(0)).toContainText('Crossfade (a restore or undo)');
    await expect(versions.nth(0)).toContainText(`${before.length} tracks`);
    const after = (await spotify.getPlaylist(roadTrip.id)).entries.flatMap((entry) =>
      entry.kind === 'track' ? [entry.track.uri] : [],
    );
    expect(after).toEqual(before.map((track) => track.uri));

    // Accessible, and usable on a 360 px wide phone; so is the list of what disappeared.
    await expectAxeClean(page, 'history');
    await page.setViewportSize({ width: 360, height: 740 });
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth);
    expect(await overflow()).toBeLessThanOrEqual(360);
    await page.goto(`${own.url}/history/disappeared`);
    await expect(page.getByRole('heading', { level: 1, name: 'What disappeared' })).toBeVisible();
    await expect(
      page
        .getByRole('listitem')
        .filter({ hasText: before[0]?.name ?? '' })
        .first(),
    ).toContainText('removed in the service itself');
    await page.getByRole('link', { name: 'Road Trip' }).first().click();
    await expect(page).toHaveURL(new RegExp(`/history/spotify/${roadTrip.id}$`));
    await page.goto(`${own.url}/history/disappeared`);
    expect(await overflow()).toBeLessThanOrEqual(360);
    await expectAxeClean(page, 'disappeared');
  });
});
