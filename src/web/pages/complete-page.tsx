import { useInfiniteQuery } from '@tanstack/react-query';
import { ArrowLeft, Download, ExternalLink, RotateCcw, RotateCw } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { Redirect, useLocation } from 'wouter';
import { type JobView, notAddedReason, qualityLabel } from '../../shared/api/transfer';
import { SERVICE_LABELS } from '../../shared/services';
import { TrackCell } from '../components/track-cell';
import { Alert } from '../components/ui/alert';
import { Button } from '../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../components/ui/card';
import {
  downloadCsv,
  enterStep,
  goToStep,
  JobProgressBar,
  matchRowsQuery,
  resetWizard,
  retryFailedTransfer,
  useWizard,
  useWizardMutating,
  WizardPage,
} from '../features/transfer';
import { cn } from '../lib/cn';
import { BAND_CLASSES, overallConfidenceBand } from '../lib/confidence';
import { paths } from '../lib/paths';

function Stat({ label, value }: { label: string; value: number | string }) {
  return (
    <div className="rounded-xl border border-slate-200 p-4">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="text-2xl font-bold tabular-nums text-slate-900">{value}</dd>
    </div>
  );
}

type TransferResult = NonNullable<ReturnType<typeof useWizard>['transferResult']>;

/** The transfer's counts and its overall confidence. */
function ResultStats({ result }: { result: TransferResult }) {
  const band = overallConfidenceBand(result.overallConfidence);
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      <Stat label="Total tracks" value={result.totalTracks} />
      <Stat label="Matched tracks" value={result.matchedTracks} />
      <Stat label="Unmatched tracks" value={result.unmatchedTracks} />
      <div className={cn('rounded-xl border p-4', BAND_CLASSES[band])}>
        <dt className="text-sm">Overall confidence</dt>
        <dd className="text-2xl font-bold tabular-nums">
          {Math.round(result.overallConfidence)}%{' '}
          <span className="text-base font-semibold">{qualityLabel(result.overallConfidence)}</span>
        </dd>
      </div>
    </dl>
  );
}

/** What reading the destination back found: how many tracks are there, and which are still missing. */
function VerificationReport({ result, destination }: { result: TransferResult; destination: string }) {
  return (
    <>
      {result.verifiedTracks !== null ? (
        <p
          className={cn(
            'text-sm font-medium',
            result.verificationMissing.length > 0 ? 'text-red-800' : 'text-emerald-800',
          )}
        >
          Verified: {result.verifiedTracks} of {result.addedTracks}{' '}
          <span className="font-normal text-slate-600">
            (Crossfade read {result.librarySave ? 'your library' : 'the playlist'} back from {destination} and
            checked every track.)
          </span>
        </p>
      ) : null}
      {result.verificationMissing.length > 0 ? (
        <Alert variant="destructive">
          <p className="font-medium">
            Still missing in {destination} ({result.verificationMissing.length})
          </p>
          <ul className="mt-1 grid gap-1">
            {result.verificationMissing.map((item) => (
              <li key={item.position}>
                {item.name}
                {item.artists.length > 0 ? ` — ${item.artists.join(', ')}` : ''}: {item.reason}
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
    </>
  );
}

/**
 * The tracks that were skipped or had no match worth adding, each with the reason: the server picks them
 * (`status=not-added`, the transfer's own rule) and counts them, a page at a time (issue 25).
 */
function NotTransferredCard({
  matchSetId,
  includeUnmatched,
}: {
  matchSetId: string;
  includeUnmatched: boolean;
}) {
  const pages = useInfiniteQuery(matchRowsQuery(matchSetId, { status: 'not-added', includeUnmatched }));
  const rows = pages.data?.pages.flatMap((page) => page.results) ?? [];
  const total = pages.data?.pages[0]?.filteredTotal ?? 0;
  if (total === 0) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Tracks not transferred ({total})</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <ul className="grid gap-2" aria-label={`${total} tracks not transferred`}>
          {rows.map((row, index) => (
            <li
              key={row.position}
              aria-setsize={total}
              aria-posinset={index + 1}
              className="flex flex-col gap-1 rounded-lg border border-slate-200 p-2 sm:flex-row sm:items-center sm:justify-between"
            >
              <TrackCell track={row.sourceTrack} />
              <span className="text-sm text-slate-700">
                {notAddedReason({ ...row, closestConfidence: row.candidates[0]?.confidence ?? null })}
              </span>
            </li>
          ))}
        </ul>
        {pages.hasNextPage ? (
          <Button
            variant="outline"
            size="sm"
            className="justify-self-start"
            disabled={pages.isFetchingNextPage}
            onClick={() => void pages.fetchNextPage()}
          >
            {pages.isFetchingNextPage ? 'Loading…' : `Show more (${rows.length} of ${total} shown)`}
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}

export default function CompletePage() {
  const [, navigate] = useLocation();
  const wizard = useWizard();
  const [retryJob, setRetryJob] = useState<JobView | null>(null);
  // The wizard's own mutations: busy while they run, whichever component started them.
  const retrying = useWizardMutating('retry');
  const downloading = useWizardMutating('download');

  useEffect(() => {
    enterStep(4);
  }, []);

  const result = wizard.transferResult;
  if (result === null && wizard.selectedPlaylist === null) return <Redirect to={paths.transfer} replace />;

  if (result === null)
    return (
      <PageFrame>
        <Alert variant="destructive">There was an issue with your transfer. Please try again.</Alert>
        <Button variant="outline" className="mt-6" onClick={() => goToStep(3, navigate)}>
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          Back to Match Songs
        </Button>
      </PageFrame>
    );

  const destination = SERVICE_LABELS[result.destinationService];
  const failed = result.status === 'failed';
  const retry = () => retryFailedTransfer(setRetryJob, navigate);
  const download = () => downloadCsv();

  return (
    <PageFrame>
      <div className="grid gap-6">
        {failed ? (
          <Alert variant="destructive">
            <p className="font-medium">The transfer did not finish.</p>
            <p>
              {result.error ?? 'Something went wrong.'} {result.addedTracks} of {result.totalTracks} tracks
              were added to “{result.name}” in {destination}.
            </p>
          </Alert>
        ) : null}
        <Card>
          <CardHeader>
            <CardTitle>{result.name}</CardTitle>
            <p className="text-sm text-slate-600">
              {SERVICE_LABELS[result.sourceService]} → {destination}
            </p>
            {result.librarySave ? (
              <p className="text-sm font-medium text-slate-900">{result.librarySave.savedTo}.</p>
            ) : null}
          </CardHeader>
          <CardContent className="grid gap-5">
            <ResultStats result={result} />
            <VerificationReport result={result} destination={destination} />
            {result.destinationService === 'apple' && (!result.librarySave || result.librarySave.playlist) ? (
              <Alert>
                Apple Music does not let apps edit a playlist after creating it: to change “{result.name}”,
                edit it in Apple Music.
              </Alert>
            ) : null}
            <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
              {result.destinationUrl ? (
                <a
                  href={result.destinationUrl}
                  target="_blank"
                  rel="noreferrer"
                  className="inline-flex h-10 items-center justify-center gap-2 rounded-lg bg-violet-700 px-4 text-sm font-medium text-white hover:bg-violet-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600 focus-visible:ring-offset-2"
                >
                  Open in {destination}
                  <ExternalLink aria-hidden="true" className="h-4 w-4" />
                </a>
              ) : null}
              <Button variant="outline" onClick={() => void download()} disabled={downloading}>
                <Download aria-hidden="true" className="h-4 w-4" />
                Download CSV
              </Button>
              {failed ? (
                <Button variant="outline" onClick={() => void retry()} disabled={retrying}>
                  <RotateCw aria-hidden="true" className="h-4 w-4" />
                  Retry
                </Button>
              ) : null}
              <Button variant="ghost" onClick={() => resetWizard(navigate)}>
                <RotateCcw aria-hidden="true" className="h-4 w-4" />
                Reset
              </Button>
            </div>
            {retrying ? (
              <JobProgressBar label="Retrying transfer" view={retryJob} waitingFor={destination} />
            ) : null}
            {wizard.error ? <Alert variant="destructive">{wizard.error}</Alert> : null}
          </CardContent>
        </Card>
        {wizard.matchSet ? (
          // Review rows nobody accepted are not written (decision 0006), like unmatched ones.
          <NotTransferredCard
            matchSetId={wizard.matchSet.matchSetId}
            includeUnmatched={wizard.includeUnmatched}
          />
        ) : null}
      </div>
    </PageFrame>
  );
}

function PageFrame({ children }: { children: ReactNode }) {
  return (
    <WizardPage title="Transfer Complete" description="What moved, what did not, and your CSV." step={4}>
      {children}
    </WizardPage>
  );
}
