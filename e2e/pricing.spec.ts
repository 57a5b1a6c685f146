import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { registerThroughApi, uniqueUser } from './support/users';

test('visitors see the three plans side by side', async ({ page }) => {
  await page.goto('/pricing');
  await expect(page.getByRole('heading', { level: 1, name: 'Pricing' })).toBeVisible();
  for (const name of ['Free', 'Pro', 'Vault+']) {
    await expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
  }
  const table = page.getByRole('table', { name: 'What each plan includes' });
  const transfers = table.getByRole('row', { name: /Playlist transfers/ });
  await expect(transfers).toContainText('1 a month');
  await expect(transfers).toContainText('Unlimited');
  const backups = table.getByRole('row', { name: /Daily backups/ });
  await expect(backups.getByText('Included', { exact: true })).toHaveCount(1);
  await expect(backups.getByText('Not included', { exact: true })).toHaveCount(2);
  // Signed out, a paid plan leads to sign-in and then back to its checkout.
  await expect(page.getByRole('link', { name: 'Sign up for Pro' })).toHaveAttribute(
    'href',
    `/auth?next=${encodeURIComponent('/pricing?checkout=pro&interval=month')}`,
  );

  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} ${v.nodes.map((node) => node.target).join(' ')}`)).toEqual([]);
});

test('the current plan is marked, prices come from Stripe, and no operator command is ever shown', async ({
  page,
}) => {
  await registerThroughApi(page, uniqueUser('buyer'));
  await page.goto('/pricing');
  await expect(page.getByRole('columnheader', { name: /Free.*Your plan/ })).toBeVisible();
  await expect(page.getByText('This is your current plan.')).toBeVisible();
  const vault = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: 'Vault+', exact: true }) });
  await expect(vault).toContainText('$10.00');
  await page.locator('label', { hasText: 'Yearly' }).click();
  await expect(page.getByRole('radio', { name: 'Yearly' })).toBeChecked();
  await expect(vault).toContainText('$100.00');
  await expect(vault).toContainText('/ year');
  await expect(page.getByText('plan set')).toHaveCount(0);
  await expect(page.getByText('npm run')).toHaveCount(0);
});
