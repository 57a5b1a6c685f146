import { useQueryClient } from '@tanstack/react-query';
import { Loader2, Save } from 'lucide-react';
import { useEffect } from 'react';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { toast } from '../../hooks/use-toast';
import { serverMessage } from '../../lib/api-client';
import { isJobFinished, useJobProgress } from '../../lib/job-progress';
import { BACKUPS_KEY, useStartBackup } from './vault-api';

/** "Back up now", with the job's progress until the new backups appear in the list. */
export function BackupNow() {
  const queryClient = useQueryClient();
  const start = useStartBackup();
  const jobId = start.data ?? null;
  const job = useJobProgress(jobId);
  const backUp = () =>
    start.mutate(undefined, {
      onError: (error) =>
        toast({
          title: 'The backup could not start',
          description: serverMessage(error) ?? 'Please try again.',
          variant: 'destructive',
        }),
    });

  const status = job.data?.status;
  useEffect(() => {
    if (status === 'succeeded') {
      toast({ title: 'Backup complete' });
      void queryClient.invalidateQueries({ queryKey: BACKUPS_KEY });
    }
  }, [status, queryClient]);

  const running = start.isPending || (jobId !== null && !isJobFinished(job.data) && !job.isError);
  const progress = job.data?.progress;
  return (
    <div className="grid gap-3">
      <div>
        <Button onClick={backUp} disabled={running}>
          {running ? (
            <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" />
          ) : (
            <Save aria-hidden="true" className="h-4 w-4" />
          )}
          Back up now
        </Button>
      </div>
      <div aria-live="polite" className="text-sm text-slate-700">
        {running ? (
          <div className="grid gap-2">
            <p>{progress?.message ?? 'Starting your backup…'}</p>
            {progress && progress.total > 0 ? (
              <progress
                className="h-2 w-full max-w-md"
                max={progress.total}
                value={progress.done}
                aria-label="Backup progress"
              />
            ) : null}
          </div>
        ) : null}
      </div>
      {job.data?.status === 'failed' ? (
        <Alert variant="destructive">The backup failed: {job.data.error ?? 'please try again.'}</Alert>
      ) : null}
      {job.isError ? <Alert variant="destructive">The backup's progress could not be loaded.</Alert> : null}
    </div>
  );
}
