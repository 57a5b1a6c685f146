import { QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueryClient, getQueryFn, isUnauthorized } from './query-client';
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

describe('default query fn', () => {
  it('fetches the URL made of the query key', async () => {
    const client = createQueryClient();
    const data = await client.fetchQuery({ queryKey: [`${server.origin}/api/playlists`, 'spotify'] });
    expect(data).toEqual({ path: '/api/playlists/spotify' });
  });

  it('treats a 401 as an error by default', async () => {
    const client = createQueryClient();
    const error = await client
      .fetchQuery({ queryKey: [`${server.origin}/api/private`] })
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('401: {"message":"Please sign in."}');
    expect(isUnauthorized(error)).toBe(true);
  });

  it('yields null for a 401 when the query asks for it', async () => {
    const client = new QueryClient();
    const data = await client.fetchQuery({
      queryKey: [`${server.origin}/api/private`],
      queryFn: getQueryFn({ on401: 'returnNull' }),
    });
    expect(data).toBeNull();
  });
});

describe('query client defaults (spec section 9)', () => {
  it('never goes stale, never refetches on focus or interval, and never retries', () => {
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.queries?.staleTime).toBe(Number.POSITIVE_INFINITY);
    expect(defaults.queries?.refetchOnWindowFocus).toBe(false);
    expect(defaults.queries?.refetchInterval).toBe(false);
    expect(defaults.queries?.retry).toBe(false);
    expect(defaults.mutations?.retry).toBe(false);
  });
});
