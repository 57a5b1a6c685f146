import { describe, expect, it } from 'vitest';
import { sandboxSettingsShape } from '../sandbox/settings';
import { loadConfig, settingsSchema } from './config';

describe('loadConfig', () => {
  it('defaults to the loopback address people can register as a Spotify redirect URI, and sandbox mode', () => {
    const config = loadConfig({});
    expect(config.publicUrl).toBe('http://127.0.0.1:3000');
    expect(config.sandbox).toEqual({
      spotify: true,
      apple: true,
      googleDrive: true,
      dropbox: true,
      stripe: true,
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('names a renamed setting instead of ignoring it', () => {
    expect(() => loadConfig({ REGION_LOCK_TRACKS_PER_DAY: '20' })).toThrow(
      'Invalid setting REGION_LOCK_TRACKS_PER_DAY: it is now called GEO_LOCK_TRACKS_PER_DAY; rename it',
    );
    expect(loadConfig({ GEO_LOCK_TRACKS_PER_DAY: '20' }).GEO_LOCK_TRACKS_PER_DAY).toBe(20);
  });

  it('leaves sandbox mode for a service once its credentials are set', () => {
    const config = loadConfig({
      SPOTIFY_CLIENT_ID: 'abc',
      APPLE_TEAM_ID: 'TEAM123456',
      APPLE_KEY_ID: 'KEY1234567',
      APPLE_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----',
      GOOGLE_CLIENT_ID: 'web.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'secret',
      DROPBOX_CLIENT_ID: 'appkey',
    });
    expect(config.sandbox).toEqual({
      spotify: false,
      apple: false,
      googleDrive: false,
      dropbox: false,
      stripe: true,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, /^Invalid setting PORT: /],
    [{ PORT: '0' }, /^Invalid setting PORT: PORT must be a port number/],
    [
      { DATABASE_URL: 'not a url' },
      /^Invalid setting DATABASE_URL: DATABASE_URL must be a postgres:\/\/ URL$/,
    ],
    [{ TOKEN_ENCRYPTION_KEY: 'c2hvcnQ=' }, /TOKEN_ENCRYPTION_KEY must be 32 bytes in base64/],
    [{ APPLE_TEAM_ID: 'TEAM123456' }, /set APPLE_TEAM_ID, APPLE_KEY_ID and APPLE_PRIVATE_KEY together/],
    [{ SPOTIFY_MODE: 'turbo' }, /^Invalid setting SPOTIFY_MODE: /],
    [
      { GOOGLE_CLIENT_ID: 'web.apps.googleusercontent.com' },
      /set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET together/,
    ],
    [{ DROPBOX_API_URL: 'api.dropboxapi.com' }, /^Invalid setting DROPBOX_API_URL: /],
  ])('stops with one line naming the bad setting: %j', (env, expected) => {
    expect(() => loadConfig(env)).toThrow(expected);
  });

  describe('payments (Stripe)', () => {
    const real = {
      STRIPE_SECRET_KEY: 'sk_test_abc123',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
      STRIPE_PRICE_PRO: 'price_pro',
      STRIPE_PRICE_VAULT: 'price_vault',
    };

    it('leaves the payments sandbox with a key, its webhook secret and both monthly prices', () => {
      const config = loadConfig({ ...real, STRIPE_API_URL: 'http://127.0.0.1:12111/stripe' });
      expect(config.sandbox.stripe).toBe(false);
      expect(config.STRIPE_API_URL).toBe('http://127.0.0.1:12111/stripe');
      expect(loadConfig({}).STRIPE_API_URL).toBe('https://api.stripe.com');
    });

    it.each([
      [
        { STRIPE_SECRET_KEY: 'sk_test_abc123' },
        'Invalid setting STRIPE_WEBHOOK_SECRET: STRIPE_SECRET_KEY is set, so set STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_PRO, STRIPE_PRICE_VAULT too (see README, Payments)',
      ],
      [
        { ...real, STRIPE_PRICE_VAULT: '' },
        'Invalid setting STRIPE_PRICE_VAULT: STRIPE_SECRET_KEY is set, so set STRIPE_PRICE_VAULT too (see README, Payments)',
      ],
      [
        { STRIPE_WEBHOOK_SECRET: 'whsec_abc' },
        'Invalid setting STRIPE_SECRET_KEY: STRIPE_WEBHOOK_SECRET is set but STRIPE_SECRET_KEY is not (payments would use the sandbox)',
      ],
      [
        { ...real, STRIPE_SECRET_KEY: 'pk_test_publishable' },
        'Invalid setting STRIPE_SECRET_KEY: STRIPE_SECRET_KEY must be a Stripe secret key (sk_live_…, sk_test_… or rk_…)',
      ],
      [
        { ...real, STRIPE_WEBHOOK_SECRET: 'secret' },
        'Invalid setting STRIPE_WEBHOOK_SECRET: STRIPE_WEBHOOK_SECRET must be a webhook signing secret (whsec_…)',
      ],
      [
        { STRIPE_API_URL: 'ftp://example.com' },
        'Invalid setting STRIPE_API_URL: STRIPE_API_URL must be an http(s) URL',
      ],
    ])('stops with one line: %j', (env, expected) => {
      expect(() => loadConfig(env)).toThrow(expected);
    });
  });
});

describe('SANDBOX_* settings', () => {
  it('are defined once: the app takes every one the emulators share from src/sandbox/settings.ts', () => {
    for (const [name, schema] of Object.entries(sandboxSettingsShape))
      expect(settingsSchema.shape[name as keyof typeof settingsSchema.shape], name).toBe(schema);
    const appOnly = Object.keys(settingsSchema.shape).filter(
      (name) => name.startsWith('SANDBOX_') && !(name in sandboxSettingsShape),
    );
    // What only the app reads: where standalone emulators run, and the tests' fixed scenarios.
    expect(appOnly.sort()).toEqual(['SANDBOX_TEST_SCENARIOS', 'SANDBOX_URL']);
  });
});
