import { expect, type Page, test } from '@playwright/test';
import { CSRF_COOKIE, CSRF_HEADER } from '../src/shared/api/auth';
import { connectThroughUi } from './support/services';
import { notifications } from './support/toasts';
import { registerThroughApi, uniqueUser } from './support/users';

/**
 * The review band (issue 24): a song the destination does not have says so instead of proposing a wrong
 * recording, and any row's candidates fix it with one click each.
 */
test.describe.configure({ timeout: 120_000 });

async function csrfHeaders(page: Page) {
  const cookies = await page.context().cookies();
  return { [CSRF_HEADER]: cookies.find((cookie) => cookie.name === CSRF_COOKIE)?.value ?? '' };
}

test('a song the catalog lacks says "Probably not on Apple Music"; a candidate is used with one click', async ({
  page,
}) => {
  await registerThroughApi(page, uniqueUser('band'));
  await connectThroughUi(page, 'Spotify');
  await connectThroughUi(page, 'Apple Music');
  const lists = (await (await page.request.get('/api/playlists/spotify')).json()) as {
    id: string;
    name: string;
  }[];
  const road = lists.find((playlist) => playlist.name === 'Road Trip');
  const read = await page.request.post('/api/fetch-playlist-tracks', {
    data: { playlistUrl: `https://open.spotify.com/playlist/${road?.id}` },
    headers: await csrfHeaders(page),
  });
  const [song] = (
    (await read.json()) as {
      tracks: { name: string; artists: string[]; album: string; durationMs: number }[];
    }
  ).tracks;
  if (!song) throw new Error('the demo playlist is empty');
  const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;
  const csv = [
    'Track Name,Artist Name(s),Album Name,Duration (ms)',
    ['Qzxv Nowhere Wqpl', 'Vrrkq Nobody Band', 'Zzqx Album', '201000'].map(quote).join(','),
    // The demo song misspelt and 5 s off: its candidates include the song itself.
    [`${song.name}s`, song.artists.join(', '), song.album, String(song.durationMs + 5_000)]
      .map(quote)
      .join(','),
  ].join('\n');

  await page.goto('/transfer?from=spotify&to=apple');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page
    .getByLabel('CSV file to import')
    .setInputFiles({ name: 'band.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(notifications(page).getByText('Playlist imported', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  const results = page.getByRole('region', { name: 'Match results' });
  await expect(results).toBeVisible({ timeout: 60_000 });
  const rows = results.getByRole('list', { name: / tracks$/ }).locator(':scope > li');

  // The absent song proposes nothing and says why.
  await expect(rows.nth(0)).toContainText('Probably not on Apple Music');

  // The misspelt one lists its candidates; "Use this" on the first makes it the row's choice at once.
  const second = rows.nth(1);
  await second.locator('button[aria-expanded]').first().click();
  const candidates = second.getByRole('region', { name: 'Other candidates' });
  const use = candidates.getByRole('button', { name: /^Use this: / }).first();
  const label = (await use.getAttribute('aria-label')) ?? '';
  const chosenName = /^Use this: (.+) by /.exec(label)?.[1] ?? '';
  expect(chosenName.length).toBeGreaterThan(0);
  await use.click();
  await expect(candidates.getByText('Chosen')).toBeVisible();
  await expect(second.locator('button[aria-expanded]').first()).toContainText(chosenName);
});
