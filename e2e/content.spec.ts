import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

const PAGES = [
  {
    path: '/privacy',
    title: 'Privacy Policy',
    headings: ['What Crossfade stores', 'How long data is kept', 'Downloading and deleting your data'],
  },
  {
    path: '/terms',
    title: 'Terms of Service',
    headings: ['Plans and payment', 'Acceptable use', 'Spotify and Apple Music'],
  },
  {
    path: '/help',
    title: 'Help',
    headings: [
      'How does matching work?',
      'What does the confidence mean?',
      'Why was a track not found?',
      'How do I fix a match by hand?',
      'Plan limits and when they reset',
    ],
  },
];

for (const content of PAGES) {
  test(`${content.path} renders its sections with a table of contents`, async ({ page }) => {
    await page.goto(content.path);
    await expect(page.getByRole('heading', { level: 1, name: content.title })).toBeVisible();
    const toc = page.getByRole('navigation', { name: 'Contents' });
    for (const heading of content.headings) {
      await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
      await expect(toc.getByRole('link', { name: heading })).toBeVisible();
    }
    const last = content.headings.at(-1) ?? '';
    await toc.getByRole('link', { name: last }).click();
    await expect(page.getByRole('heading', { level: 2, name: last })).toBeInViewport();

    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id} ${v.nodes.map((node) => node.target).join(' ')}`)).toEqual([]);
  });
}

test('the terms say Crossfade is not affiliated with Apple or Spotify', async ({ page }) => {
  await page.goto('/terms');
  await expect(
    page
      .getByRole('main')
      .getByText('Crossfade is not affiliated with, endorsed by or sponsored by Apple Inc. or Spotify AB.'),
  ).toBeVisible();
});

test('help explains the confidence bands', async ({ page }) => {
  await page.goto('/help#confidence');
  const section = page.getByRole('region', { name: 'What does the confidence mean?' });
  await expect(section).toContainText('90% and above');
  await expect(section).toContainText('70–89%');
  await expect(section).toContainText('Below 70%');
});
