import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';

/**
 * Ids typed into a URL that cannot be ids at all (the database would refuse them in a uuid column) read
 * as "not found" with a message, never as a server error. One check (`db/uuid.ts`) decides what an id is.
 */
let server: TestServer;
let client: TestClient;

beforeAll(async () => {
  server = await startTestServer({ env: { JOB_WORKERS: '0' } });
  client = server.newClient();
  const suffix = Date.now().toString(36);
  const registered = await client.post('/api/auth/register', {
    username: `ids_${suffix}`,
    email: `ids.${suffix}@example.com`,
    password: `pw-${suffix}-long-enough`,
  });
  expect(registered.status, registered.text).toBeLessThan(300);
}, 60_000);
afterAll(() => server.close());

const NOT_IDS = ['not-an-id', '-'.repeat(36), 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz'];
const UNKNOWN_ID = '0b1f7c9e-5d2a-4e8b-9c3f-6a7d8e9f0a1b';

describe('ids in URLs', () => {
  it.each(['/api/jobs/', '/api/match/', '/api/transfers/', '/api/batches/', '/api/exports/'])(
    '%s answers 404 with a message for a malformed or unknown id',
    async (prefix) => {
      for (const id of [...NOT_IDS, UNKNOWN_ID]) {
        const answer = await client.get(`${prefix}${encodeURIComponent(id)}`);
        expect(answer.status, `${prefix}${id}: ${answer.text}`).toBe(404);
        expect(answer.body).toMatchObject({ message: expect.any(String) });
      }
    },
  );
});
