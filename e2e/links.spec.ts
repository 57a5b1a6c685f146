import { expect, type Page, test } from '@playwright/test';
import { expectToast } from './support/toasts';
import { registerThroughApi } from './support/users';

const linkRow = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Your links' }).getByRole('listitem', { name });
const stat = (page: Page, name: string, label: string) =>
  linkRow(page, name)
    .locator('div', { has: page.getByText(label, { exact: true }) })
    .locator('dd');

test('a sniper link is created, visited, signed up to, and the owner sees the numbers move', async ({
  page,
  browser,
}) => {
  await registerThroughApi(page);
  await page.goto('/link');
  await expect(page.getByRole('heading', { level: 1, name: 'Sniper Link' })).toBeVisible();

  await page.getByRole('button', { name: 'Create Link' }).click();
  await expectToast(page, 'Missing information', 'Please enter a name for your link');

  await page.getByLabel('Link name').fill('Summer single');
  await page.getByLabel('Track or playlist URL (optional)').fill('https://example.com/not-music');
  await page.getByRole('button', { name: 'Create Link' }).click();
  await expectToast(page, 'Error creating link', 'This is not a Spotify or Apple Music link.');

  await page.getByLabel('Track or playlist URL (optional)').fill('');
  await page.getByRole('button', { name: 'Create Link' }).click();
  const created = page.getByRole('region', { name: 'Link created' });
  await expect(created.getByText('Active', { exact: true })).toBeVisible();
  await expect(created.getByTestId('created-followers')).toHaveText('0');
  const publicUrl = await created.getByLabel('Public link').inputValue();
  expect(publicUrl).toMatch(/\/l\/[A-Za-z0-9]{8}$/);
  await expect(stat(page, 'Summer single', 'Views')).toHaveText('0');

  // A fan opens the link in their own browser, without an account.
  const fanContext = await browser.newContext();
  const fan = await fanContext.newPage();
  await fan.goto(publicUrl);
  await expect(fan.getByRole('heading', { level: 1, name: 'Summer single' })).toBeVisible();
  // In sandbox mode "Open in …" stays in the sandbox: the emulators' own search pages (issue 23), in the
  // link owner's storefront for Apple Music, and the page opens.
  await expect(fan.getByRole('link', { name: 'Open in Spotify' })).toHaveAttribute(
    'href',
    /\/sandbox\/spotify\/api\/open\/search\/Summer%20single$/,
  );
  const openInApple = fan.getByRole('link', { name: 'Open in Apple Music' });
  await expect(openInApple).toHaveAttribute(
    'href',
    /\/sandbox\/apple\/web\/[a-z]{2}\/search\?term=Summer%20single$/,
  );
  const appleHref = (await openInApple.getAttribute('href')) ?? '';
  expect((await fan.request.get(appleHref)).status()).toBe(200);
  const opened = await Promise.all([fan.context().waitForEvent('page'), openInApple.click()]).then(
    ([tab]) => tab,
  );
  await expect(opened.getByRole('heading', { level: 1, name: 'Search: Summer single' })).toBeVisible();
  await opened.close();
  await fan.getByRole('button', { name: 'Sign Up' }).click();
  await expectToast(fan, 'Email required', 'Please enter your email to sign up');
  await fan.getByLabel('Email').fill('fan@example.com');
  await fan.getByRole('button', { name: 'Sign Up' }).click();
  await expect(fan.getByText("You're signed up!")).toBeVisible();
  await fanContext.close();

  await page.reload();
  await expect(stat(page, 'Summer single', 'Views')).toHaveText('1');
  await expect(stat(page, 'Summer single', 'Followers')).toHaveText('1');
  await expect(stat(page, 'Summer single', 'Signup rate')).toHaveText('100%');

  await linkRow(page, 'Summer single').getByRole('button', { name: 'Show stats' }).click();
  await expect(page.getByRole('figure', { name: 'Views and signups over the last 30 days' })).toBeVisible();
});

test('a link switched off shows "This link is no longer active."', async ({ page, browser }) => {
  await registerThroughApi(page);
  await page.goto('/link');
  await page.getByLabel('Link name').fill('Old drop');
  await page.getByRole('button', { name: 'Create Link' }).click();
  const publicUrl = await page
    .getByRole('region', { name: 'Link created' })
    .getByLabel('Public link')
    .inputValue();
  await linkRow(page, 'Old drop').getByRole('switch').click();
  await expect(linkRow(page, 'Old drop').getByText('Off', { exact: true })).toBeVisible();

  const fanContext = await browser.newContext();
  const fan = await fanContext.newPage();
  await fan.goto(publicUrl);
  await expect(fan.getByText('This link is no longer active.')).toBeVisible();
  await fanContext.close();
});

test('signed out, /link asks to sign in', async ({ page }) => {
  await page.goto('/link');
  await expect(page.getByRole('heading', { name: 'Sign in to create links' })).toBeVisible();
});
