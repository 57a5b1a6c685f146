// Started by Playwright: the built app in sandbox mode on E2E_PORT/PORT with a throwaway data directory,
// so every browser-test run begins from an empty database and fresh emulator state.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.DATA_DIR = mkdtempSync(join(tmpdir(), 'crossfade-e2e-'));
process.env.PORT ??= '3100';
process.env.LOG_LEVEL ??= 'warn';
// Sign-in throttling stays on, with room for the suites that sign in many times.
process.env.LOGIN_MAX_FAILURES ??= '50';
// Rate limits stay on too, roomy enough for every account and event the suites make from one address.
process.env.SIGNUP_LIMIT_PER_HOUR ??= '10000';
process.env.LINK_SIGNUP_LIMIT_PER_HOUR ??= '10000';
process.env.MERGE_INVITATIONS_PER_DAY ??= '10000';
process.env.EVENTS_PER_10_SECONDS ??= '100000';
process.env.ONBOARDING_REPLIES_PER_MINUTE ??= '10000';
process.env.GEO_LOCK_TRACKS_PER_DAY ??= '1000000';
// Browser tests edit playlists on the emulators' pages and read step 2 right after (decision 0032).
process.env.PLAYLISTS_CACHE_SECONDS ??= '0';
process.env.SANDBOX_CONSENTS_PER_HOUR ??= '10000';
// Browser tests name the fixed library of each sandbox account they connect (X-Sandbox-Scenario).
process.env.SANDBOX_TEST_SCENARIOS ??= 'true';
delete process.env.DATABASE_URL;
for (const name of [
  'SPOTIFY_CLIENT_ID',
  'APPLE_TEAM_ID',
  'APPLE_KEY_ID',
  'APPLE_PRIVATE_KEY',
  'ANTHROPIC_API_KEY',
  'GOOGLE_CLIENT_ID',
  'GOOGLE_CLIENT_SECRET',
  'DROPBOX_CLIENT_ID',
]) {
  delete process.env[name];
}
// A suite that tests the model's words gives its local fake Anthropic API (src/server/testing) here.
if (process.env.E2E_ANTHROPIC_BASE_URL) {
  process.env.ANTHROPIC_API_KEY = process.env.E2E_ANTHROPIC_API_KEY ?? '';
  process.env.ANTHROPIC_BASE_URL = process.env.E2E_ANTHROPIC_BASE_URL;
}
// Payments run against the sandbox's Stripe emulator too.
for (const name of Object.keys(process.env)) if (name.startsWith('STRIPE_')) delete process.env[name];
await import('./start.mjs');
