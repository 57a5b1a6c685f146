import { type FormEvent, useId, useState } from 'react';
import type { Candidate, MatchRow } from '../../../../shared/api/transfer';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { serverMessage } from '../../../lib/api-client';
import { searchForRow } from '../transfer-api';
import { applyRowChoice } from '../wizard-actions';
import { ConfidenceBadge } from './match-badges';
import { TrackCell } from './track-cell';

function CandidateItem({
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
 * What the person typed into a row's search, by row id. The details panel unmounts whenever the row is
 * closed, filtered out or scrolled away in the virtual list; their words must survive that, never falling
 * back to the default query.
 */
const typedQueries = new Map<string, string>();

/** The other candidates, a manual search, Skip and Undo for one row (spec: a person fixes a match). */
export function MatchRowDetails({ row, destinationLabel }: { row: MatchRow; destinationLabel: string }) {
  const searchId = useId();
  const [busy, setBusy] = useState(false);
  const [query, setQueryState] = useState(
    () => typedQueries.get(row.id) ?? `${row.sourceTrack.name} ${row.sourceTrack.artists[0] ?? ''}`.trim(),
  );
  const setQuery = (text: string) => {
    typedQueries.set(row.id, text);
    setQueryState(text);
  };
  const [results, setResults] = useState<Candidate[] | null>(null);
  const [searching, setSearching] = useState(false);
  const [searchError, setSearchError] = useState<string | null>(null);

  const act = async (choice: Parameters<typeof applyRowChoice>[1]) => {
    setBusy(true);
    await applyRowChoice(row, choice);
    setBusy(false);
  };

  const search = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const matchSetId = row.id.slice(0, row.id.lastIndexOf(':'));
    if (query.trim() === '') return;
    setSearching(true);
    setSearchError(null);
    try {
      setResults(await searchForRow(matchSetId, row.position, query.trim()));
    } catch (error) {
      setResults(null);
      setSearchError(serverMessage(error) ?? 'Search failed. Please try again.');
    } finally {
      setSearching(false);
    }
  };

  const others = row.candidates;
  return (
    <div className="grid gap-4 border-t border-slate-200 bg-slate-50 p-3">
      <section aria-label="Other candidates" className="grid gap-2">
        <h3 className="text-sm font-semibold text-slate-900">Candidates</h3>
        {others.length === 0 ? (
          <p className="text-sm text-slate-700">No other candidates were found.</p>
        ) : (
          <ul className="grid gap-2">
            {others.map((candidate) => (
              <CandidateItem
                key={candidate.track.id}
                candidate={candidate}
                current={row.destinationTrack?.id === candidate.track.id && row.status !== 'skipped'}
                busy={busy}
                onUse={() => void act({ action: 'choose', trackId: candidate.track.id })}
              />
            ))}
          </ul>
        )}
      </section>
      <section aria-label="Manual search" className="grid gap-2">
        <form className="flex flex-wrap items-end gap-2" onSubmit={(event) => void search(event)}>
          <div className="grid min-w-0 flex-1 gap-1">
            <label htmlFor={searchId} className="text-sm font-semibold text-slate-900">
              Search {destinationLabel}
            </label>
            <Input id={searchId} value={query} onChange={(event) => setQuery(event.target.value)} />
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
                    current={row.destinationTrack?.id === candidate.track.id && row.status !== 'skipped'}
                    busy={busy}
                    onUse={() =>
                      void act({
                        action: 'manual',
                        track: { ...candidate.track, uri: candidate.track.uri ?? candidate.track.id },
                      })
                    }
                  />
                ))}
              </ul>
            )
          ) : null}
        </div>
      </section>
      <div className="flex flex-wrap gap-2">
        {row.status !== 'skipped' ? (
          <Button variant="outline" size="sm" disabled={busy} onClick={() => void act({ action: 'skip' })}>
            Skip
          </Button>
        ) : null}
        {row.decidedBy === 'person' || row.status === 'skipped' ? (
          <Button variant="ghost" size="sm" disabled={busy} onClick={() => void act({ action: 'reset' })}>
            Undo
          </Button>
        ) : null}
      </div>
    </div>
  );
}
