import { useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import { CLOUD_TARGET_LABELS, cloudDriveSchema } from '../../../shared/api/export';
import { toast } from '../../hooks/use-toast';
import { queryClient } from '../../lib/query-client';
import { CLOUD_DRIVES_KEY, EXPORT_PANEL_PATH } from './export-api';

/** `?cloudConnected=` / `?cloudError=` left by a drive's consent page: announced once, then dropped. */
export function useCloudAnnouncement() {
  const search = useSearch();
  const [, navigate] = useLocation();
  useEffect(() => {
    const query = new URLSearchParams(search);
    const connected = cloudDriveSchema.safeParse(query.get('cloudConnected'));
    const error = query.get('cloudError');
    if (!connected.success && error === null) return;
    if (connected.success) {
      toast({ title: `Connected to ${CLOUD_TARGET_LABELS[connected.data]}` });
      void queryClient.invalidateQueries({ queryKey: CLOUD_DRIVES_KEY });
    } else {
      toast({ title: 'Connection failed', description: error, variant: 'destructive' });
    }
    navigate(EXPORT_PANEL_PATH, { replace: true });
  }, [search, navigate]);
}
