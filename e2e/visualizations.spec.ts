import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { expectToast } from './support/toasts';
import { registerThroughApi } from './support/users';

test.describe.configure({ timeout: 120_000 });

async function downloadFrom(page: Page, click: () => Promise<void>) {
  const pending = page.waitForEvent('download');
  await click();
  const download = await pending;
  const path = await download.path();
  return { name: download.suggestedFilename(), bytes: await readFile(path) };
}

const featureTab = (page: Page, name: string) =>
  page.getByRole('tablist', { name: 'Features' }).getByRole('tab', { name });

test('signed out, every tab renders on the sample library and the graph downloads as a PNG', async ({
  page,
}) => {
  await page.goto('/visualizations');
  await expect(page.getByRole('heading', { level: 1, name: 'Features' })).toBeVisible();
  await expect(
    page.getByText('Showing sample data: connect Spotify or Apple Music to see your own library'),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'connect a service' })).toHaveAttribute('href', '/transfer');

  // Taste graph
  const canvas = page.getByRole('img', { name: /Genre Connections/ });
  await expect(canvas).toBeVisible();
  await expect(page.getByRole('list', { name: 'Top genres' }).getByRole('listitem')).toHaveCount(5);
  await expect(page.getByText(/Sample library: 45 tracks in 3 playlists/)).toBeVisible();
  const zoomLevel = page.getByLabel('Zoom level');
  await expect(zoomLevel).toHaveText('100%');
  for (let i = 0; i < 3; i += 1) await page.getByRole('button', { name: 'Zoom out' }).click();
  await expect(zoomLevel).toHaveText('50%');
  await expect(page.getByRole('button', { name: 'Zoom out' })).toBeDisabled();
  for (let i = 0; i < 8; i += 1) await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect(zoomLevel).toHaveText('200%');
  await expect(page.getByRole('button', { name: 'Zoom in' })).toBeDisabled();

  await page.getByRole('tab', { name: 'Artists Network' }).click();
  await expect(page.getByRole('img', { name: /Artists Network/ })).toBeVisible();
  await page.getByRole('tab', { name: 'Key Influences' }).click();
  await expect(page.getByRole('img', { name: /Key Influences/ })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Legend' })).toContainText('Tracks');

  const png = await downloadFrom(page, () => page.getByRole('button', { name: 'Download PNG' }).click());
  expect(png.name).toBe('taste-graph.png');
  expect([...png.bytes.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  expect(png.bytes.length).toBeGreaterThan(2000);

  // Taste timeline
  await featureTab(page, 'Taste Timeline').click();
  await expect(page.getByText(/leads your listening/)).toBeVisible();
  const allTime = page.waitForResponse((response) => response.url().includes('timeRange=all'));
  await page.getByLabel('Time range').selectOption('all');
  expect((await allTime).status()).toBe(200);
  await expect(page.getByRole('tabpanel', { name: 'Genres' })).toContainText('2010');
  await page.getByRole('tab', { name: 'Moods' }).click();
  await expect(page.getByText(/leads your moods/)).toBeVisible();

  // Export, on the sample playlists
  await featureTab(page, 'Export Options').click();
  await expect(page.getByLabel('Playlist')).toContainText('Morning Drive (sample, 15 tracks)');
  const csv = await downloadFrom(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
  expect(csv.name).toBe('Morning-Drive.csv');
  const lines = csv.bytes
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(lines[0]).toBe('Track Name,Artist,Album,Duration');
  expect(lines).toHaveLength(16);
  expect(lines[1]).toBe('Open Road Sunrise,The Paper Kites Club,Highway Lines,3:34');
  await expectToast(page, 'Export Complete');

  await page.getByRole('tab', { name: 'JSON' }).click();
  await page.getByLabel('Playlist').selectOption({ label: 'Workout Mix (sample, 15 tracks)' });
  await page.getByRole('switch', { name: 'Include Links' }).click();
  const json = await downloadFrom(page, () => page.getByRole('button', { name: 'Export JSON' }).click());
  expect(json.name).toBe('Workout-Mix.json');
  const parsed = JSON.parse(json.bytes.toString('utf8')) as {
    playlist: { name: string; trackCount: number };
    tracks: { name: string; uri?: string }[];
    includesMetadata: boolean;
  };
  expect(parsed.playlist).toMatchObject({ name: 'Workout Mix', trackCount: 15 });
  expect(parsed.tracks[0]?.uri).toBeTruthy();
  expect(parsed.includesMetadata).toBe(false);

  await page.getByRole('tab', { name: 'ZIP' }).click();
  await expect(page.getByText('Vault+ premium feature', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export ZIP' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Crossfade storage' })).toBeDisabled();

  // The other engineers' panels and the Coming Soon cards
  await featureTab(page, 'Friend Merge').click();
  await expect(page.getByRole('tabpanel')).toBeVisible();
  await featureTab(page, 'Geo-Lock').click();
  await expect(page.getByRole('tabpanel')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Coming Soon' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Multi-Service Sync' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Social Graph' })).toBeVisible();
});

test('a free user with Spotify connected sees their own library, exports it, and is told ZIP needs Vault+', async ({
  page,
}) => {
  await registerThroughApi(page);
  await page.goto('/transfer');
  await page.getByRole('button', { name: 'Connect Spotify' }).click();
  await page.getByRole('button', { name: 'Agree', exact: true }).click();
  await expectToast(page, 'Connected to Spotify');

  await page.goto('/visualizations');
  await expect(page.getByRole('img', { name: /Genre Connections/ })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/Showing sample data/)).toHaveCount(0);
  await expect(page.getByText(/^\d+ tracks in \d+ playlists/)).toBeVisible();

  await featureTab(page, 'Taste Timeline').click();
  await expect(page.getByText(/leads your listening/)).toBeVisible();

  await featureTab(page, 'Export Options').click();
  // The person's own sandbox library: its Road Trip holds as many tracks as their demo library gave it.
  const roadTrip = await page
    .getByLabel('Playlist')
    .locator('option', { hasText: /^Road Trip \(Spotify, \d+ tracks\)$/ })
    .textContent();
  await page.getByLabel('Playlist').selectOption({ label: roadTrip ?? '' });
  const csv = await downloadFrom(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
  expect(csv.name).toBe('Road-Trip.csv');
  const lines = csv.bytes
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(lines[0]).toBe('Track Name,Artist,Album,Duration');
  expect(lines.length).toBeGreaterThan(40);

  await page.getByLabel('Playlist').selectOption({ label: 'New Playlist (Spotify, 0 tracks)' });
  await page.getByRole('button', { name: 'Export CSV' }).click();
  await expectToast(page, 'No data to export');

  await page.getByRole('tab', { name: 'ZIP' }).click();
  await expect(
    page.getByText(/ZIP export is a Vault\+ premium feature\. A Vault\+ subscription is required/),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'See plans' }).first()).toHaveAttribute('href', '/pricing');
  await expect(page.getByRole('button', { name: 'Export ZIP' })).toBeDisabled();
});

test('a failed load shows the inline error, the toast, and recovers with Try again', async ({ page }) => {
  await page.route('**/api/taste-graph?type=artists', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }),
  );
  await page.route('**/api/taste-timeline?timeRange=5years', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }),
  );
  await page.goto('/visualizations');
  await page.getByRole('tab', { name: 'Artists Network' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Could not load your taste graph' })).toBeVisible();
  await expectToast(page, 'Error', 'Failed to load taste graph data');
  // The server's reason stays, on its own line under the spec's sentence.
  await expect(
    page.getByRole('region', { name: /Notifications/ }).getByText('boom', { exact: true }),
  ).toBeVisible();
  await page.unroute('**/api/taste-graph?type=artists');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('img', { name: /Artists Network/ })).toBeVisible();

  await featureTab(page, 'Taste Timeline').click();
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to load timeline data' })).toBeVisible();
  await expectToast(page, 'Error', 'Failed to load taste timeline data');
  await page.unroute('**/api/taste-timeline?timeRange=5years');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByText(/leads your listening/)).toBeVisible();
});

test('on a 360 px phone the taste graph pans and zooms, and reads as a list', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/visualizations');
  const canvas = page.getByRole('img', { name: /Genre Connections/ });
  await expect(canvas).toBeVisible();
  // The drawing keeps a readable size: at least its full 800 px, panned inside its own region.
  const drawn = await canvas.boundingBox();
  expect(drawn?.width ?? 0).toBeGreaterThanOrEqual(800);
  const viewport = page.getByRole('region', { name: 'Genre Connections, scroll to pan' });
  const pan = async (left: number) =>
    viewport.evaluate((element, to) => {
      element.scrollLeft = to;
      return element.scrollLeft;
    }, left);
  expect(await pan(300)).toBeGreaterThan(0);
  expect(await pan(0)).toBe(0);
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect(page.getByLabel('Zoom level')).toHaveText('120%');
  // Beside it, the graph as a list anyone can read, in type of a normal size.
  const list = page.getByRole('list', { name: 'Genre Connections, as a list' });
  await expect(list).toBeVisible();
  const first = list.getByRole('listitem').first();
  await expect(first).toBeVisible();
  await expect(first).toContainText(/\(genre, \d+\)/);
  const fontSize = await first.evaluate((element) => Number.parseFloat(getComputedStyle(element).fontSize));
  expect(fontSize).toBeGreaterThanOrEqual(14);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  // Wide screens fit the drawing to the card and keep the list for screen readers only.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(list).not.toBeInViewport();
  expect((await canvas.boundingBox())?.width ?? 0).toBeLessThan(1280);
});

test('tab changes are recorded, and each tab is accessible on a 360 px phone', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const events: { event: string; properties?: Record<string, unknown> }[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'POST' || !request.url().endsWith('/api/events')) return;
    const body = request.postDataJSON() as { events?: typeof events } | null;
    events.push(...(body?.events ?? []));
  });
  await page.goto('/visualizations');
  for (const name of ['Taste Graph', 'Taste Timeline', 'Export Options']) {
    if (name !== 'Taste Graph') await featureTab(page, name).click();
    await expect(page.getByRole('tabpanel').first()).toBeVisible();
    if (name === 'Taste Graph')
      await expect(page.getByRole('img', { name: /Genre Connections/ })).toBeVisible();
    if (name === 'Taste Timeline') await expect(page.getByText(/leads your listening/)).toBeVisible();
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    const serious = results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`);
    expect(serious, name).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, name).toBeLessThanOrEqual(0);
  }
  await expect
    .poll(
      () =>
        events
          .filter((event) => event.event === 'visualization_viewed')
          .map((event) => event.properties?.visualization_type),
      {
        timeout: 15_000,
      },
    )
    .toEqual(['taste-timeline', 'export-options']);
});
