import { type QueryKey, type UseQueryOptions, useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { Candidate } from '../../shared/api/transfer';
import { serverMessage } from '../lib/api-client';
import { ConfidenceBadge } from './match-badges';
import { TrackCell } from './track-cell';
import { Button } from './ui/button';
import { Input } from './ui/input';
import { Spinner } from './ui/spinner';

/** One destination track offered for a song: how close it is, why, and "Use this" (or "Chosen"). */
export function CandidateItem({
  candidate,
  current,
  busy,
  onUse,
}: {
  candidate: Candidate;
  current: boolean;
  busy: boolean;
  onUse: () => void;
}) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white p-2">
      <div className="grid min-w-0 flex-1 gap-1">
        <TrackCell track={candidate.track} />
        <div className="flex flex-wrap items-center gap-1 text-xs text-slate-700">
          <ConfidenceBadge confidence={candidate.confidence} />
          {candidate.versionLabels.map((label) => (
            <span key={label} className="rounded bg-slate-100 px-1.5 py-0.5 text-slate-800">
              {label}
            </span>
          ))}
          {candidate.reasons.length > 0 ? <span>{candidate.reasons.join('; ')}</span> : null}
        </div>
      </div>
      {current ? (
        <span className="text-xs font-medium text-green-800">Chosen</span>
      ) : (
        <Button
          size="sm"
          variant="outline"
          disabled={busy}
          onClick={onUse}
          aria-label={`Use this: ${candidate.track.name} by ${candidate.track.artists.join(', ')}`}
        >
          Use this
        </Button>
      )}
    </li>
  );
}

/**
 * A person's own search on the destination service (a match row, a rule being edited): the form, the
 * results scored against the song, each with "Use this". The query is the caller's, so it can outlive
 * this component.
 */
export function DestinationSearch<Key extends QueryKey>({
  label,
  query,
  onQueryChange,
  searchQuery,
  currentId,
  busy,
  onUse,
}: {
  label: string;
  query: string;
  onQueryChange: (text: string) => void;
  /** The feature's query options of a search for this text (its `*-api.ts`). */
  searchQuery: (text: string) => UseQueryOptions<Candidate[], Error, Candidate[], Key>;
  currentId: string | undefined;
  busy: boolean;
  onUse: (candidate: Candidate) => void;
}) {
  const searchId = useId();
  // The text last searched for: the search itself is a query of the feature's, run when it is set.
  const [searched, setSearched] = useState<string | null>(null);
  const search = useQuery({ ...searchQuery(searched ?? ''), enabled: searched !== null });
  const results = searched === null ? null : (search.data ?? null);
  const searching = search.isFetching;
  const searchError = search.isError
    ? (serverMessage(search.error) ?? 'Search failed. Please try again.')
    : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = query.trim();
    if (text === '') return;
    // The same words again search again (the catalog may have changed); new words are a new query.
    if (text === searched) void search.refetch();
    else setSearched(text);
  };

  return (
    <section aria-label="Manual search" className="grid gap-2">
      <form className="flex flex-wrap items-end gap-2" onSubmit={submit}>
        <div className="grid min-w-0 flex-1 gap-1">
          <label htmlFor={searchId} className="text-sm font-semibold text-slate-900">
            {label}
          </label>
          <Input id={searchId} value={query} onChange={(event) => onQueryChange(event.target.value)} />
        </div>
        <Button type="submit" variant="secondary" disabled={searching}>
          Search
        </Button>
      </form>
      <div aria-live="polite">
        {searching ? <Spinner label="Searching" /> : null}
        {searchError ? <p className="text-sm text-red-800">{searchError}</p> : null}
        {results !== null && !searching ? (
          results.length === 0 ? (
            <p className="text-sm text-slate-700">Nothing found.</p>
          ) : (
            <ul className="grid gap-2" aria-label="Search results">
              {results.map((candidate) => (
                <CandidateItem
                  key={candidate.track.id}
                  candidate={candidate}
                  current={currentId === candidate.track.id}
                  busy={busy}
                  onUse={() => onUse(candidate)}
                />
              ))}
            </ul>
          )
        ) : null}
      </div>
    </section>
  );
}
