import { useInfiniteQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowRight, ChevronDown, CircleCheck, CircleX } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { YOUR_RULE_REASON } from '../../../../shared/api/match-rules';
import { type MatchRow, type MatchSummary, notPlayableHere } from '../../../../shared/api/transfer';
import { ConfidenceBadge, StatusBadge } from '../../../components/match-badges';
import { TrackCell } from '../../../components/track-cell';
import { Alert } from '../../../components/ui/alert';
import { cn } from '../../../lib/cn';
import { matchRowsQuery } from '../transfer-api';
import { MatchRowDetails } from './match-row-details';

const rowToggleId = (position: number) => `match-row-${position}-toggle`;

export type MatchFilter = 'all' | 'review' | 'unmatched';

const FILTER_LABELS: Record<MatchFilter, string> = { all: 'All', review: 'Review', unmatched: 'Unmatched' };
/** How close to the end of the rows read so far the next page is asked for. */
const PREFETCH_ROWS = 20;

/**
 * What a row without a match says. The engine proposes nothing when every candidate it found is weak
 * (below the review band): the song is probably not on that service, and the row says so rather than
 * offering a wrong recording; its candidates stay one click away in the row's options.
 */
export function noMatchText(
  row: Pick<MatchRow, 'status' | 'decidedBy' | 'reasons'>,
  destinationLabel: string,
): string {
  if (row.status !== 'unmatched' || row.decidedBy !== 'engine') return `No match in ${destinationLabel}`;
  // The service lists it, only not where the person is: "probably not there" would be wrong.
  return notPlayableHere(row)
    ? `Not playable in your country on ${destinationLabel}`
    : `Probably not on ${destinationLabel}`;
}

function MatchListRow({
  row,
  open,
  onToggle,
  destinationLabel,
}: {
  row: MatchRow;
  open: boolean;
  onToggle: () => void;
  destinationLabel: string;
}) {
  const detailsId = `match-row-${row.position}`;
  const toggleId = rowToggleId(row.position);
  // A row one of the person's rules decided says so (issue 14).
  const reason =
    row.status === 'skipped' || row.status === 'unmatched' || row.reasons[0] === YOUR_RULE_REASON
      ? row.reasons[0]
      : undefined;
  return (
    <div className="border-b border-slate-200 bg-white">
      <button
        type="button"
        id={toggleId}
        aria-expanded={open}
        aria-controls={detailsId}
        onClick={onToggle}
        className={cn(
          'grid w-full grid-cols-1 items-center gap-2 p-3 text-left hover:bg-slate-50',
          'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-violet-600',
          'sm:grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)_auto]',
        )}
      >
        <TrackCell track={row.sourceTrack} caption="Source" />
        <ArrowRight aria-hidden="true" className="hidden h-4 w-4 text-slate-500 sm:block" />
        {row.destinationTrack ? (
          <TrackCell track={row.destinationTrack} caption="Destination" />
        ) : (
          <span className="text-sm italic text-slate-600">{noMatchText(row, destinationLabel)}</span>
        )}
        <span className="flex flex-wrap items-center gap-2 sm:justify-end">
          <ConfidenceBadge confidence={row.confidence} />
          {row.isMatched ? (
            <CircleCheck aria-label="Matched" role="img" className="h-4 w-4 text-green-700" />
          ) : (
            <CircleX aria-label="Not matched" role="img" className="h-4 w-4 text-red-700" />
          )}
          <StatusBadge status={row.status} />
          <ChevronDown
            aria-hidden="true"
            className={cn('h-4 w-4 text-slate-500 transition-transform', open && 'rotate-180')}
          />
          {reason ? <span className="basis-full text-xs text-slate-700 sm:text-right">{reason}</span> : null}
        </span>
        <span className="sr-only">{open ? 'Hide options' : 'Show options'}</span>
      </button>
      <div id={detailsId} hidden={!open}>
        {open ? <MatchRowDetails row={row} destinationLabel={destinationLabel} /> : null}
      </div>
    </div>
  );
}

/**
 * Match results, read a page at a time from the server (issue 25) and virtualized, so a 100,000-row set
 * scrolls without the browser holding or drawing it all. The filters ask the server for their rows; every
 * count is the server's count of the whole set, so the buttons, the list's length and its rows agree.
 */
export function MatchList({
  matchSetId,
  summary,
  destinationLabel,
}: {
  matchSetId: string;
  summary: MatchSummary;
  destinationLabel: string;
}) {
  const [filter, setFilter] = useState<MatchFilter>('all');
  const [openPosition, setOpenPosition] = useState<number | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const pages = useInfiniteQuery(matchRowsQuery(matchSetId, filter === 'all' ? {} : { status: filter }));
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;

  const counts: Record<MatchFilter, number> = {
    all: summary.total,
    review: summary.review,
    unmatched: summary.unmatched,
  };
  const shown = useMemo(() => pages.data?.pages.flatMap((page) => page.results) ?? [], [pages.data]);
  // The list is as long as the server says the filter's rows are; rows not read yet are placeholders.
  const total = pages.data?.pages[0]?.filteredTotal ?? counts[filter];

  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 76,
    overscan: 8,
    getItemKey: (index) => shown[index]?.position ?? `pending-${index}`,
  });
  const lastIndex = virtualizer.getVirtualItems().at(-1)?.index ?? -1;
  useEffect(() => {
    if (lastIndex >= shown.length - PREFETCH_ROWS && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [lastIndex, shown.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  // Opening a row closes the one that was open, often far above it: every row between changes place in
  // the same frame, and the list could settle anywhere. The row the person opened goes to the top of
  // the list, so its options are what they see, and the page scrolls as little as needed to show the
  // row's own button. Only on opening: a refetch or a closed row moves nothing.
  // (The list turns the browser's own scroll anchoring off: the virtualizer already keeps rows in place
  // when others change size, and both together move the list twice.)
  const openIndex = openPosition === null ? -1 : shown.findIndex((row) => row.position === openPosition);
  const openedIndex = useRef(-1);
  useEffect(() => {
    if (openIndex === openedIndex.current) return;
    openedIndex.current = openIndex;
    if (openIndex < 0 || openPosition === null) return;
    virtualizer.scrollToIndex(openIndex, { align: 'start' });
    const frame = requestAnimationFrame(() =>
      document.getElementById(rowToggleId(openPosition))?.scrollIntoView({ block: 'nearest' }),
    );
    return () => cancelAnimationFrame(frame);
  }, [openIndex, openPosition, virtualizer]);

  return (
    <div className="grid gap-3">
      <fieldset className="flex flex-wrap gap-2">
        <legend className="sr-only">Filter matches</legend>
        {(Object.keys(FILTER_LABELS) as MatchFilter[]).map((key) => (
          <button
            key={key}
            type="button"
            aria-pressed={filter === key}
            onClick={() => setFilter(key)}
            className={cn(
              'rounded-full border px-3 py-1 text-sm font-medium',
              'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600 focus-visible:ring-offset-2',
              filter === key
                ? 'border-violet-700 bg-violet-700 text-white'
                : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50',
            )}
          >
            {FILTER_LABELS[key]} ({counts[key]})
          </button>
        ))}
      </fieldset>
      {pages.isError ? (
        <Alert variant="destructive">
          <p>These matches could not be loaded.</p>
          <button type="button" className="mt-1 underline" onClick={() => void pages.refetch()}>
            Try again
          </button>
        </Alert>
      ) : null}
      {total === 0 ? (
        <p className="rounded-xl border border-slate-200 p-6 text-center text-sm text-slate-700">
          No tracks in this view.
        </p>
      ) : (
        <section
          ref={scrollRef}
          aria-label="Match results"
          tabIndex={-1}
          className="max-h-[65vh] overflow-auto rounded-xl border border-slate-200 [overflow-anchor:none]"
        >
          <ul
            aria-label={`${total} tracks`}
            aria-busy={pages.isFetching}
            className="relative w-full"
            style={{ height: `${virtualizer.getTotalSize()}px` }}
          >
            {virtualizer.getVirtualItems().map((item) => {
              const row = shown[item.index];
              return (
                <li
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  aria-setsize={total}
                  aria-posinset={item.index + 1}
                  className="absolute left-0 top-0 w-full"
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  {row ? (
                    <MatchListRow
                      row={row}
                      open={openPosition === row.position}
                      onToggle={() =>
                        setOpenPosition((current) => (current === row.position ? null : row.position))
                      }
                      destinationLabel={destinationLabel}
                    />
                  ) : (
                    <div className="h-[76px] border-b border-slate-200 p-3 text-sm text-slate-500">
                      Loading track {item.index + 1}…
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      )}
    </div>
  );
}
