import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A proxy in front of the app's emulators that notes every request as "METHOD path?query" before
 * forwarding it (real HTTP both ways), so a test counts the calls a job makes on the wire. Point the
 * app's clients at it with `deps.providers.internalOrigin = proxy.url`.
 */
export async function startCountingProxy(
  target: string,
  options: {
    /** A service's bad moment: a call this answers true for gets a bare 503 (noted "→ 503") instead. */
    refuse?: (call: string) => boolean;
  } = {},
) {
  const targetUrl = new URL(target);
  const calls: string[] = [];
  const server = createServer((incoming, outgoing) => {
    const call = `${incoming.method} ${incoming.url}`;
    if (options.refuse?.(call)) {
      calls.push(`${call} → 503`);
      incoming.resume();
      outgoing.writeHead(503).end();
      return;
    }
    calls.push(call);
    const forwarded = httpRequest(
      {
        host: targetUrl.hostname,
        port: targetUrl.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Every request seen so far, in order; empty it (`calls.length = 0`) to count from a moment on. */
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Whether a path segment names one thing rather than a kind of thing: an id holds a digit or a dot (Apple's
 * `p.…`, `i.…`, numbers; the `v1` of a version too) or is long. Spotify's ids are 22 letters and digits,
 * and about one in fifty has no digit at all, so length must tell them too; the APIs' words are short.
 */
const isIdSegment = (segment: string) => /[\d.]/.test(segment) || segment.length >= 16;

/**
 * A call's endpoint: its method and path with each id as `:id`, and the names of its query parameters, so
 * calls to one endpoint count together whatever they ask for.
 */
export function endpointOf(call: string): string {
  const [method = '', target = ''] = call.split(' ');
  const url = new URL(target, 'http://proxy');
  const path = url.pathname
    .split('/')
    .map((segment) => (segment !== '' && isIdSegment(segment) ? ':id' : segment))
    .join('/');
  const params = [...url.searchParams.keys()].sort().join('&');
  return `${method} ${path}${params ? `?${params}` : ''}`;
}

/** How many calls went to each endpoint (`endpointOf`), in endpoint order. */
export function countByEndpoint(calls: readonly string[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(endpointOf(call), (counts.get(endpointOf(call)) ?? 0) + 1);
  return Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b)));
}
