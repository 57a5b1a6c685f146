import { useMutation } from '@tanstack/react-query';
import { connectionRegionResponseSchema } from '../../../shared/api/connections';
import { SERVICE_LABELS, type ServiceId } from '../../../shared/services';
import { AUTH_STATUS_KEY } from '../../hooks/use-auth';
import { toast } from '../../hooks/use-toast';
import { request, serverMessage } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { queryClient } from '../../lib/query-client';
import { track } from '../../lib/track';
import { endConnection, startConnection } from '../connections';
import { ACCOUNT_KEY } from './account-api';

/**
 * Connect and disconnect from /account: the same calls as the transfer wizard, coming back to /account,
 * where `?connected=` / `?connectError=` are announced (see use-connection-announcement.ts).
 */
async function connectFromAccount(service: ServiceId): Promise<void> {
  try {
    if ((await startConnection(service, paths.account)) === 'redirected') return;
    await refreshConnections();
    toast({ title: `Connected to ${SERVICE_LABELS[service]}` });
  } catch (error) {
    track('service_connected', { service, success: false });
    toast({
      title: `Failed to connect to ${SERVICE_LABELS[service]}`,
      ...(serverMessage(error) ? { description: serverMessage(error) } : {}),
      variant: 'destructive',
    });
  }
}

async function disconnectFromAccount(service: ServiceId): Promise<void> {
  try {
    await endConnection(service);
    await refreshConnections();
    toast({ title: `Disconnected from ${SERVICE_LABELS[service]}` });
  } catch (error) {
    toast({
      title: `Failed to disconnect from ${SERVICE_LABELS[service]}`,
      ...(serverMessage(error) ? { description: serverMessage(error) } : {}),
      variant: 'destructive',
    });
  }
}

export async function refreshConnections() {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: AUTH_STATUS_KEY }),
    queryClient.invalidateQueries({ queryKey: ACCOUNT_KEY }),
  ]);
}

/** The person says which country their account is in, when the service did not tell us. */
async function setConnectionRegion(service: ServiceId, region: string): Promise<void> {
  try {
    await request(connectionRegionResponseSchema, 'PUT', `/api/auth/${service}/region`, { region });
    await refreshConnections();
    toast({ title: `${SERVICE_LABELS[service]} country saved` });
  } catch (error) {
    toast({
      title: `Failed to save the ${SERVICE_LABELS[service]} country`,
      ...(serverMessage(error) ? { description: serverMessage(error) } : {}),
      variant: 'destructive',
    });
  }
}

/** One change to a connection made on /account; each says how it went in a toast of its own. */
export type ConnectionChange =
  | { service: ServiceId; change: 'connect' }
  | { service: ServiceId; change: 'disconnect' }
  | { service: ServiceId; change: 'region'; region: string };

/** Connect, disconnect or name the country of a service; `isPending` while one runs (one at a time). */
export const useConnectionChange = () =>
  useMutation({
    mutationFn: (change: ConnectionChange) => {
      if (change.change === 'connect') return connectFromAccount(change.service);
      if (change.change === 'disconnect') return disconnectFromAccount(change.service);
      return setConnectionRegion(change.service, change.region);
    },
  });
