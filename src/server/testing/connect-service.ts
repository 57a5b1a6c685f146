import { DEMO_USER } from '../../sandbox/spotify/state';
import type { ServiceId } from '../../shared/services';
import { SANDBOX_SCENARIO_HEADER } from '../routes/connection-routes';
import type { TestClient } from './test-server';

interface CommonOptions {
  decision?: 'approve' | 'deny';
  returnTo?: string;
  /** Spotify: grant only these scopes (a connection made before Crossfade asked for more). */
  scopes?: string[];
}

/**
 * Who signs in: a Spotify demo user id (the shared demo listener by default, on both services), or the
 * person's own sandbox account, whose library is seeded from a fixed `scenario` (decision 0022), so a test
 * gets the same library every run; two people of one test with different libraries name two scenarios.
 */
export type ConnectOptions = CommonOptions &
  ({ account?: string } | { account: 'own'; scenario: string; country?: 'US' | 'DE' | 'JP' });

/**
 * Connects a signed-in test client to a service the way a browser does in sandbox mode: ask Crossfade for
 * the consent page, submit the emulator's form, follow the redirect back to Crossfade's callback.
 * Returns where the callback sent the browser (e.g. `/transfer?connected=spotify`).
 */
export async function connectService(
  client: TestClient,
  service: ServiceId,
  options: ConnectOptions = {},
): Promise<string> {
  if (options.account === 'own' && !('scenario' in options)) {
    throw new Error(
      'connectService: an own sandbox account needs a scenario, so its library is the same each run',
    );
  }
  const { authUrl, form } = await openConsentPage(client, service, options);
  const approve = (options.decision ?? 'approve') === 'approve';
  if (service === 'spotify') {
    form.set('account', options.account ?? DEMO_USER.id);
    if ('country' in options && options.country) form.set('country', options.country);
    form.set('decision', approve ? 'agree' : 'cancel');
  } else {
    form.set('account', options.account === 'own' ? 'own' : 'shared');
    form.set('decision', approve ? 'allow' : 'deny');
  }
  const consent = await fetch(authUrl.origin + authUrl.pathname, {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  // The browser keeps the emulator's session cookie: its web pages then know who is signed in.
  for (const cookie of consent.headers.getSetCookie()) {
    const [name = '', value = ''] = (cookie.split(';')[0] ?? '').split('=');
    client.cookies.set(name.trim(), value);
  }
  const callback = consent.headers.get('location');
  if (!callback) throw new Error(`consent form answered ${consent.status} without a redirect`);
  const callbackUrl = new URL(callback, authUrl);
  const back = await client.get(`${callbackUrl.pathname}${callbackUrl.search}`);
  return back.headers.get('location') ?? '';
}

/** A consent page the app sent the person to: its address, and the hidden fields its form carries. */
export interface ConsentPage {
  authUrl: URL;
  form: URLSearchParams;
  html: string;
}

/** Asks Crossfade where to connect and opens that consent page, as the browser does, without answering it. */
export async function openConsentPage(
  client: TestClient,
  service: ServiceId,
  options: ConnectOptions = {},
): Promise<ConsentPage> {
  const query = options.returnTo ? `?returnTo=${encodeURIComponent(options.returnTo)}` : '';
  const headers = 'scenario' in options ? { [SANDBOX_SCENARIO_HEADER]: options.scenario } : {};
  const connect = await client.send('GET', `/api/auth/${service}/connect${query}`, undefined, { headers });
  if (connect.status !== 200) throw new Error(`connect answered ${connect.status}: ${connect.text}`);
  const authUrl = new URL((connect.body as { authUrl: string }).authUrl);
  if (options.scopes) authUrl.searchParams.set('scope', options.scopes.join(' '));
  const page = await fetch(authUrl);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${html}`);
  const form = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    form.set(decodeHtml(match[1] ?? ''), decodeHtml(match[2] ?? ''));
  }
  return { authUrl, form, html };
}

const decodeHtml = (text: string) =>
  text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
