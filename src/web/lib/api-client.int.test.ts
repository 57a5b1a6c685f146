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
