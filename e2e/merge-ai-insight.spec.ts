import { type ChildProcess, spawn } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { type FakeAnthropicApi, startFakeAnthropicApi } from '../src/server/testing/fake-anthropic-api';
import { connectThroughUi } from './support/services';
import { expectToast } from './support/toasts';
import { registerThroughApi } from './support/users';

// The spec's "AI Insight" heading, shown only when a model wrote the insight (issue 26). This suite runs its
// own app on its own port with the Anthropic engine, pointed at the local fake Anthropic API; the other
// merge suites show the local engine's words.
const KEY = 'sk-ant-browser-test';
const MODEL_INSIGHT = {
  insightSummary: 'Both lists lean on bright guitar pop and late-night synths, so the blend moves easily.',
  playlistName: 'Bright Night Blend',
};
const port = Number(process.env.E2E_PORT ?? 3100) + 18;
const baseURL = `http://127.0.0.1:${port}`;
let server: ChildProcess | undefined;
let fake: FakeAnthropicApi | undefined;

test.describe.configure({ timeout: 240_000 });
test.use({ baseURL });

test.beforeAll(async () => {
  fake = await startFakeAnthropicApi({ apiKey: KEY });
  fake.script.always({ kind: 'text', text: JSON.stringify(MODEL_INSIGHT) });
  server = spawn(process.execPath, ['scripts/e2e-server.mjs'], {
    env: { ...process.env, PORT: String(port), E2E_ANTHROPIC_API_KEY: KEY, E2E_ANTHROPIC_BASE_URL: fake.url },
    stdio: 'ignore',
  });
  await expect
    .poll(async () => (await fetch(`${baseURL}/api/health`).catch(() => null))?.status ?? 0, {
      timeout: 120_000,
    })
    .toBe(200);
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await fake?.close();
});

test('a merge insight the model wrote is headed AI Insight, on the result and on the shared page', async ({
  page,
}) => {
  await registerThroughApi(page);
  await connectThroughUi(page, 'Spotify');
  const lists = (await (await page.request.get('/api/playlists/spotify')).json()) as {
    id: string;
    name: string;
  }[];
  const kpop = lists.find((playlist) => playlist.name === 'K-Pop Favourites');
  if (!kpop) throw new Error('no K-Pop Favourites');

  await page.goto('/visualizations');
  await page.getByRole('tab', { name: 'Friend Merge' }).click();
  await page
    .getByPlaceholder('Paste a Spotify or Apple Music playlist share URL')
    .fill(`https://open.spotify.com/playlist/${kpop.id}`);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expectToast(page, 'Playlist found!');
  await page.getByRole('button', { name: /^Road Trip/ }).click();
  await page.getByRole('button', { name: 'Create Merged Playlist' }).click();
  await expectToast(page, 'Playlists merged!');

  const result = page.getByRole('region', { name: 'Merged playlist' });
  await expect(result.getByText('AI Insight', { exact: true })).toBeVisible();
  await expect(result.getByText(MODEL_INSIGHT.insightSummary)).toBeVisible();
  await expect(result.getByText(/written from your playlists' overlap/)).toHaveCount(0);

  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Share with Friend' }).click();
  await expectToast(page, 'Link copied!');
  const shared = await page.evaluate(() => navigator.clipboard.readText());
  await page.goto(new URL(shared).pathname);
  const sharedResult = page.getByRole('region', { name: 'Merged playlist' });
  await expect(sharedResult.getByText('AI Insight', { exact: true })).toBeVisible();
  await expect(sharedResult.getByText(MODEL_INSIGHT.insightSummary)).toBeVisible();
});
