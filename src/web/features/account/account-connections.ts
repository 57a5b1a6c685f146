import { appleConnectResponseSchema, spotifyConnectResponseSchema } from '../../../shared/api/connections';
import { SERVICE_LABELS, type ServiceId } from '../../../shared/services';
import { AUTH_STATUS_KEY } from '../../hooks/use-auth';
import { toast } from '../../hooks/use-toast';
import { apiJson, apiRequest, serverMessage } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { queryClient } from '../../lib/query-client';
import { track } from '../../lib/track';
import { ACCOUNT_KEY } from './account-api';

/**
 * Connect and disconnect from /account: the same calls as the transfer wizard, coming back to /account,
 * where `?connected=` / `?connectError=` are announced (see use-connection-announcement.ts).
 */
const returnQuery = `?returnTo=${encodeURIComponent(paths.account)}`;

export async function connectFromAccount(service: ServiceId): Promise<void> {
  try {
    if (service === 'spotify') {
      const { authUrl } = spotifyConnectResponseSchema.parse(
        await apiJson<unknown>('GET', `/api/auth/spotify/connect${returnQuery}`),
      );
      window.location.assign(authUrl);
      return;
    }
    const answer = appleConnectResponseSchema.parse(
      await apiJson<unknown>('GET', `/api/auth/apple/connect${returnQuery}`),
    );
    if (answer.useRedirect) {
      window.location.assign(answer.authUrl);
      return;
    }
    await apiRequest('POST', '/api/auth/apple/init', { token: await authorizeWithMusicKit(answer.token) });
    track('service_connected', { service: 'apple', success: true });
    await refreshConnections();
    toast({ title: 'Connected to Apple Music' });
  } catch (error) {
    track('service_connected', { service, success: false });
    toast({
      title: `Failed to connect to ${SERVICE_LABELS[service]}`,
      ...(serverMessage(error) ? { description: serverMessage(error) } : {}),
      variant: 'destructive',
    });
  }
}

export async function disconnectFromAccount(service: ServiceId): Promise<void> {
  try {
    await apiRequest('POST', `/api/auth/${service}/disconnect`);
    track('service_disconnected', { service });
    await refreshConnections();
    toast({ title: `Disconnected from ${SERVICE_LABELS[service]}` });
  } catch {
    toast({ title: `Failed to disconnect from ${SERVICE_LABELS[service]}`, variant: 'destructive' });
  }
}

export async function refreshConnections() {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: AUTH_STATUS_KEY }),
    queryClient.invalidateQueries({ queryKey: ACCOUNT_KEY }),
  ]);
}

interface MusicKitGlobal {
  configure: (options: { developerToken: string; app: { name: string; build: string } }) => unknown;
  getInstance: () => { authorize: () => Promise<string> };
}

const MUSICKIT_URL = 'https://js-cdn.music.apple.com/musickit/v3/musickit.js';

function musicKit(): MusicKitGlobal | undefined {
  const value: unknown = Reflect.get(window, 'MusicKit');
  return typeof value === 'object' && value !== null && 'configure' in value
    ? (value as MusicKitGlobal)
    : undefined;
}

/** Real Apple Music (not the sandbox): MusicKit on the Web asks the person to sign in to Apple. */
async function authorizeWithMusicKit(developerToken: string): Promise<string> {
  const kit =
    musicKit() ??
    (await new Promise<MusicKitGlobal>((resolve, reject) => {
      document.addEventListener(
        'musickitloaded',
        () => {
          const loaded = musicKit();
          if (loaded) resolve(loaded);
          else reject(new Error('MusicKit did not load'));
        },
        { once: true },
      );
      const script = document.createElement('script');
      script.src = MUSICKIT_URL;
      script.async = true;
      script.onerror = () => reject(new Error('MusicKit did not load'));
      document.head.append(script);
    }));
  await kit.configure({ developerToken, app: { name: 'Crossfade', build: '1' } });
  return kit.getInstance().authorize();
}
