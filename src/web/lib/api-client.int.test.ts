import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApiRequestError,
  apiRequest,
  errorStatus,
  request,
  rowProblems,
  serverMessage,
  UnexpectedAnswerError,
} from './api-client';
import { startTestServer, type TestServer } from './test-server';

let server: TestServer;
/** Bodies whose first request gets no answer / a "still running" 409. */
const lostOnce = new Set<string>();
const runningOnce = new Set<string>();

beforeAll(async () => {
  server = await startTestServer((request, res) => {
    if (request.url === '/conflict') {
      res.writeHead(409, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'That username is taken' }));
    } else if (request.url === '/bad-list') {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          message: 'No song could be read from the list.',
          problems: [{ row: 2, message: "Line 2 doesn't look like a song." }, { row: 'x' }],
        }),
      );
    } else if (request.url === '/empty-error') {
      res.writeHead(503, 'Service Unavailable');
      res.end();
    } else if (request.url === '/api/recreate' && lostOnce.delete(request.body)) {
      // The answer is lost on the way (a dropped connection): the client must ask again, with the same key.
      res.socket?.destroy();
    } else if (request.url === '/api/links' && runningOnce.delete(request.body)) {
      res.writeHead(409, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(JSON.stringify({ message: 'A request with this Idempotency-Key is still running.' }));
    } else if (request.url === '/api/links' || request.url === '/api/recreate') {
      setTimeout(() => {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ key: request.headers['idempotency-key'], body: request.body }));
      }, 50);
    } else if (request.url === '/no-content') {
      res.writeHead(204);
      res.end();
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true }));
    }
  });
});

afterAll(() => server.close());

afterEach(() => {
  Reflect.deleteProperty(globalThis, 'document');
  server.requests.length = 0;
});

describe('apiRequest', () => {
  it('turns a failure into "{status}: {body}" and exposes the server message for toasts', async () => {
    const error = await apiRequest('POST', `${server.origin}/conflict`, { username: 'ada' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiRequestError);
    expect((error as Error).message).toBe('409: {"message":"That username is taken"}');
    expect(serverMessage(error)).toBe('That username is taken');
    expect(errorStatus(error)).toBe(409);
  });

  it('hands over the row problems of a bad list as data, leaving out entries of another shape', async () => {
    const error = await apiRequest('POST', `${server.origin}/bad-list`, {}).catch(
      (caught: unknown) => caught,
    );
    expect((error as Error).message).toMatch(/^400: \{"message":"No song could be read/);
    expect(rowProblems(error)).toEqual([{ row: 2, message: "Line 2 doesn't look like a song." }]);
    expect(rowProblems(new Error('network down'))).toEqual([]);
  });

  it('uses the status text when the failure has no body', async () => {
    const error = await apiRequest('GET', `${server.origin}/empty-error`).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('503: Service Unavailable');
    expect(serverMessage(error)).toBeUndefined();
  });

  it('echoes the CSRF cookie on mutations but not on reads', async () => {
    Object.defineProperty(globalThis, 'document', {
      value: { cookie: 'theme=dark; cf_csrf=token-123' },
      configurable: true,
    });
    await apiRequest('POST', `${server.origin}/ok`, { a: 1 });
    await apiRequest('GET', `${server.origin}/ok`);
    const [post, get] = server.requests;
    expect(post?.headers['x-csrf-token']).toBe('token-123');
    expect(post?.headers['content-type']).toBe('application/json');
    expect(post?.body).toBe('{"a":1}');
    expect(get?.headers['x-csrf-token']).toBeUndefined();
  });

  it('parses JSON answers with the schema and treats 204 as no body', async () => {
    await expect(request(z.object({ ok: z.boolean() }), 'GET', `${server.origin}/ok`)).resolves.toEqual({
      ok: true,
    });
    await expect(request(z.undefined(), 'POST', `${server.origin}/no-content`)).resolves.toBeUndefined();
  });

  it('refuses an answer the schema does not describe', async () => {
    const error = await request(z.object({ name: z.string() }), 'GET', `${server.origin}/ok?x=1`).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
    expect((error as Error).message).toMatch(/^Unexpected answer from http:\/\/127\.0\.0\.1:\d+\/ok: /);
    expect(errorStatus(error)).toBeUndefined();
  });

  it('has no server message for a network failure', async () => {
    const error = await apiRequest('GET', 'http://127.0.0.1:1/').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(serverMessage(error)).toBeUndefined();
    expect(errorStatus(error)).toBeUndefined();
  });
});

describe('creates', () => {
  const created = z.object({ key: z.string(), body: z.string() });
  const keysSent = (path: string) =>
    server.requests
      .filter((recorded) => recorded.url === path)
      .map((recorded) => recorded.headers['idempotency-key']);

  it('send a new Idempotency-Key with each create call, and none with other requests', async () => {
    const first = await request(created, 'POST', `${server.origin}/api/links`, { name: 'a' });
    const second = await request(created, 'POST', `${server.origin}/api/links`, { name: 'a' });
    expect(first.key).toMatch(/^[0-9a-f]{32}$/);
    expect(second.key).toMatch(/^[0-9a-f]{32}$/);
    expect(second.key).not.toBe(first.key);
    await apiRequest('POST', `${server.origin}/ok`, { a: 1 });
    expect(server.requests.at(-1)?.headers['idempotency-key']).toBeUndefined();
  });

  it('ask again with the same key when the answer was lost', async () => {
    lostOnce.add('{"name":"lost"}');
    const answer = await request(created, 'POST', `${server.origin}/api/recreate`, { name: 'lost' });
    const keys = keysSent('/api/recreate');
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(answer.key).toBe(keys[0]);
  });

  it('wait for a first copy that is still running, then get its answer with the same key', async () => {
    runningOnce.add('{"name":"running"}');
    const answer = await request(created, 'POST', `${server.origin}/api/links`, { name: 'running' });
    const keys = keysSent('/api/links');
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(answer.body).toBe('{"name":"running"}');
  });

  it('go out once when the same create is asked for while it is on its way (a double click)', async () => {
    const [one, two] = await Promise.all([
      request(created, 'POST', `${server.origin}/api/links`, { name: 'twice' }),
      request(created, 'POST', `${server.origin}/api/links`, { name: 'twice' }),
    ]);
    expect(keysSent('/api/links')).toHaveLength(1);
    expect(two).toEqual(one);
    // Another body is another create.
    await Promise.all([
      request(created, 'POST', `${server.origin}/api/links`, { name: 'x' }),
      request(created, 'POST', `${server.origin}/api/links`, { name: 'y' }),
    ]);
    expect(keysSent('/api/links')).toHaveLength(3);
  });

  it('give up on a lost answer after three sends', async () => {
    const error = await request(created, 'POST', 'http://127.0.0.1:1/api/links', { name: 'z' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(TypeError);
  });
});
