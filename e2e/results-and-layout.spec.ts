import { expect, type Page, test } from '@playwright/test';
import { CSRF_COOKIE, CSRF_HEADER } from '../src/shared/api/auth';
import { connectThroughUi } from './support/services';
import { notifications } from './support/toasts';
import { registerThroughApi, signInForm, uniqueUser } from './support/users';

test.describe.configure({ timeout: 90_000 });

async function csrfHeaders(page: Page) {
  const cookies = await page.context().cookies();
  return { [CSRF_HEADER]: cookies.find((cookie) => cookie.name === CSRF_COOKIE)?.value ?? '' };
}

test('a signed-out visitor opening /matches sees no step ticked as completed', async ({ page }) => {
  await page.goto('/matches');
  const progress = page.getByRole('navigation', { name: 'Transfer progress' });
  await expect(progress).toBeVisible();
  await expect(progress.getByText('(completed)')).toHaveCount(0);
});

for (const viewport of [
  { width: 360, height: 640 },
  { width: 1280, height: 720 },
]) {
  test(`a toast never covers the wizard's Continue button (${viewport.width} px)`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/transfer');
    const proceed = page.getByRole('button', { name: 'Continue' });
    await proceed.scrollIntoViewIfNeeded();
    await proceed.click();
    const toast = notifications(page).locator('li').first();
    await expect(toast).toBeVisible();
    const a = await toast.boundingBox();
    const b = await proceed.boundingBox();
    if (!a || !b) throw new Error('no boxes to compare');
    const overlap =
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlap).toBe(false);
  });
}

test('signing in from an invitation page comes back to the invitation', async ({ page, browser }) => {
  await registerThroughApi(page, uniqueUser('inviter'));
  await connectThroughUi(page, 'Spotify');
  const lists = (await (await page.request.get('/api/playlists/spotify')).json()) as {
    id: string;
    name: string;
  }[];
  const road = lists.find((playlist) => playlist.name === 'Road Trip');
  const created = await page.request.post('/api/merge/invitations', {
    data: { playlistId: road?.id, service: 'spotify', friendEmail: 'friend@example.com' },
    headers: await csrfHeaders(page),
  });
  expect(created.status(), await created.text()).toBe(201);
  const invitePath = new URL(((await created.json()) as { inviteUrl: string }).inviteUrl).pathname;

  const friendContext = await browser.newContext();
  const friendPage = await friendContext.newPage();
  const friend = await registerThroughApi(friendPage, uniqueUser('friend'));
  await friendContext.clearCookies();
  await friendPage.goto(invitePath);
  await friendPage.getByRole('link', { name: 'Sign in' }).click();
  await expect(friendPage).toHaveURL(/\/auth\?next=/);
  await friendPage.getByRole('tab', { name: 'Sign In' }).click();
  const form = signInForm(friendPage);
  await form.getByLabel('Username').fill(friend.username);
  await form.getByLabel('Password', { exact: true }).fill(friend.password);
  await form.getByRole('button', { name: 'Sign In' }).click();
  await expect(friendPage).toHaveURL(new RegExp(`${invitePath}$`));
  await friendContext.close();
});

test('/account does not scroll sideways at 360 px, transfer history included', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await registerThroughApi(page, uniqueUser('narrow'));
  await connectThroughUi(page, 'Spotify');
  await connectThroughUi(page, 'Apple Music');
  const lists = (await (await page.request.get('/api/playlists/spotify')).json()) as {
    id: string;
    name: string;
  }[];
  const road = lists.find((playlist) => playlist.name === 'Road Trip');
  const body = { sourceService: 'spotify', destinationService: 'apple', playlistId: road?.id };
  const match = await page.request.post('/api/match', { data: body, headers: await csrfHeaders(page) });
  const { matchSetId } = (await match.json()) as { matchSetId: string };
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/match/${matchSetId}`)).json()) as { status: string }).status,
      {
        timeout: 60_000,
      },
    )
    .toBe('ready');
  const transfer = await page.request.post('/api/transfer', {
    data: { ...body, includeUnmatched: false },
    headers: await csrfHeaders(page),
  });
  expect([200, 202]).toContain(transfer.status());
  await page.goto('/account');
  await expect(page.getByRole('table')).toBeVisible({ timeout: 30_000 });
  const sideways = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(sideways).toBeLessThanOrEqual(0);
});
