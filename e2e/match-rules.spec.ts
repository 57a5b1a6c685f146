import { expect, type Page, test } from '@playwright/test';
import { expectAxeClean } from './support/axe';
import { connectThroughUi } from './support/services';
import { expectToast } from './support/toasts';
import { registerThroughApi } from './support/users';

/**
 * Issue 14: a match fixed by hand is remembered as the person's rule and applied the next time the song
 * is matched; the rules page (from the account page) lists, changes and deletes them. The transfer's result says
 * how many of its tracks were read back from the destination ("verified: N of N").
 */

const playlistCard = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Your playlists' }).getByRole('button', { name: new RegExp(`^${name}\\b`) });

async function matchRoadTrip(page: Page) {
  await page.goto('/transfer?from=spotify&to=apple');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/playlists$/);
  await playlistCard(page, 'Road Trip').click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/matches$/);
  const results = page.getByRole('region', { name: 'Match results' });
  await expect(results).toBeVisible({ timeout: 45_000 });
  return results.getByRole('list', { name: / tracks$/ }).locator(':scope > li');
}

test('a skipped match becomes a rule, is applied to the next match, can be changed, and can be deleted', async ({
  page,
}) => {
  await registerThroughApi(page);
  await connectThroughUi(page, 'Spotify');
  await connectThroughUi(page, 'Apple Music');

  // Fix one row by hand: "not on this service".
  let rows = await matchRoadTrip(page);
  const fixed = rows.nth(1);
  await fixed.locator('button[aria-expanded]').first().click();
  await fixed.getByRole('button', { name: 'Skip' }).click();
  await expect(fixed.locator('button[aria-expanded]').first()).toContainText('skipped');

  // The transfer's result says every written track was read back.
  await page.getByRole('button', { name: 'Transfer Playlist' }).click();
  await expect(page).toHaveURL(/\/complete$/, { timeout: 60_000 });
  await expect(page.getByText(/^Verified: (\d+) of \1/)).toBeVisible();

  // Matching the playlist again applies the rule: the same row is skipped, "Your rule".
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page).toHaveURL(/\/transfer$/);
  rows = await matchRoadTrip(page);
  const ruled = rows.filter({ hasText: 'Your rule' });
  await expect(ruled).toHaveCount(1);
  await expect(ruled.locator('button[aria-expanded]').first()).toContainText('skipped');

  // The account page leads to the rules page, which lists, changes and deletes the rule.
  await page.goto('/account');
  await page.getByRole('link', { name: 'See, change and delete your match rules' }).click();
  await expect(page).toHaveURL(/\/match-rules$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Match rules');
  const list = page.getByRole('list', { name: 'Your match rules' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list).toContainText('not on this service (skipped)');
  await expectAxeClean(page, 'match rules');

  // Change the rule: search Apple Music for the song and always use a track found there.
  await list.getByRole('button', { name: /^Change the rule for / }).click();
  await list.getByRole('button', { name: 'Search', exact: true }).click();
  const results = list.getByRole('list', { name: 'Search results' });
  await expect(results.getByRole('listitem').first()).toBeVisible();
  await expectAxeClean(page, 'match rules, editing');
  const picked =
    (await results.getByRole('listitem').first().getByRole('button').getAttribute('aria-label')) ?? '';
  const [, pickedName = ''] = /^Use this: (.*) by /.exec(picked) ?? [];
  await results
    .getByRole('listitem')
    .first()
    .getByRole('button', { name: /^Use this/ })
    .click();
  await expectToast(page, 'Rule updated');
  await expect(list).toContainText(`always ${pickedName}`);
  await expect(list).not.toContainText('not on this service');

  // And back: not on Apple Music.
  await list.getByRole('button', { name: /^Change the rule for / }).click();
  await list.getByRole('button', { name: 'Not on Apple Music' }).click();
  await expectToast(page, 'Rule updated');
  await expect(list).toContainText('not on this service (skipped)');

  await list.getByRole('button', { name: /^Delete the rule for / }).click();
  await expectToast(page, 'Rule deleted');
  await expect(page.getByText(/^No rules yet\./)).toBeVisible();
  await expectAxeClean(page, 'match rules, empty');
});
