import { SERVICE_LABELS, type ServiceId } from '../../../shared/services';
import { AUTH_STATUS_KEY } from '../../hooks/use-auth';
import { toast } from '../../hooks/use-toast';
import { serverMessage } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { queryClient } from '../../lib/query-client';
import { track } from '../../lib/track';
import { endConnection, startConnection } from '../connections';
import { runWizardMutation } from './wizard-queries';
import { wizardStore } from './wizard-store';

/** Which service the consent page was for, so `?connectError=` can be told apart per service. */
const PENDING_CONNECT_KEY = 'crossfade.pendingConnect';

function rememberPending(service: ServiceId): void {
  try {
    sessionStorage.setItem(PENDING_CONNECT_KEY, service);
  } catch {
    // Without storage the result is still announced, only without the service's name.
  }
}

export function takePendingConnect(): ServiceId | null {
  try {
    const value = sessionStorage.getItem(PENDING_CONNECT_KEY);
    sessionStorage.removeItem(PENDING_CONNECT_KEY);
    return value === 'spotify' || value === 'apple' ? value : null;
  } catch {
    return null;
  }
}

/** The spec's sentence as the title; the server's reason, when it gave one, as the second line. */
function fail(message: string, reason?: string): void {
  wizardStore.update({ error: reason ? `${message}: ${reason}` : message });
  toast({ title: message, ...(reason ? { description: reason } : {}), variant: 'destructive' });
}

export async function connectService(service: ServiceId): Promise<void> {
  wizardStore.update({ error: null });
  try {
    rememberPending(service);
    const outcome = await runWizardMutation('connect', async () => {
      if ((await startConnection(service, paths.transfer)) === 'redirected') return 'redirected';
      await queryClient.invalidateQueries({ queryKey: AUTH_STATUS_KEY });
      return 'connected';
    });
    if (outcome === 'redirected') return;
    takePendingConnect();
    toast({ title: `Connected to ${SERVICE_LABELS[service]}` });
  } catch (error) {
    takePendingConnect();
    track('service_connected', { service, success: false });
    fail(
      service === 'spotify'
        ? (serverMessage(error) ?? 'Failed to connect to Spotify')
        : 'Failed to connect to Apple Music',
    );
  }
}

export async function disconnectService(service: ServiceId): Promise<void> {
  wizardStore.update({ error: null });
  try {
    await runWizardMutation('disconnect', async () => {
      await endConnection(service);
      await queryClient.invalidateQueries({ queryKey: AUTH_STATUS_KEY });
    });
    toast({ title: `Disconnected from ${SERVICE_LABELS[service]}` });
  } catch (error) {
    fail(`Failed to disconnect from ${SERVICE_LABELS[service]}`, serverMessage(error));
  }
}
