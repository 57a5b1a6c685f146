import { expect, type Page, type Request, test } from '@playwright/test';
import { eventBatchSchema } from '../src/shared/api/events';
import { registerThroughApi } from './support/users';

const conversation = (page: Page) => page.getByRole('list', { name: 'Conversation' });
const composer = (page: Page) => page.getByLabel('Message', { exact: true });
const sendButton = (page: Page) => page.getByRole('button', { name: 'Send' });

async function waitForReply(page: Page, count: number) {
  await expect(conversation(page).getByRole('listitem')).toHaveCount(count);
  await expect(page.getByText('The assistant is typing…')).toHaveCount(0);
}

/** The analytics events the page posts to our collector. */
function recordEvents(page: Page) {
  const events: { event: string; properties: Record<string, unknown> }[] = [];
  page.on('request', (request: Request) => {
    if (request.method() !== 'POST' || !request.url().endsWith('/api/events')) return;
    events.push(...eventBatchSchema.parse(request.postDataJSON()).events);
  });
  return events;
}

test.beforeEach(async ({ page }) => {
  await registerThroughApi(page);
});

test('chatting about a lost playlist leads to /recreate through the completion card', async ({ page }) => {
  const events = recordEvents(page);
  await page.goto('/onboarding');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome' })).toBeVisible();
  await waitForReply(page, 1);

  await expect(sendButton(page)).toBeDisabled();
  await composer(page).fill('   ');
  await expect(sendButton(page)).toBeDisabled();

  // Shift+Enter adds a line; Enter sends.
  await composer(page).fill('Hello');
  await composer(page).press('Shift+Enter');
  await expect(composer(page)).toHaveValue('Hello\n');
  await expect(conversation(page).getByRole('listitem')).toHaveCount(1);
  await composer(page).press('Enter');
  await expect(composer(page)).toHaveValue('');
  await expect(sendButton(page)).toBeDisabled();
  await waitForReply(page, 3);
  await expect(page.getByRole('region', { name: "You're all set" })).toHaveCount(0);

  await composer(page).fill('I lost a mix I loved and want to recover it');
  await sendButton(page).click();
  await waitForReply(page, 5);

  const card = page.getByRole('region', { name: "You're all set" });
  await expect(card.getByText('Recreate a lost playlist')).toBeVisible();
  await card.getByRole('button', { name: 'Complete' }).click();
  await expect(page).toHaveURL(/\/recreate$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Recreate a Playlist' })).toBeVisible();
  await expect
    .poll(() => events.map((event) => event.event), { timeout: 15_000 })
    .toEqual(expect.arrayContaining(['onboarding_started', 'onboarding_completed']));
  expect(events.find((event) => event.event === 'onboarding_completed')?.properties).toEqual({
    selected_option: '/recreate',
  });
});

test('a quick reply is sent as the person’s message', async ({ page }) => {
  await page.goto('/onboarding');
  await waitForReply(page, 1);
  const first = page.getByRole('group', { name: 'Quick replies' }).getByRole('button').first();
  const label = (await first.textContent()) ?? '';
  await first.click();
  await expect(conversation(page).getByRole('listitem').nth(1)).toContainText(label);
});

test('Skip Chat goes to /transfer', async ({ page }) => {
  const events = recordEvents(page);
  await page.goto('/onboarding');
  await page.getByRole('button', { name: 'Skip Chat' }).click();
  await expect(page).toHaveURL(/\/transfer$/);
  await expect
    .poll(() => events.map((event) => event.event), { timeout: 15_000 })
    .toContain('onboarding_skipped');
});

test('asking for a backup leads to /vault, whatever the assistant replies', async ({ page }) => {
  await page.goto('/onboarding');
  await waitForReply(page, 1);
  await composer(page).fill('Hello');
  await sendButton(page).click();
  await waitForReply(page, 3);
  await composer(page).fill('I need a backup of everything');
  await sendButton(page).click();
  await waitForReply(page, 5);
  const card = page.getByRole('region', { name: "You're all set" });
  await card.getByRole('button', { name: 'Complete' }).click();
  await expect(page).toHaveURL(/\/vault$/);
});

test('a conversation about merging with a friend gets its own answer to each follow-up and ends at /merge', async ({
  page,
}) => {
  await page.goto('/onboarding');
  await waitForReply(page, 1);
  await composer(page).fill('I want to merge my Spotify playlist with a friend');
  await sendButton(page).click();
  await waitForReply(page, 3);
  const first = (await conversation(page).getByRole('listitem').nth(2).textContent()) ?? '';
  expect(first).toContain('Merging blends');

  await composer(page).fill('How are bridge tracks chosen?');
  await sendButton(page).click();
  await waitForReply(page, 5);
  const second = (await conversation(page).getByRole('listitem').nth(4).textContent()) ?? '';
  expect(second).toContain('Bridge tracks are songs');
  expect(second).not.toContain('Merging blends');

  // The playlist and Spotify words never pull the conversation to /transfer.
  const card = page.getByRole('region', { name: "You're all set" });
  await expect(card.getByText('Merge playlists with a friend')).toBeVisible();
  await card.getByRole('button', { name: 'Complete' }).click();
  await expect(page).toHaveURL(/\/merge$/);
});

test('a question about keeping playlists in sync ends at /syncs', async ({ page }) => {
  await page.goto('/onboarding');
  await waitForReply(page, 1);
  await composer(page).fill('Hello');
  await sendButton(page).click();
  await waitForReply(page, 3);
  await composer(page).fill('Can I keep my Spotify playlist in sync with Apple Music?');
  await sendButton(page).click();
  await waitForReply(page, 5);
  await expect(conversation(page).getByRole('listitem').nth(4)).toContainText(
    'Sync keeps two lists the same',
  );
  const card = page.getByRole('region', { name: "You're all set" });
  await expect(card.getByText('Keep playlists in sync')).toBeVisible();
  await card.getByRole('button', { name: 'Complete' }).click();
  await expect(page).toHaveURL(/\/syncs$/);
});
