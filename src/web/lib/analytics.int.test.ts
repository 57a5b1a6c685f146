import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventBatchSchema } from '../../shared/api/events';
import { createAnalyticsClient, httpBatchSender, MAX_RETRIES, RETRY_CAP_MS, retryDelayMs } from './analytics';
import { startTestServer, type TestServer } from './test-server';

let server: TestServer;
let accepting = true;

beforeAll(async () => {
  server = await startTestServer((_request, res) => {
    res.writeHead(accepting ? 202 : 503, { 'content-type': 'application/json' });
    res.end(accepting ? '' : JSON.stringify({ message: 'down' }));
  });
});

afterAll(() => server.close());

beforeEach(() => {
  accepting = true;
  server.requests.length = 0;
});

const batches = () => server.requests.map((request) => eventBatchSchema.parse(JSON.parse(request.body)));

describe('analytics client', () => {
  it('posts queued events to the collector in batches of at most 100', async () => {
    const client = createAnalyticsClient({ send: httpBatchSender(`${server.origin}/api/events`) });
    for (let index = 0; index < 250; index += 1) client.track('button_clicked', { button_id: `b${index}` });
    await client.flush();

    expect(batches().map((batch) => batch.events.length)).toEqual([100, 100, 50]);
    expect(
      server.requests.every((request) => request.url === '/api/events' && request.method === 'POST'),
    ).toBe(true);
    const firstEvent = batches()[0]?.events[0];
    expect(firstEvent?.event).toBe('button_clicked');
    expect(firstEvent?.properties).toEqual({ button_id: 'b0' });
    expect(client.pending()).toBe(0);
  });

  it('keeps events while the collector is down and sends them once it is back', async () => {
    const client = createAnalyticsClient({ send: httpBatchSender(`${server.origin}/api/events`) });
    accepting = false;
    client.track('$pageview', { page_name: '/' });
    await client.flush();
    expect(client.pending()).toBe(1);

    accepting = true;
    await client.flush();
    expect(client.pending()).toBe(0);
    expect(
      batches()
        .at(-1)
        ?.events.map((event) => event.event),
    ).toEqual(['$pageview']);
  });

  it('gives up on a batch after the maximum number of retries', async () => {
    const client = createAnalyticsClient({ send: httpBatchSender(`${server.origin}/api/events`) });
    accepting = false;
    client.track('user_signed_out');
    for (let attempt = 0; attempt <= MAX_RETRIES; attempt += 1) await client.flush();
    expect(client.pending()).toBe(0);
    expect(server.requests).toHaveLength(MAX_RETRIES + 1);
  });

  it('backs off from 3 s, doubling, capped at 30 minutes', () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([3000, 6000, 12000, 24000]);
    expect(retryDelayMs(10)).toBe(1_536_000);
    expect(retryDelayMs(12)).toBe(RETRY_CAP_MS);
    expect(RETRY_CAP_MS).toBe(30 * 60 * 1000);
  });
});
