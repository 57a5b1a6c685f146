import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpClient, ProviderError, parseRetryAfter } from './http';

describe('parseRetryAfter', () => {
  it('reads whole and fractional seconds as milliseconds, rounding up', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('0.2')).toBe(200);
  });
  it('ignores a missing or empty header', () => {
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter(' ')).toBeUndefined();
  });
  it('reads an HTTP date as the time until then', () => {
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    const wait = parseRetryAfter(inTenSeconds) ?? -1;
    expect(wait).toBeGreaterThan(8_000);
    expect(wait).toBeLessThanOrEqual(10_000);
  });
});

describe('HttpClient retries', () => {
  const serve = async (statuses: number[]) => {
    const { createServer } = await import('node:http');
    let calls = 0;
    const server = createServer((_request, response) => {
      const status = statuses[Math.min(calls++, statuses.length - 1)] ?? 200;
      response
        .writeHead(status, { 'content-type': 'application/json' })
        .end(status === 200 ? '{"ok":true}' : '{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as import('node:net').AddressInfo;
    return { url: `http://127.0.0.1:${port}`, calls: () => calls, close: () => server.close() };
  };
  const client = (baseUrl: string) =>
    new HttpClient({
      service: 'spotify',
      baseUrl,
      sleep: async () => undefined,
      describeError: (status) => new ProviderError('spotify', 'unavailable', `status ${status}`, status),
    });
  const okSchema = z.object({ ok: z.boolean() });

  it('retries reads after a 5xx', async () => {
    const fake = await serve([503, 502, 200]);
    await expect(client(fake.url).request(okSchema, { url: '/thing' })).resolves.toEqual({ ok: true });
    expect(fake.calls()).toBe(3);
    fake.close();
  });

  it('never repeats a write that may have been applied: a 5xx on it surfaces at once', async () => {
    const fake = await serve([500, 200]);
    await expect(
      client(fake.url).request(okSchema, {
        url: '/items',
        method: 'POST',
        body: {},
        retryServerErrors: false,
      }),
    ).rejects.toThrow('status 500');
    expect(fake.calls()).toBe(1);
    fake.close();
  });

  it('still retries a write after a 429, which means nothing was done', async () => {
    const fake = await serve([429, 200]);
    await expect(
      client(fake.url).request(okSchema, {
        url: '/items',
        method: 'POST',
        body: {},
        retryServerErrors: false,
      }),
    ).resolves.toEqual({ ok: true });
    expect(fake.calls()).toBe(2);
    fake.close();
  });
});

describe('HttpClient when a service does not answer (SANDBOX_FAULTS timeout-rate)', () => {
  /** A server that leaves the first `silent` calls unanswered, then answers 200. */
  const serveSilently = async (silent: number) => {
    const { createServer } = await import('node:http');
    let calls = 0;
    const server = createServer((_request, response) => {
      if (calls++ < silent) return;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as import('node:net').AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      calls: () => calls,
      close: () => {
        server.closeAllConnections();
        server.close();
      },
    };
  };
  /** The client with a short timeout, counting the requests it sends. */
  const client = (baseUrl: string) => {
    const sent = { count: 0 };
    const http = new HttpClient({
      service: 'apple',
      baseUrl,
      timeoutMs: 500,
      sleep: async () => undefined,
      fetchImpl: (input, init) => {
        sent.count++;
        return fetch(input, init);
      },
      describeError: (status) => new ProviderError('apple', 'unavailable', `status ${status}`, status),
    });
    return { http, sent };
  };
  const okSchema = z.object({ ok: z.boolean() });

  it('gives up on a read after its timeout and asks again', async () => {
    const fake = await serveSilently(2);
    const { http, sent } = client(fake.url);
    await expect(http.request(okSchema, { url: '/thing' })).resolves.toEqual({ ok: true });
    expect(sent.count).toBeGreaterThanOrEqual(3);
    fake.close();
  });

  it('never repeats a write left unanswered (it may have been applied): the caller reconciles', async () => {
    const fake = await serveSilently(1);
    const { http, sent } = client(fake.url);
    const failure = await http
      .request(okSchema, { url: '/tracks', method: 'POST', body: {}, retryServerErrors: false })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).message).toMatch(/did not answer/);
    expect(sent.count).toBe(1);
    fake.close();
  });
});

describe('HttpClient after a 429', () => {
  it('holds back every other request of the client until the Retry-After has passed', async () => {
    const { createServer } = await import('node:http');
    const arrivals: { path: string; at: number }[] = [];
    let refused = false;
    const server = createServer((request, response) => {
      arrivals.push({ path: request.url ?? '', at: performance.now() });
      if (!refused) {
        refused = true;
        response.writeHead(429, { 'retry-after': '0.3', 'content-type': 'application/json' }).end('{}');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as import('node:net').AddressInfo;
    let secondRequest: Promise<unknown> | undefined;
    const http = new HttpClient({
      service: 'spotify',
      baseUrl: `http://127.0.0.1:${port}`,
      describeError: (status) => new ProviderError('spotify', 'unavailable', `status ${status}`, status),
      // The moment the first request is refused, another one starts.
      onRateLimit: () => {
        secondRequest = http.request(z.object({ ok: z.boolean() }), { url: '/second' });
      },
    });
    await http.request(z.object({ ok: z.boolean() }), { url: '/first' });
    await secondRequest;
    server.close();
    const refusedAt = arrivals[0]?.at ?? 0;
    const second = arrivals.find((arrival) => arrival.path === '/second');
    expect(arrivals.map((arrival) => arrival.path).sort()).toEqual(['/first', '/first', '/second']);
    // The second request was not sent into the limit: it waited out the first one's Retry-After.
    expect((second?.at ?? 0) - refusedAt).toBeGreaterThanOrEqual(290);
  });
});
