/**
 * `npm run bench:web`: how much JavaScript a first visit costs. Starts the built app in sandbox mode (the
 * browser-test server, which builds the web app first when its sources changed), opens `/`, `/transfer`
 * and `/visualizations` in Chromium, each in a fresh context with an empty cache, and prints the gzip
 * size of every script the page fetched and the total per page. `/transfer` and `/visualizations` are
 * opened signed in, so the page itself (and its charts) is drawn rather than a sign-in prompt.
 *
 * Settings: BENCH_WEB_PORT (3190), CHROMIUM_PATH (/usr/bin/chromium).
 * Goal of issue 13: the first visit to `/` loads at most 150 KB of JavaScript, gzip.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { type BrowserContext, chromium } from 'playwright-core';
import { isConnectionFailure } from '../src/server/testing/expected-errors';
import { waitUntil } from '../src/server/testing/wait-until';
import { CSRF_COOKIE, CSRF_HEADER } from '../src/shared/api/auth';

const PORT = Number(process.env.BENCH_WEB_PORT ?? 3190);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const FIRST_VISIT_BUDGET_KB = 150;

interface ScriptSize {
  url: string;
  gzipBytes: number;
}

function startServer(): ChildProcess {
  const child = spawn(process.execPath, ['scripts/e2e-server.mjs'], {
    env: { ...process.env, PORT: String(PORT), E2E_PORT: String(PORT) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return child;
}

async function serverIsUp(): Promise<boolean> {
  try {
    return (await fetch(`${ORIGIN}/api/health`)).ok;
  } catch (error) {
    // Not listening yet.
    if (isConnectionFailure(error)) return false;
    throw error;
  }
}

async function signIn(context: BrowserContext): Promise<void> {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  await context.request.get(`${ORIGIN}/api/auth/status`);
  const csrf = (await context.cookies()).find((cookie) => cookie.name === CSRF_COOKIE)?.value ?? '';
  const res = await context.request.post(`${ORIGIN}/api/auth/register`, {
    data: { username: `bench_${suffix}`, email: `bench.${suffix}@example.com`, password: `pw-${suffix}` },
    headers: { [CSRF_HEADER]: csrf },
  });
  if (res.status() !== 201) throw new Error(`register: ${res.status()} ${await res.text()}`);
}

/** Every script a fresh load of `path` fetched, gzipped here the way a server would send it. */
async function scriptsFetchedBy(context: BrowserContext, path: string): Promise<ScriptSize[]> {
  const page = await context.newPage();
  const scripts: Promise<ScriptSize>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.push(
      response
        .body()
        .then((body) => ({ url: new URL(response.url()).pathname, gzipBytes: gzipSync(body).length })),
    );
  });
  await page.goto(`${ORIGIN}${path}`, { waitUntil: 'networkidle' });
  // The page's own chunk has arrived once its heading is drawn.
  await page.locator('main h1').first().waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  const sizes = await Promise.all(scripts);
  await page.close();
  return sizes;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

async function main(): Promise<void> {
  const server = (await serverIsUp()) ? undefined : startServer();
  try {
    await waitUntil(serverIsUp, (up) => up, 300_000, 500);
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    const pages = [
      { path: '/', signedIn: false },
      { path: '/transfer', signedIn: true },
      { path: '/visualizations', signedIn: true },
    ];
    const totals: { path: string; bytes: number }[] = [];
    for (const { path, signedIn } of pages) {
      const context = await browser.newContext();
      if (signedIn) await signIn(context);
      const scripts = await scriptsFetchedBy(context, path);
      await context.close();
      console.log(`\n${path}${signedIn ? ' (signed in)' : ''}`);
      for (const script of scripts) console.log(`  ${kb(script.gzipBytes).padStart(7)} KB  ${script.url}`);
      const total = scripts.reduce((sum, script) => sum + script.gzipBytes, 0);
      totals.push({ path, bytes: total });
      console.log(`  ${kb(total).padStart(7)} KB  total (${scripts.length} scripts, gzip)`);
    }
    await browser.close();
    console.log('\nJavaScript per first visit (gzip):');
    for (const { path, bytes } of totals) console.log(`  ${path.padEnd(16)} ${kb(bytes).padStart(7)} KB`);
    const home = totals[0]?.bytes ?? 0;
    console.log(
      `Goal for /: at most ${FIRST_VISIT_BUDGET_KB} KB — ${home <= FIRST_VISIT_BUDGET_KB * 1024 ? 'met' : 'NOT met'}`,
    );
  } finally {
    server?.kill('SIGTERM');
  }
}

await main();
