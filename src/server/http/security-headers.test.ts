import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { securityHeaders } from './security-headers';

/** Real Apple Music signs people in through MusicKit's popup, which needs the page's opener tie kept. */
async function headersFor(env: Record<string, string>) {
  const app = new Hono();
  app.use('*', securityHeaders(loadConfig(env)));
  app.get('/', (c) => c.text('ok'));
  return (await app.request('/')).headers;
}

const realApple = {
  APPLE_TEAM_ID: 'TEAM123456',
  APPLE_KEY_ID: 'KEY1234567',
  APPLE_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----',
};

describe('security headers', () => {
  it('keep same-origin isolation in sandbox mode', async () => {
    const headers = await headersFor({});
    expect(headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(headers.get('content-security-policy')).not.toContain('js-cdn.music.apple.com');
  });

  it('allow MusicKit’s popup and script where Apple Music runs for real', async () => {
    const headers = await headersFor(realApple);
    expect(headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    expect(headers.get('content-security-policy')).toContain(
      "script-src 'self' https://js-cdn.music.apple.com",
    );
  });

  it('take MusicKit’s script address from MUSICKIT_SCRIPT_URL', async () => {
    const headers = await headersFor({
      ...realApple,
      MUSICKIT_SCRIPT_URL: 'http://127.0.0.1:4999/musickit.js',
    });
    expect(headers.get('content-security-policy')).toContain("script-src 'self' http://127.0.0.1:4999");
  });
});
