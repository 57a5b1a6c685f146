import { Redirect, useParams } from 'wouter';
import { SERVICE_LABELS } from '../../shared/services';
import { Page } from '../components/layout/page';
import { Alert } from '../components/ui/alert';
import { Button } from '../components/ui/button';
import { Spinner } from '../components/ui/spinner';
import { BatchProgressList, BatchReviewList, useBatch, useStartBatchTransfer } from '../features/batches';
import { useAuth } from '../hooks/use-auth';
import { serverMessage } from '../lib/api-client';
import { paths } from '../lib/paths';

const HEADLINES = {
  matching: 'Matching your playlists…',
  review: 'Review once, then move them all',
  transferring: 'Moving your playlists…',
  done: 'Your playlists are moved',
  failed: 'The batch stopped',
} as const;

/** /batches/:id — a batch's progress, its one review screen and the result per playlist (issue 14 item 2). */
export default function BatchPage() {
  const { id = '' } = useParams<{ id: string }>();
  const { user, isLoading } = useAuth();
  const batch = useBatch(id, Boolean(user));
  const start = useStartBatchTransfer(id);

  if (isLoading) {
    return (
      <Page title="Batch">
        <Spinner label="Loading" />
      </Page>
    );
  }
  if (!user) return <Redirect to={paths.auth} replace />;
  if (batch.isPending) {
    return (
      <Page title="Batch">
        <Spinner label="Loading the batch" />
      </Page>
    );
  }
  if (batch.isError) {
    return (
      <Page title="Batch">
        <Alert variant="destructive">{serverMessage(batch.error) ?? 'Could not load this batch.'}</Alert>
      </Page>
    );
  }
  const view = batch.data;
  const movable = view.playlists.filter((item) => item.status === 'matched').length;

  return (
    <Page
      title={HEADLINES[view.status]}
      description={`${view.playlists.length} playlists from ${SERVICE_LABELS[view.sourceService]} to ${SERVICE_LABELS[view.destinationService]}.`}
    >
      <div className="grid gap-8">
        <BatchProgressList batch={view} />
        {view.error ? <Alert variant="destructive">{view.error}</Alert> : null}
        {view.status === 'review' ? (
          <div className="grid gap-4">
            <h2 className="text-xl font-semibold text-slate-900">Needs your review</h2>
            <BatchReviewList
              batchId={view.batchId}
              destinationLabel={SERVICE_LABELS[view.destinationService]}
            />
            {start.isError ? (
              <Alert variant="destructive">
                {serverMessage(start.error) ?? 'The playlists could not be moved. Please try again.'}
              </Alert>
            ) : null}
            <div>
              <Button size="lg" onClick={() => start.mutate()} disabled={start.isPending || movable === 0}>
                Move {movable} playlist{movable === 1 ? '' : 's'}
              </Button>
            </div>
          </div>
        ) : null}
      </div>
    </Page>
  );
}
