import { readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { isMissingFile } from '../src/server/testing/expected-errors';
import { expectAxeClean } from './support/axe';
import { connectThroughUi } from './support/services';
import { expectToast } from './support/toasts';
import { registerThroughApi, uniqueUser } from './support/users';

test.describe.configure({ timeout: 120_000 });

/**
 * The e2e server keeps mail in <DATA_DIR>/outbox, DATA_DIR being a fresh `crossfade-e2e-*` folder in the
 * temp directory: the newest message to `to` among them is the one this test caused.
 */
async function readOutboxMail(to: string): Promise<string> {
  const roots = (await readdir(tmpdir())).filter((name) => name.startsWith('crossfade-e2e-'));
  const found: { text: string; mtime: number }[] = [];
  for (const root of roots) {
    const folder = join(tmpdir(), root, 'outbox');
    // A server folder without an outbox has sent no mail; any other error fails the test.
    const files = await readdir(folder).catch((error: unknown) => {
      if (isMissingFile(error)) return [] as string[];
      throw error;
    });
    for (const file of files) {
      const path = join(folder, file);
      const text = await readFile(path, 'utf8');
      if (text.includes(`To: ${to}`)) found.push({ text, mtime: (await stat(path)).mtimeMs });
    }
  }
  found.sort((a, b) => b.mtime - a.mtime);
  const newest = found[0];
  if (!newest) throw new Error(`no outbox mail to ${to}`);
  return newest.text;
}

test('invite by e-mail, the friend answers from the link, and both see the merged playlist', async ({
  browser,
}) => {
  const inviterContext = await browser.newContext();
  const page = await inviterContext.newPage();
  const inviter = await registerThroughApi(page, uniqueUser('inviter'));
  await connectThroughUi(page, 'Spotify');

  await page.goto('/merge');
  await expect(page.getByRole('heading', { level: 1, name: 'Friend Merge' })).toBeVisible();
  await page.getByRole('button', { name: 'Send Invite' }).click();
  await expectToast(page, 'Missing information', "Please select a playlist and enter your friend's email");

  await page.getByRole('button', { name: /^Road Trip/ }).click();
  await page.getByRole('button', { name: 'Send Invite' }).click();
  await expectToast(page, 'Missing information', "Please select a playlist and enter your friend's email");

  // The server's reason comes with the spec's sentence, on its own line.
  await page.getByLabel("Friend's email").fill('not-an-address');
  await page.getByRole('button', { name: 'Send Invite' }).click();
  await expectToast(page, 'Error creating merge request', 'There was a problem creating your merge request');
  await expect(
    page.getByRole('region', { name: /Notifications/ }).getByText('Please enter a valid email address.', {
      exact: true,
    }),
  ).toBeVisible();

  const friend = uniqueUser('friend');
  await page.getByLabel("Friend's email").fill(friend.email);
  await page.getByRole('button', { name: 'Send Invite' }).click();
  await expect(page.getByRole('heading', { name: 'Share link ready' })).toBeVisible();
  const link = await page.getByRole('textbox', { name: 'Invitation link' }).inputValue();
  await expectAxeClean(page, 'share link ready');
  expect(link).toMatch(/\/merge\/invite\/[A-Za-z0-9_-]+$/);
  await expect(page.getByTestId('merge-invitation').filter({ hasText: friend.email })).toContainText(
    'Waiting for your friend',
  );

  // The friend is mailed (the outbox, with no SMTP server configured). What is kept there never holds
  // a working token: the link reads [link sent], and the inviter shares the one on their screen.
  const mail = await readOutboxMail(friend.email);
  expect(mail).toContain('Road Trip');
  expect(mail).toContain('[link sent]');
  expect(mail).not.toContain(new URL(link).pathname);

  const friendContext = await browser.newContext();
  const friendPage = await friendContext.newPage();
  await registerThroughApi(friendPage, friend);
  await connectThroughUi(friendPage, 'Spotify');
  await friendPage.goto(new URL(link).pathname);
  await expect(friendPage.getByText(`Merge with ${inviter.username}'s "Road Trip"`)).toBeVisible();
  await expectAxeClean(friendPage, 'invitation page');
  // A share URL the server cannot read: the spec's sentence, then the server's reason (someone else's
  // playlist under Spotify's development mode, and the way out) on its own line.
  const friendLists = (await (await friendPage.request.get('/api/playlists/spotify')).json()) as {
    id: string;
    name: string;
  }[];
  const followed = friendLists.find((playlist) => playlist.name === 'Fresh Finds Friday');
  await friendPage
    .getByPlaceholder('Paste a Spotify or Apple Music playlist share URL')
    .fill(`https://open.spotify.com/playlist/${followed?.id}`);
  await friendPage.getByRole('button', { name: 'Merge Playlists' }).click();
  await expectToast(
    friendPage,
    'Error generating merge',
    'There was a problem creating your merged playlist',
  );
  await expect(friendPage.getByRole('region', { name: /Notifications/ })).toContainText(/CSV/);
  await friendPage.getByPlaceholder('Paste a Spotify or Apple Music playlist share URL').fill('');
  await friendPage.getByRole('button', { name: /^Late Night Jazz/ }).click();
  await friendPage.getByRole('button', { name: 'Merge Playlists' }).click();
  await expectToast(friendPage, 'Playlists merged!');
  const result = friendPage.getByRole('region', { name: 'Merged playlist' });
  // No model ran (the browser tests' server has no Anthropic key): the heading says what wrote the insight.
  await expect(result.getByText("Insight: written from your playlists' overlap")).toBeVisible();
  await expect(result.getByText('AI Insight')).toHaveCount(0);
  const playlistName = (await result.getByRole('heading', { level: 3 }).textContent()) ?? '';
  expect(playlistName).not.toBe('');

  // The inviter sees it in their invitations and opens the same merged playlist.
  await page.getByRole('button', { name: 'Refresh' }).click();
  const row = page.getByTestId('merge-invitation').filter({ hasText: friend.email });
  await expect(row).toContainText('Merged');
  await row.getByRole('link', { name: 'View merged playlist' }).click();
  await expect(page).toHaveURL(/\/m\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: playlistName })).toBeVisible();
  await expectAxeClean(page, 'merged playlist page');
  await expect(
    page
      .getByRole('region', { name: 'Merged playlist' })
      .getByText("Insight: written from the two playlists' overlap"),
  ).toBeVisible();
  await expect(page.getByText(`${inviter.username}'s "Road Trip"`)).toBeVisible();
  // The page is read by both people and by visitors: its insight names both, and calls nobody "you".
  const insight = page.getByRole('region', { name: 'Merged playlist' }).getByText(/The mix is/);
  await expect(insight).toContainText(`The mix is 50% ${inviter.username} / 50% ${friend.username}`);
  await expect(insight).not.toContainText(/\byou(r)?\b/i);
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(new URL(page.url()).pathname);
  await expect(visitorPage.getByText(/The mix is/)).toContainText(
    `50% ${inviter.username} / 50% ${friend.username}`,
  );
  await expect(visitorPage.getByText(/The mix is/)).not.toContainText(/\byou(r)?\b/i);
  await visitor.close();
  // The merge is private until its owner lets anyone copy it (decision 0012); the choice is kept.
  const copyable = page.getByRole('switch', { name: 'Anyone with the link may copy it' });
  await expect(copyable).not.toBeChecked();
  await copyable.click();
  await expect(copyable).toBeChecked();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Anyone with the link may copy it' })).toBeChecked();

  // Opening the used link again points at the result instead of merging twice.
  await friendPage.goto(new URL(link).pathname);
  await expect(friendPage.getByText('This invitation has already been answered.')).toBeVisible();

  await inviterContext.close();
  await friendContext.close();
});

test('an invitation link that does not exist says so', async ({ page }) => {
  await page.goto('/merge/invite/not-a-real-token');
  await expect(
    page.getByText('This invitation link is not valid. Ask your friend to send a new one.'),
  ).toBeVisible();
});

test('the merge page asks signed-out visitors to sign in', async ({ page }) => {
  await page.goto('/merge');
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
});
