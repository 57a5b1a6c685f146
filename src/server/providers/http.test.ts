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
