import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { MatchChoice } from '../../../shared/api/transfer';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { serverMessage } from '../../lib/api-client';
import { acceptAllOfBatch, batchReviewQuery, fixBatchRow } from './batches-api';

/**
 * The one review screen of a batch: only the rows that need a person, from every playlist. Each answer
 * goes to the row's own match set (and becomes the person's match rule, as in the wizard).
 */
export function BatchReviewList({ batchId }: { batchId: string }) {
  const review = useQuery(batchReviewQuery(batchId));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (caught) {
      setError(serverMessage(caught) ?? 'That did not work. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  if (review.isPending) return <Spinner label="Loading the rows to review" />;
  if (review.isError)
    return <Alert variant="destructive">{serverMessage(review.error) ?? 'Could not load the review.'}</Alert>;
  const rows = review.data.rows;
  if (rows.length === 0) return <p className="text-slate-700">Nothing needs your review.</p>;
  const fix = (matchSetId: string, position: number, choice: MatchChoice) =>
    act(() => fixBatchRow(batchId, matchSetId, position, choice));

  return (
    <section aria-label="Needs your review" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-slate-700">
          {rows.length} track{rows.length === 1 ? '' : 's'} across your playlists need
          {rows.length === 1 ? 's' : ''} you. Tracks you leave in review are not moved.
        </p>
        <Button
          variant="secondary"
          disabled={busy}
          onClick={() =>
            act(() => acceptAllOfBatch(batchId, [...new Set(rows.map((entry) => entry.matchSetId))]))
          }
        >
          Accept all {rows.length}
        </Button>
      </div>
      {error ? <Alert variant="destructive">{error}</Alert> : null}
      <ul className="grid gap-2">
        {rows.map(({ matchSetId, playlistName, row }) => {
          const proposed = row.destinationTrack;
          const others = row.candidates
            .filter((candidate) => candidate.track.id !== proposed?.id)
            .slice(0, 3);
          return (
            <li
              key={row.id}
              className="grid gap-2 rounded-lg border border-slate-200 p-3"
              data-testid="batch-review-row"
            >
              <p className="text-xs uppercase tracking-wide text-slate-500">{playlistName}</p>
              <p className="text-sm">
                <span className="font-medium">{row.sourceTrack.name}</span> ·{' '}
                {row.sourceTrack.artists.join(', ')}
              </p>
              {proposed ? (
                <p className="text-sm text-slate-600">
                  Proposed: {proposed.name} · {proposed.artists.join(', ')} ({Math.round(row.confidence)}%)
                </p>
              ) : null}
              <div className="flex flex-wrap gap-2">
                {proposed ? (
                  <Button
                    size="sm"
                    disabled={busy}
                    onClick={() => fix(matchSetId, row.position, { action: 'choose', trackId: proposed.id })}
                  >
                    Accept
                  </Button>
                ) : null}
                {others.map((candidate) => (
                  <Button
                    key={candidate.track.id}
                    size="sm"
                    variant="outline"
                    disabled={busy}
                    onClick={() =>
                      fix(matchSetId, row.position, { action: 'choose', trackId: candidate.track.id })
                    }
                  >
                    Choose {candidate.track.name} ({Math.round(candidate.confidence)}%)
                  </Button>
                ))}
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={busy}
                  onClick={() => fix(matchSetId, row.position, { action: 'skip' })}
                >
                  Skip
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
