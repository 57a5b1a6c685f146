import { useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import { SERVICE_LABELS } from '../../../shared/services';
import { toast } from '../../hooks/use-toast';
import { paths } from '../../lib/paths';
import { track } from '../../lib/track';
import { refreshConnections } from './account-connections';

/** `?connected=` / `?connectError=` left by a consent page: announced once, then dropped from the URL. */
export function useConnectionAnnouncement() {
  const search = useSearch();
  const [, navigate] = useLocation();
  useEffect(() => {
    const query = new URLSearchParams(search);
    const connected = query.get('connected');
    const connectError = query.get('connectError');
    if (connected === null && connectError === null) return;
    if (connected === 'spotify' || connected === 'apple') {
      track('service_connected', { service: connected, success: true });
      toast({ title: `Connected to ${SERVICE_LABELS[connected]}` });
      void refreshConnections();
    } else if (connectError !== null) {
      track('service_connected', { service: 'unknown', success: false });
      toast({ title: 'Connection failed', description: connectError, variant: 'destructive' });
    }
    navigate(paths.account, { replace: true });
  }, [search, navigate]);
}
