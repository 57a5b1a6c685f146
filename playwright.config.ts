import { defineConfig } from '@playwright/test';

// Browser tests run the built app (sandbox mode, a throwaway data directory) in Debian's Chromium.
// Never `playwright install`: the machine has no route to the browser downloads.
const port = Number(process.env.E2E_PORT ?? 3100);

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  // `.ci/run` also asks for a JSON report (CROSSFADE_TEST_REPORT) for its check that every test ran in some
  // tier (scripts/check-tiers.ts).
  reporter: process.env.CROSSFADE_TEST_REPORT
    ? [['list'], ['json', { outputFile: process.env.CROSSFADE_TEST_REPORT }]]
    : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'retain-on-failure',
    // Each person's own sandbox account starts with the fixed library of this scenario (the servers the
    // browser tests run allow it: SANDBOX_TEST_SCENARIOS, decision 0022), so no test depends on luck; a
    // test needing another library names its own with page.setExtraHTTPHeaders.
    extraHTTPHeaders: { 'x-sandbox-scenario': 'browser-tests' },
  },
  webServer: {
    command: `node scripts/e2e-server.mjs`,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    env: { PORT: String(port) },
  },
});
