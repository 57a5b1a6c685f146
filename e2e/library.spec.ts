import { expect, test } from '@playwright/test';
import { expectAxeClean } from './support/axe';
import { type OwnServer, signUpConnected, startOwnServer } from './support/own-server';

/**
 * Issue 14 item 1 in the browser: a new person in sandbox mode finds their Liked Songs and saved albums
 * above their playlists in step 2, moves Liked Songs through the wizard (step 3 offers "Also add them to a
 * playlist"), then three saved albums at once, and sees where each went, verified. Four transfers are more
 * than the Free plan's one a month, and plans change only in the database, so (as batch.spec.ts) this
 * file runs the app on a server of its own.
 */
const LIBRARY_SCENARIO = 'library-browser';

test.describe('library collections', () => {
  test.describe.configure({ timeout: 180_000 });
  let own: OwnServer;
  test.beforeAll(async () => {
    own = await startOwnServer('library');
  });
  test.afterAll(async () => {
    await own?.close();
  });

  test('moves Liked Songs and three saved albums from Spotify to Apple Music', async ({ page }) => {
    // The fixed library of this scenario (decision 0022): its first three albums are saved whole.
    await page.setExtraHTTPHeaders({ 'x-sandbox-scenario': LIBRARY_SCENARIO });
    await signUpConnected(page, own, 'library', 'pro');

    // Step 2: "Your library" comes first: Liked Songs, then the saved albums with their artist and count.
    await page.goto(`${own.url}/transfer?from=spotify&to=apple`);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/playlists$/);
    const headings = page.getByRole('heading', { level: 2 });
    await expect(headings.first()).toHaveText('Your library');
    const library = page.getByRole('list', { name: 'Your library' });
    const cards = library.getByRole('button');
    await expect(cards.first()).toContainText('Liked Songs');
    await expect(cards.nth(1)).toContainText(/Album · \d+ tracks/);
    await expectAxeClean(page, 'step 2 with the library');

    // Keyboard: the card is a button, reached and pressed like any playlist.
    await cards.first().focus();
    await page.keyboard.press('Enter');
    await expect(cards.first()).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/matches$/);
    await expect(page.getByRole('region', { name: 'Match results' })).toBeVisible({ timeout: 60_000 });
    const alsoPlaylist = page.getByRole('checkbox', { name: 'Also add them to a playlist' });
    await expect(alsoPlaylist).not.toBeChecked();
    await expectAxeClean(page, 'step 3 for Liked Songs');
    await page.getByRole('button', { name: 'Save Liked Songs' }).click();
    await expect(page).toHaveURL(/\/complete$/, { timeout: 90_000 });
    await expect(page.getByText('Saved to your Apple Music library as favourites.')).toBeVisible();
    await expect(page.getByText(/Verified: (\d+) of \1(?!\d)/)).toBeVisible();
    await expectAxeClean(page, 'result for Liked Songs');

    // Three saved albums at once, from step 2's "several at once".
    await page.goto(`${own.url}/transfer?from=spotify&to=apple`);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Move several playlists at once' }).click();
    const picker = page.getByRole('region', { name: /Move several playlists to Apple Music/ });
    const albums = picker.getByRole('checkbox', { name: /^Album: / });
    for (let i = 0; i < 3; i++) await albums.nth(i).check();
    await picker.getByRole('button', { name: 'Move 3 playlists' }).click();
    await expect(page).toHaveURL(/\/batches\/[0-9a-f-]+$/);
    // Some of their songs wait in the batch's one review (the same ones every run: a fixed library).
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Review once, then move them all', {
      timeout: 90_000,
    });
    await page.getByRole('button', { name: 'Move 3 playlists' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your playlists are moved', {
      timeout: 90_000,
    });
    const list = page.getByRole('list', { name: 'Playlists in this batch' });
    await expect(list.getByTestId('batch-playlist-status')).toHaveText(['Done', 'Done', 'Done']);
    for (const item of await list.locator(':scope > li').all()) {
      await expect(item).toContainText('Saved to your Apple Music library as an album.');
      await expect(item).toContainText(/verified: (\d+) of \1(?!\d)/);
    }
    await expectAxeClean(page, 'albums moved');

    // Mobile: step 2 with the library fits a phone.
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${own.url}/playlists`);
    await expect(page.getByRole('list', { name: 'Your library' })).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
