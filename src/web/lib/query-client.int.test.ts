import { queryOptions } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { request } from './api-client';
import { createQueryClient, isUnauthorized, nullIfUnauthorized } from './query-client';
import { startTestServer, type TestServer } from './test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer((request, res) => {
    if (request.url === '/api/private') {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Please sign in.' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ path: request.url }));
  });
});

afterAll(() => server.close());

const answerSchema = z.object({ path: z.string() });

describe('queries', () => {
  it('read through their own queryFn and parse the answer', async () => {
    const client = createQueryClient();
    const data = await client.fetchQuery(
      queryOptions({
        queryKey: ['playlists', 'spotify'],
        queryFn: () => request(answerSchema, 'GET', `${server.origin}/api/playlists/spotify`),
      }),
    );
    expect(data).toEqual({ path: '/api/playlists/spotify' });
  });

  it('treat a 401 as an error by default', async () => {
    const client = createQueryClient();
    const error = await client
      .fetchQuery({
        queryKey: ['private'],
        queryFn: () => request(answerSchema, 'GET', `${server.origin}/api/private`),
      })
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('401: {"message":"Please sign in."}');
    expect(isUnauthorized(error)).toBe(true);
  });

  it('yield null for a 401 when the query asks for it', async () => {
    const client = createQueryClient();
    const data = await client.fetchQuery({
      queryKey: ['private', 'or-null'],
      queryFn: () => nullIfUnauthorized(request(answerSchema, 'GET', `${server.origin}/api/private`)),
    });
    expect(data).toBeNull();
  });

  it('never go stale and never retry', () => {
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.queries?.staleTime).toBe(Number.POSITIVE_INFINITY);
    expect(defaults.queries?.retry).toBe(false);
    expect(defaults.queries?.refetchOnWindowFocus).toBe(false);
    expect(defaults.mutations?.retry).toBe(false);
  });
});
