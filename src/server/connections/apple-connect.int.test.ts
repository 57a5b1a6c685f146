import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { appleConnectResponseSchema } from '../../shared/api/connections';
import { oauthRequests } from '../db/schema';
import { generateSandboxAppleKeys } from '../providers/apple/developer-token';
import { startTestServer, type TestServer } from '../testing/test-server';

/** GET /api/auth/apple/connect as the page asks it ahead of the click, in sandbox and in real mode. */
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function signedIn(env: Record<string, string> = {}) {
  server = await startTestServer({ env });
  const client = server.newClient();
  await client.post('/api/auth/register', {
    username: 'apple-fan',
    email: 'apple-fan@example.com',
    password: 'secret-words',
  });
  return client;
}

describe('Apple connect', () => {
  it('sandbox: preparing ahead of the click opens no consent request', async () => {
    const client = await signedIn();
    const prepared = await client.get('/api/auth/apple/connect?prepare=1');
    expect(prepared.status).toBe(200);
    expect(appleConnectResponseSchema.parse(prepared.body)).toEqual({
      useRedirect: true,
      authUrl: '',
      token: '',
    });
    expect(await server?.deps.db.select().from(oauthRequests)).toHaveLength(0);
    // The click itself still goes to the consent page.
    const connect = appleConnectResponseSchema.parse((await client.get('/api/auth/apple/connect')).body);
    expect(connect.authUrl).toContain('/sandbox/apple/authorize');
  });

  it('real mode: a developer token for this origin, the MusicKit script address, and popups allowed', async () => {
    const keys = await generateSandboxAppleKeys();
    const client = await signedIn({
      APPLE_TEAM_ID: keys.teamId,
      APPLE_KEY_ID: keys.keyId,
      APPLE_PRIVATE_KEY: keys.privateKeyPem,
      MUSICKIT_SCRIPT_URL: 'http://127.0.0.1:9/musickit.js',
    });
    const answer = await client.get('/api/auth/apple/connect?prepare=1');
    const body = appleConnectResponseSchema.parse(answer.body);
    expect(body.useRedirect).toBe(false);
    expect(body.musicKitScriptUrl).toBe('http://127.0.0.1:9/musickit.js');
    expect(decodeJwt(body.token).origin).toEqual([new URL(server?.url ?? '').origin]);
    expect(answer.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    expect(answer.headers.get('content-security-policy')).toContain('http://127.0.0.1:9');
  });
});
