import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('loadConfig', () => {
  it('defaults to the loopback address people can register as a Spotify redirect URI, and sandbox mode', () => {
    const config = loadConfig({});
    expect(config.publicUrl).toBe('http://127.0.0.1:3000');
    expect(config.sandbox).toEqual({ spotify: true, apple: true, googleDrive: true, dropbox: true });
    expect(config.DATABASE_URL).toBeUndefined();
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
    expect(config.sandbox).toEqual({ spotify: false, apple: false, googleDrive: false, dropbox: false });
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
});
