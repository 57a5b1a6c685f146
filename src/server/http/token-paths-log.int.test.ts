import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedLog } from '../testing/captured-log';
import { startTestServer, type TestServer } from '../testing/test-server';
import { redactPath } from './log-redaction';

/** Issue 10, point 7: paths that carry a token are logged with the token replaced. */
const { logger, lines } = capturedLog();

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ logger });
});
afterAll(async () => {
  await server.close();
});

describe('request log of paths with tokens', () => {
  it('never writes an invitation token, through the API or the page link', async () => {
    const token = randomBytes(32).toString('base64url');
    const short = 'abc123short';
    const client = server.newClient();
    await client.post('/api/auth/register', {
      username: 'log-reader',
      email: 'log-reader@example.com',
      password: 'secret-words',
    });
    const asked = [
      await client.get(`/api/merge/invitations/${token}`),
      await client.post(`/api/merge/invitations/${token}/accept`, { playlistId: 'x', service: 'spotify' }),
      await client.get(`/api/merge/invitations/${short}`),
      await client.get(`/merge/invite/${token}`),
      await client.get(`/merge/invite/${short}`),
      await client.get(`/api/no-such-thing/${token}`),
    ];
    for (const response of asked) expect(response.status).toBeLessThan(600);
    const log = lines.join('');
    const requests = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request');
    expect(requests.length).toBeGreaterThanOrEqual(asked.length);
    expect(log).not.toContain(token);
    expect(log).not.toContain(short);
    expect(requests.map((entry) => entry.path)).toEqual(
      expect.arrayContaining(['/api/merge/invitations/:token', '/merge/invite/[token]']),
    );
  });

  it('redactPath replaces the token segment and keeps the rest of the shape', () => {
    expect(redactPath('/merge/invite/abc')).toBe('/merge/invite/[token]');
    expect(redactPath('/api/merge/invitations/abc/accept')).toBe('/api/merge/invitations/[token]/accept');
    expect(redactPath(`/anything/${'A'.repeat(43)}/x`)).toBe('/anything/[token]/x');
    expect(redactPath('/transfer')).toBe('/transfer');
  });
});
