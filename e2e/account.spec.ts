import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { expectToast } from './support/toasts';
import { registerThroughApi, signInThroughUi, signOutThroughApi, uniqueUser } from './support/users';

test.describe.configure({ timeout: 90_000 });

const card = (page: Page, title: string) =>
  page.locator('div.rounded-2xl').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

const connectionRow = (page: Page, service: 'Spotify' | 'Apple Music') =>
  page.getByRole('listitem', { name: service });

async function expectAxeClean(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} ${v.nodes.map((node) => node.target).join(' ')}`)).toEqual([]);
}

test('signed-out visitors are sent to sign in', async ({ page }) => {
  await page.goto('/account');
  await expect(page).toHaveURL(/\/auth$/);
});

test('the account page shows the profile, the plan usage and an empty history', async ({ page }) => {
  const user = await registerThroughApi(page, uniqueUser('acct'));
  await page.goto('/account');
  await expect(page.getByRole('heading', { level: 1, name: 'My Account' })).toBeVisible();
  const profile = card(page, 'Profile');
  await expect(profile).toContainText(user.username);
  await expect(profile).toContainText(user.email);
  const usage = card(page, 'Plan and usage');
  await expect(usage).toContainText('Free');
  await expect(usage).toContainText('0 of 1 used');
  await expect(usage).toContainText('Your next transfer starts a new month');
  await expect(card(page, 'Transfer history')).toContainText('No transfers yet.');
  await expect(page.getByRole('link', { name: 'Vault+ backups' })).toHaveAttribute('href', '/vault');
  await expectAxeClean(page);
});

test('connects and disconnects both services through the consent pages', async ({ page }) => {
  await registerThroughApi(page, uniqueUser('conn'));
  await page.goto('/account');
  await expect(connectionRow(page, 'Spotify')).toContainText('Not connected');

  await page.getByRole('button', { name: 'Connect Spotify' }).click();
  // The first call to the sandbox builds the emulators (the 24,000-track catalog): give it time.
  await expect(page.getByRole('heading', { name: 'Spotify sandbox' })).toBeVisible({ timeout: 60_000 });
  // The person's own sandbox account is offered first; they pick its country.
  await expect(page.getByRole('radio', { name: /your own sandbox account/ })).toBeChecked();
  await page.getByRole('combobox', { name: 'Country of your account' }).selectOption('DE');
  await page.getByRole('button', { name: 'Agree', exact: true }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expectToast(page, 'Connected to Spotify');
  await expect(connectionRow(page, 'Spotify')).toContainText('Connected as');
  // Development-mode /me has no country; Crossfade found it in Spotify's answers, and it can be changed.
  const country = connectionRow(page, 'Spotify').getByRole('combobox', { name: /Country/ });
  await expect(country).toHaveValue('DE');
  await country.selectOption('JP');
  await expectToast(page, 'Spotify country saved');
  await page.reload();
  await expect(connectionRow(page, 'Spotify').getByRole('combobox', { name: /Country/ })).toHaveValue('JP');

  await page.getByRole('button', { name: 'Connect Apple Music' }).click();
  await page.getByRole('button', { name: 'Allow', exact: true }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expectToast(page, 'Connected to Apple Music');
  await expect(connectionRow(page, 'Apple Music')).toContainText('Connected');

  await page.getByRole('button', { name: 'Disconnect Spotify' }).click();
  await expectToast(page, 'Disconnected from Spotify');
  await expect(connectionRow(page, 'Spotify')).toContainText('Not connected');
  await page.reload();
  await expect(connectionRow(page, 'Spotify')).toContainText('Not connected');
  await expect(connectionRow(page, 'Apple Music')).toContainText('Connected');

  // Signed out in another tab: the failed disconnect says why, under the spec's sentence.
  await signOutThroughApi(page);
  await page.getByRole('button', { name: 'Disconnect Apple Music' }).click();
  await expectToast(page, 'Failed to disconnect from Apple Music', 'Please sign in to continue.');
});

test('the public-profile switch is saved', async ({ page }) => {
  await registerThroughApi(page, uniqueUser('public'));
  await page.goto('/account');
  const toggle = page.getByRole('switch', { name: 'Show my taste graph and timeline to others' });
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await expectToast(page, 'Your profile is public');
  await page.reload();
  await expect(toggle).toBeChecked();
});

test('"Download my data" saves a JSON file of the account', async ({ page }) => {
  const user = await registerThroughApi(page, uniqueUser('data'));
  await page.goto('/account');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download my data' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('crossfade-my-data.json');
  const path = await download.path();
  const data = JSON.parse(await readFile(path, 'utf8')) as {
    profile: { username: string; email: string };
    transfers: unknown[];
  };
  expect(data.profile).toMatchObject({ username: user.username, email: user.email });
  expect(data.transfers).toEqual([]);
});

test('deleting the account needs the username, signs out, and the account is gone', async ({ page }) => {
  const user = await registerThroughApi(page, uniqueUser('bye'));
  await page.goto('/account');
  await page.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
  await expect(dialog).toBeVisible();
  const confirm = dialog.getByRole('button', { name: 'Delete my account' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/Type your username/).fill('not-my-name');
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/Type your username/).fill(user.username);
  await confirm.click();

  await expect(page).toHaveURL(/\/$/);
  await expectToast(page, 'Your account has been deleted');
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Get Started' }),
  ).toBeVisible();

  await signInThroughUi(page, user);
  await expectToast(page, 'Login failed', 'Invalid username or password.');
  await expect(page).toHaveURL(/\/auth$/);
});
