import { useState } from 'react';
import type { MatchChoice, MatchRow } from '../../../../shared/api/transfer';
import { CandidateItem, DestinationSearch } from '../../../components/destination-search';
import { Button } from '../../../components/ui/button';
import { rowSearchQuery } from '../transfer-api';
import { applyRowChoice } from '../wizard-actions';
import { useWizardMutating } from '../wizard-queries';

/**
 * What the person typed into a row's search, by row id. The details panel unmounts whenever the row is
 * closed, filtered out or scrolled away in the virtual list; their words must survive that, never falling
 * back to the default query.
 */
const typedQueries = new Map<string, string>();

/**
 * The other candidates, a manual search, Skip and Undo for one row (spec: a person fixes a match). The
 * wizard applies a choice to its match set; a batch's review passes its own `onChoice` (a mutation of the
 * row's match set) with that mutation's `pending`.
 */
export function MatchRowDetails({
  row,
  destinationLabel,
  onChoice,
  pending = false,
}: {
  row: MatchRow;
  destinationLabel: string;
  onChoice?: (choice: MatchChoice) => Promise<unknown>;
  pending?: boolean;
}) {
  const wizardBusy = useWizardMutating('row');
  const busy = onChoice ? pending : wizardBusy;
  const [query, setQueryState] = useState(
    () => typedQueries.get(row.id) ?? `${row.sourceTrack.name} ${row.sourceTrack.artists[0] ?? ''}`.trim(),
  );
  const setQuery = (text: string) => {
    typedQueries.set(row.id, text);
    setQueryState(text);
  };

  const act = async (choice: MatchChoice) => {
    if (onChoice) {
      await onChoice(choice);
      return;
    }
    await applyRowChoice(row, choice);
  };

  const matchSetId = row.id.slice(0, row.id.lastIndexOf(':'));
  const currentId = row.status !== 'skipped' ? row.destinationTrack?.id : undefined;

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
                current={currentId === candidate.track.id}
                busy={busy}
                onUse={() => void act({ action: 'choose', trackId: candidate.track.id })}
              />
            ))}
          </ul>
        )}
      </section>
      <DestinationSearch
        label={`Search ${destinationLabel}`}
        query={query}
        onQueryChange={setQuery}
        searchQuery={(text) => rowSearchQuery(matchSetId, row.position, text)}
        currentId={currentId}
        busy={busy}
        onUse={(candidate) =>
          void act({
            action: 'manual',
            track: { ...candidate.track, uri: candidate.track.uri ?? candidate.track.id },
          })
        }
      />
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
