import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { BatchReview } from '../../../shared/api/batches';
import type { MatchChoice } from '../../../shared/api/transfer';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { serverMessage } from '../../lib/api-client';
import { MatchRowDetails, noMatchText } from '../transfer';
import { batchReviewQuery, useAcceptAllOfBatch, useFixBatchRow } from './batches-api';

type ReviewEntry = BatchReview['rows'][number];

/**
 * One row that needs the person: its playlist, the song, what the engine proposes or that it is probably
 * not on the destination (issue 24), Accept, Skip (the song is not on this service, saved as the person's
 * rule) and, opened, the wizard's own candidates and search by hand.
 */
function BatchReviewRow({
  entry,
  destinationLabel,
  open,
  onToggle,
  fix,
  pending,
}: {
  entry: ReviewEntry;
  destinationLabel: string;
  open: boolean;
  onToggle: () => void;
  fix: (choice: MatchChoice) => Promise<unknown>;
  pending: boolean;
}) {
  const { playlistName, row } = entry;
  const proposed = row.status === 'review' ? row.destinationTrack : null;
  const detailsId = `batch-row-${row.id}`;
  return (
    <li className="grid gap-2 rounded-lg border border-slate-200 p-3" data-testid="batch-review-row">
      <p className="text-xs uppercase tracking-wide text-slate-500">{playlistName}</p>
      <p className="text-sm">
        <span className="font-medium">{row.sourceTrack.name}</span> · {row.sourceTrack.artists.join(', ')}
      </p>
      {proposed ? (
        <p className="text-sm text-slate-600">
          Proposed: {proposed.name} · {proposed.artists.join(', ')} ({Math.round(row.confidence)}%)
        </p>
      ) : (
        <p className="text-sm italic text-slate-600">{noMatchText(row, destinationLabel)}</p>
      )}
      <div className="flex flex-wrap gap-2">
        {proposed ? (
          <Button
            size="sm"
            disabled={pending}
            onClick={() => void fix({ action: 'choose', trackId: proposed.id })}
          >
            Accept
          </Button>
        ) : null}
        <Button size="sm" variant="outline" aria-expanded={open} aria-controls={detailsId} onClick={onToggle}>
          {open ? 'Close' : 'Search by hand or choose'}
        </Button>
        {open ? null : (
          <Button size="sm" variant="ghost" disabled={pending} onClick={() => void fix({ action: 'skip' })}>
            Skip (not on {destinationLabel})
          </Button>
        )}
      </div>
      <div id={detailsId} hidden={!open}>
        {open ? (
          <MatchRowDetails row={row} destinationLabel={destinationLabel} onChoice={fix} pending={pending} />
        ) : null}
      </div>
    </li>
  );
}

const tracks = (count: number) => `${count} track${count === 1 ? '' : 's'}`;

/** "2 tracks in review and 12 with no match in Apple Music, across your playlists." */
export function needsText(inReview: number, unmatched: number, destinationLabel: string): string {
  const parts = [
    ...(inReview > 0 ? [`${tracks(inReview)} in review`] : []),
    ...(unmatched > 0
      ? [`${inReview > 0 ? unmatched : tracks(unmatched)} with no match in ${destinationLabel}`]
      : []),
  ];
  return `${parts.join(' and ')}, across your playlists.`;
}

/**
 * The one review screen of a batch: the rows in review and the rows with no match, from every playlist
 * (issue 23). Each answer goes to the row's own match set (and becomes the person's match rule, as in the
 * wizard).
 */
export function BatchReviewList({
  batchId,
  destinationLabel,
}: {
  batchId: string;
  destinationLabel: string;
}) {
  const review = useQuery(batchReviewQuery(batchId));
  const fixRow = useFixBatchRow(batchId);
  const acceptAll = useAcceptAllOfBatch(batchId);
  const [openId, setOpenId] = useState<string | null>(null);

  if (review.isPending) return <Spinner label="Loading the rows to review" />;
  if (review.isError)
    return <Alert variant="destructive">{serverMessage(review.error) ?? 'Could not load the review.'}</Alert>;
  const rows = review.data.rows;
  if (rows.length === 0) return <p className="text-slate-700">Nothing needs your review.</p>;
  const inReview = rows.filter((entry) => entry.row.status === 'review');
  const unmatched = rows.length - inReview.length;
  const pending = fixRow.isPending || acceptAll.isPending;
  const failure = fixRow.error ?? acceptAll.error;

  return (
    <section aria-label="Needs your review" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-slate-700">
          {needsText(inReview.length, unmatched, destinationLabel)} Tracks you leave here are not moved; they
          are listed with the reason once moved.
        </p>
        {inReview.length > 0 ? (
          <Button
            variant="secondary"
            disabled={pending}
            onClick={() => acceptAll.mutate([...new Set(inReview.map((entry) => entry.matchSetId))])}
          >
            Accept all {inReview.length} in review
          </Button>
        ) : null}
      </div>
      {failure ? (
        <Alert variant="destructive">
          {serverMessage(failure) ?? 'That did not work. Please try again.'}
        </Alert>
      ) : null}
      <ul className="grid gap-2">
        {rows.map((entry) => (
          <BatchReviewRow
            key={entry.row.id}
            entry={entry}
            destinationLabel={destinationLabel}
            open={openId === entry.row.id}
            onToggle={() => setOpenId((current) => (current === entry.row.id ? null : entry.row.id))}
            pending={pending}
            fix={(choice) =>
              fixRow
                .mutateAsync({ matchSetId: entry.matchSetId, position: entry.row.position, choice })
                // The failure is shown above the list (the mutation's error).
                .catch(() => undefined)
            }
          />
        ))}
      </ul>
    </section>
  );
}
