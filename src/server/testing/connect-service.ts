import { DEMO_USER } from '../../sandbox/spotify/state';
import type { ServiceId } from '../../shared/services';
import type { TestClient } from './test-server';

/**
 * Connects a signed-in test client to a service the way a browser does in sandbox mode: ask Crossfade for
 * the consent page, submit the emulator's form, follow the redirect back to Crossfade's callback.
 * Without `account` both services sign in as the shared demo listener, whose library tests know.
 * Returns where the callback sent the browser (e.g. `/transfer?connected=spotify`).
 */
export async function connectService(
  client: TestClient,
  service: ServiceId,
  /** `account`: a Spotify demo user id, or 'own' for the person's own sandbox account (both services). */
  options: {
    decision?: 'approve' | 'deny';
    account?: string;
    returnTo?: string;
    country?: string;
    /** Spotify: grant only these scopes (a connection made before Crossfade asked for more). */
    scopes?: string[];
  } = {},
): Promise<string> {
  const query = options.returnTo ? `?returnTo=${encodeURIComponent(options.returnTo)}` : '';
  const connect = await client.get(`/api/auth/${service}/connect${query}`);
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
  const approve = (options.decision ?? 'approve') === 'approve';
  if (service === 'spotify') {
    form.set('account', options.account ?? DEMO_USER.id);
    if (options.country) form.set('country', options.country);
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
  const callback = consent.headers.get('location');
  if (!callback) throw new Error(`consent form answered ${consent.status} without a redirect`);
  const callbackUrl = new URL(callback, authUrl);
  const back = await client.get(`${callbackUrl.pathname}${callbackUrl.search}`);
  return back.headers.get('location') ?? '';
}

const decodeHtml = (text: string) =>
  text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
