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
delete process.env.DATABASE_URL;
for (const name of [
  'SPOTIFY_CLIENT_ID',
  'APPLE_TEAM_ID',
  'APPLE_KEY_ID',
  'APPLE_PRIVATE_KEY',
  'ANTHROPIC_API_KEY',
]) {
  delete process.env[name];
}
await import('./start.mjs');
