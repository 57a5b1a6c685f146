import { type ChildProcess, spawn } from 'node:child_process';
import { errors, expect, type Page, test } from '@playwright/test';
import { isConnectionFailure } from '../src/server/testing/expected-errors';
import { expectToast } from './support/toasts';
import { registerThroughApi } from './support/users';

// A slow network, as people on a real service see it: every emulator answer waits this long. The app
// runs on its own port so the other suites keep their fast emulators.
const LATENCY_MS = 400;
const port = Number(process.env.E2E_PORT ?? 3100) + 17;
const baseURL = `http://127.0.0.1:${port}`;
let server: ChildProcess | undefined;

test.describe.configure({ timeout: 360_000 });
test.use({ baseURL });

test.beforeAll(async () => {
  server = spawn(process.execPath, ['scripts/e2e-server.mjs'], {
    env: { ...process.env, PORT: String(port), SANDBOX_LATENCY_MS: String(LATENCY_MS) },
    stdio: 'ignore',
  });
  await expect
    .poll(
      async () => {
        // Refused while the server starts; any other failure fails the test.
        const health = await fetch(`${baseURL}/api/health`).catch((error: unknown) => {
          if (isConnectionFailure(error)) return null;
          throw error;
        });
        return health?.status ?? 0;
      },
      {
        timeout: 120_000,
      },
    )
    .toBe(200);
});

test.afterAll(() => {
  server?.kill('SIGTERM');
});

async function connect(page: Page, service: 'Spotify' | 'Apple Music') {
  await page.getByRole('button', { name: `Connect ${service}` }).click();
  await page.getByRole('button', { name: service === 'Spotify' ? 'Agree' : 'Allow', exact: true }).click();
  await expect(page).toHaveURL(/\/transfer$/);
  await expectToast(page, `Connected to ${service}`);
}

/** Reads the progress bar's spoken text every half second until `done` says stop. */
async function watchProgress(page: Page, label: string, done: () => Promise<boolean>) {
  const seen: string[] = [];
  const bar = page.getByRole('progressbar', { name: label });
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline && !(await done())) {
    // No bar within a second (between phases): nothing to read this time. Any other error fails the test.
    const text = await bar.getAttribute('aria-valuetext', { timeout: 1_000 }).catch((error: unknown) => {
      if (error instanceof errors.TimeoutError) return null;
      throw error;
    });
    if (text && seen.at(-1) !== text) seen.push(text);
    await page.waitForTimeout(500);
  }
  return seen;
}

const percentOf = (text: string) => Number(/^(\d+)%/.exec(text)?.[1] ?? Number.NaN);
const ETA = /About \d+ (s|min) left/;

// Both directions: the report was of a first Apple Music → Spotify match of 1,234 tracks that sat at
// "0% Starting…" for its whole minute.
for (const [from, to] of [
  ['spotify', 'apple'],
  ['apple', 'spotify'],
] as const) {
  test(`a large playlist shows live percentages and an ETA while it is read, matched and transferred (${from} → ${to})`, async ({
    page,
  }) => {
    await registerThroughApi(page);
    await page.goto(`/transfer?from=${from}&to=${to}`);
    await connect(page, 'Spotify');
    await connect(page, 'Apple Music');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/playlists$/);

    // The person's largest playlist: big enough that matching takes many slow calls.
    const playlists = (await (await page.request.get(`/api/playlists/${from}`)).json()) as {
      name: string;
      trackCount: number;
    }[];
    const largest = playlists.reduce((a, b) => (b.trackCount > a.trackCount ? b : a));
    expect(largest.trackCount).toBeGreaterThan(500);
    await page
      .getByRole('list', { name: 'Your playlists' })
      .getByRole('button', { name: new RegExp(`^${largest.name}\\b`) })
      .click();
    await page.getByRole('button', { name: 'Continue' }).click();

    const results = page.getByRole('region', { name: 'Match results' });
    const matching = await watchProgress(page, 'Matching tracks', () => results.isVisible());
    // The read is counted in before matching starts, then matching moves with an estimate of time left.
    expect(matching.some((text) => text.includes('Reading the playlist'))).toBe(true);
    const matchPercents = matching.map(percentOf).filter((p) => p > 0 && p < 100);
    expect(new Set(matchPercents).size, matching.join('\n')).toBeGreaterThanOrEqual(3);
    expect(
      matching.some((text) => ETA.test(text)),
      matching.join('\n'),
    ).toBe(true);
    await expect(results).toBeVisible();

    // The fixed library (the browser tests' scenario): its largest Spotify playlist leaves songs in review
    // on Apple Music; its largest Apple Music playlist leaves none on Spotify.
    const reviewAll = page.getByRole('button', { name: /^Accept all \d+ in review$/ });
    if (from === 'spotify') await reviewAll.click();
    else await expect(reviewAll).toHaveCount(0);
    await page.getByRole('button', { name: 'Transfer Playlist', exact: true }).click();
    const finished = page.getByRole('heading', { level: 1, name: 'Transfer Complete' });
    const adding = await watchProgress(page, 'Transferring playlist', () => finished.isVisible());
    const addPercents = adding.map(percentOf).filter((p) => p > 0 && p < 100);
    expect(new Set(addPercents).size, adding.join('\n')).toBeGreaterThanOrEqual(2);
    expect(
      adding.some((text) => ETA.test(text)),
      adding.join('\n'),
    ).toBe(true);
    await expect(finished).toBeVisible({ timeout: 120_000 });
  });
}
