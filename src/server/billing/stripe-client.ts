import Stripe from 'stripe';

/**
 * The official `stripe` client, pointed at `apiUrl`: Stripe's API, or the sandbox's emulator under
 * `/sandbox/stripe`. The client takes a host, port and protocol (it always calls `/v1/…`), so a path in
 * the address is put in front of every call by a thin wrapper around the client's own HTTP client.
 */
export function createStripeClient(options: { secretKey: string; apiUrl: string }): Stripe {
  const url = new URL(options.apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  const port = url.port ? Number(url.port) : protocol === 'http' ? 80 : 443;
  const prefix = url.pathname.replace(/\/+$/, '');
  const http = Stripe.createNodeHttpClient();
  return new Stripe(options.secretKey, {
    host: url.hostname,
    port,
    protocol,
    httpClient: prefix ? new PathPrefixedHttpClient(http, prefix) : http,
    // Network failures, 409s and 5xx are retried with the same idempotency key, as Stripe advises.
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'Crossfade' },
  });
}

class PathPrefixedHttpClient extends Stripe.HttpClient {
  constructor(
    private readonly inner: Stripe.HttpClient,
    private readonly prefix: string,
  ) {
    super();
  }

  override getClientName(): string {
    return this.inner.getClientName();
  }

  override makeRequest(
    host: string,
    port: string,
    path: string,
    method: string,
    headers: Parameters<Stripe.HttpClient['makeRequest']>[4],
    requestData: string,
    protocol: string,
    timeout: number,
  ) {
    return this.inner.makeRequest(
      host,
      port,
      `${this.prefix}${path}`,
      method,
      headers,
      requestData,
      protocol,
      timeout,
    );
  }
}
