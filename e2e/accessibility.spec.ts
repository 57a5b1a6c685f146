import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { PUBLIC_ROUTES, SIGNED_IN_ROUTES } from './support/routes';
import { registerThroughApi } from './support/users';

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone (360 px)', width: 360, height: 740 },
];

async function expectNoSeriousViolations(page: Page, path: string) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = results.violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  const summary = serious.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target).join(', ')})`,
  );
  expect(summary, `axe violations on ${path}`).toEqual([]);
}

async function expectNoHorizontalScroll(page: Page, path: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `horizontal overflow on ${path}`).toBeLessThanOrEqual(0);
}

for (const viewport of VIEWPORTS) {
  test.describe(`accessibility at ${viewport.name}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('public routes have no serious or critical axe violations', async ({ page }) => {
      // Every public route in one test, each loaded cold with an axe pass: more than the default minute.
      test.setTimeout(180_000);
      for (const route of PUBLIC_ROUTES) {
        await page.goto(route.path);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(route.heading);
        await expectNoSeriousViolations(page, route.path);
        await expectNoHorizontalScroll(page, route.path);
      }
    });

    test('the sign-up tab has no serious or critical axe violations', async ({ page }) => {
      await page.goto('/auth');
      await page.getByRole('tab', { name: 'Sign Up' }).click();
      await expect(page.getByRole('form', { name: 'Sign up' })).toBeVisible();
      await expectNoSeriousViolations(page, '/auth (Sign Up)');
    });

    test('signed-in routes have no serious or critical axe violations', async ({ page }) => {
      await registerThroughApi(page);
      for (const route of SIGNED_IN_ROUTES) {
        await page.goto(route.path);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(route.heading);
        await expectNoSeriousViolations(page, route.path);
        await expectNoHorizontalScroll(page, route.path);
      }
    });

    test('an open toast has no serious or critical axe violations', async ({ page }) => {
      await page.goto('/auth');
      await page.getByRole('form', { name: 'Sign in' }).getByRole('button', { name: 'Sign In' }).click();
      await expect(page.getByRole('region', { name: /Notifications/ })).toContainText('Missing information');
      await expectNoSeriousViolations(page, '/auth (toast)');
    });
  });
}
