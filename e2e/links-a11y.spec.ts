import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { registerThroughApi } from './support/users';

// The sniper link, onboarding and recreate screens in their filled-in states, which the route-level
// accessibility suite (empty pages) never reaches.

async function expectAccessible(page: Page, label: string) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((n) => n.target).join(', ')})`,
    );
  expect(serious, `axe violations on ${label}`).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `horizontal overflow on ${label}`).toBeLessThanOrEqual(0);
}

for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 360, height: 740 },
]) {
  test(`filled-in link, landing, onboarding and recreate screens are accessible (${viewport.name})`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await registerThroughApi(page);

    await page.goto('/link');
    await page.getByLabel('Link name').fill('A very long link name for a new single release');
    await page.getByRole('button', { name: 'Create Link' }).click();
    const publicUrl = await page
      .getByRole('region', { name: 'Link created' })
      .getByLabel('Public link')
      .inputValue();
    await page.getByRole('button', { name: 'Show stats' }).click();
    await expect(page.getByRole('figure')).toBeVisible();
    await expectAccessible(page, '/link with a created link');

    await page.goto(publicUrl);
    await expect(page.getByRole('link', { name: 'Open in Spotify' })).toBeVisible();
    await expectAccessible(page, 'the landing page');

    await page.goto('/onboarding');
    await expect(page.getByRole('list', { name: 'Conversation' }).getByRole('listitem')).toHaveCount(1);
    await expectAccessible(page, '/onboarding');

    await page.goto('/recreate');
    await page.getByLabel('Playlist name').fill('Lost');
    await page.getByLabel('Songs, one per line').fill('Artist - Song\n???');
    await page.getByRole('button', { name: 'Rebuild playlist' }).click();
    await expect(page.getByRole('region', { name: 'Playlist ready' })).toBeVisible();
    await expectAccessible(page, '/recreate with a rebuilt list');
  });
}
