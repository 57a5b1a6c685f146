import {
  appleConnectResponseSchema,
  appleInitResponseSchema,
  spotifyConnectResponseSchema,
} from '../../../shared/api/connections';
import type { ServiceId } from '../../../shared/services';
import { noContentSchema, request } from '../../lib/api-client';
import { flushAnalytics, track } from '../../lib/track';
import { invalidatePlaylists } from '../playlists';

/**
 * Connecting and disconnecting a service, shared by the transfer wizard and /account. Spotify, and Apple
 * Music in sandbox mode, go through the service's consent page and come back to `returnTo`; real Apple
 * Music connects in place with MusicKit on the Web.
 */
const MUSICKIT_URL = 'https://js-cdn.music.apple.com/musickit/v3/musickit.js';

export type ConnectionStart = 'redirected' | 'connected';

/** Throws when the server or MusicKit refuses; the caller tells the person. */
export async function startConnection(service: ServiceId, returnTo: string): Promise<ConnectionStart> {
  const query = `?returnTo=${encodeURIComponent(returnTo)}`;
  if (service === 'spotify') {
    const { authUrl } = await request(
      spotifyConnectResponseSchema,
      'GET',
      `/api/auth/spotify/connect${query}`,
    );
    await leaveFor(authUrl);
    return 'redirected';
  }
  // Real Apple Music: MusicKit was made ready when the page opened, so the click goes straight to
  // authorize() and its popup (Safari and iOS block popups that do not come straight from a click).
  const ready = preparedApple ? await preparedApple.catch(() => undefined) : undefined;
  if (ready) {
    const token = await ready.getInstance().authorize();
    await request(appleInitResponseSchema, 'POST', '/api/auth/apple/init', { token });
    await invalidatePlaylists('apple');
    track('service_connected', { service: 'apple', success: true });
    return 'connected';
  }
  const answer = await request(appleConnectResponseSchema, 'GET', `/api/auth/apple/connect${query}`);
  if (answer.useRedirect) {
    await leaveFor(answer.authUrl);
    return 'redirected';
  }
  await request(appleInitResponseSchema, 'POST', '/api/auth/apple/init', {
    token: await authorizeWithMusicKit(answer.token, answer.musicKitScriptUrl ?? MUSICKIT_URL),
  });
  await invalidatePlaylists('apple');
  track('service_connected', { service: 'apple', success: true });
  return 'connected';
}

let preparedApple: Promise<MusicKitGlobal | undefined> | undefined;

/**
 * Called when a page shows Apple Music's Connect button: with real Apple Music it fetches the developer
 * token, loads MusicKit (from MUSICKIT_SCRIPT_URL) and configures it now, so the click only has to call
 * authorize(). In sandbox mode it does nothing beyond asking which mode is on.
 */
export function prepareAppleConnection(): void {
  if (preparedApple) return;
  preparedApple = (async () => {
    const answer = await request(appleConnectResponseSchema, 'GET', '/api/auth/apple/connect?prepare=1');
    if (answer.useRedirect) return undefined;
    const kit = await loadMusicKit(answer.musicKitScriptUrl ?? MUSICKIT_URL);
    await kit.configure({ developerToken: answer.token, app: { name: 'Crossfade', build: '1' } });
    return kit;
  })();
  // A failed preparation is tried again by the next page, and the click falls back to the slow path.
  preparedApple.catch(() => {
    preparedApple = undefined;
  });
}

export async function endConnection(service: ServiceId): Promise<void> {
  await request(noContentSchema, 'POST', `/api/auth/${service}/disconnect`);
  // The service's playlists are no longer the person's to read.
  await invalidatePlaylists(service);
  track('service_disconnected', { service });
}

/** Events tracked just before leaving the page would otherwise be lost with it. */
async function leaveFor(url: string) {
  await flushAnalytics();
  window.location.assign(url);
}

interface MusicKitGlobal {
  configure: (options: { developerToken: string; app: { name: string; build: string } }) => unknown;
  getInstance: () => { authorize: () => Promise<string> };
}

function musicKit(): MusicKitGlobal | undefined {
  const value: unknown = Reflect.get(window, 'MusicKit');
  return typeof value === 'object' && value !== null && 'configure' in value
    ? (value as MusicKitGlobal)
    : undefined;
}

function loadMusicKit(scriptUrl: string): Promise<MusicKitGlobal> {
  const ready = musicKit();
  if (ready) return Promise.resolve(ready);
  return new Promise((resolve, reject) => {
    document.addEventListener(
      'musickitloaded',
      () => {
        const kit = musicKit();
        if (kit) resolve(kit);
        else reject(new Error('MusicKit did not load'));
      },
      { once: true },
    );
    const script = document.createElement('script');
    script.src = scriptUrl;
    script.async = true;
    script.onerror = () => reject(new Error('MusicKit did not load'));
    document.head.append(script);
  });
}

/** MusicKit on the Web asks the person to sign in to Apple and hands back the Music User Token. */
async function authorizeWithMusicKit(developerToken: string, scriptUrl: string): Promise<string> {
  const kit = await loadMusicKit(scriptUrl);
  await kit.configure({ developerToken, app: { name: 'Crossfade', build: '1' } });
  return kit.getInstance().authorize();
}
