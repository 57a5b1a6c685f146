import { useId, useState } from 'react';
import type { MatchRule, MatchRuleEdit } from '../../../shared/api/match-rules';
import { SERVICE_LABELS } from '../../../shared/services';
import { DestinationSearch } from '../../components/destination-search';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../hooks/use-toast';
import { serverMessage } from '../../lib/api-client';
import { ruleSearchQuery, useDeleteMatchRule, useEditMatchRule, useMatchRules } from './match-rules-api';

const describeTrack = (track: { name: string; artists: string[] }) =>
  track.artists.length > 0 ? `${track.name} — ${track.artists.join(', ')}` : track.name;

/** The person's match rules, newest first, each with what it does and ways to change or delete it. */
export function MatchRuleList() {
  const rules = useMatchRules();
  if (rules.isPending) return <Spinner label="Loading your match rules" />;
  if (rules.isError) {
    return (
      <p role="alert" className="text-sm text-red-800">
        {serverMessage(rules.error) ?? 'Your match rules could not be loaded. Please reload the page.'}
      </p>
    );
  }
  if (rules.data.rules.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        No rules yet. When you fix a match in step 3 of a transfer (pick another candidate, search for the
        track, or mark it "not on this service"), Crossfade remembers it here and applies it next time.
      </p>
    );
  }
  return (
    <ul className="grid gap-3" aria-label="Your match rules">
      {rules.data.rules.map((rule) => (
        <li key={rule.id}>
          <RuleItem rule={rule} />
        </li>
      ))}
    </ul>
  );
}

function RuleItem({ rule }: { rule: MatchRule }) {
  const [editing, setEditing] = useState(false);
  const editorId = useId();
  const remove = useDeleteMatchRule(rule.id);
  const deleteRule = () =>
    remove.mutate(undefined, {
      onSuccess: () => toast({ title: 'Rule deleted', description: describeTrack(rule.sourceTrack) }),
      onError: (error) =>
        toast({
          title: 'The rule could not be deleted',
          description: serverMessage(error) ?? 'Please try again.',
          variant: 'destructive',
        }),
    });
  const route = `${SERVICE_LABELS[rule.sourceService]} → ${SERVICE_LABELS[rule.destinationService]}`;
  const song = describeTrack(rule.sourceTrack);
  return (
    <div className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-medium text-slate-900">{song}</p>
          <p className="text-sm text-slate-600">
            {route}:{' '}
            {rule.action === 'skip' || !rule.destinationTrack
              ? 'not on this service (skipped)'
              : `always ${describeTrack(rule.destinationTrack)}`}
          </p>
        </div>
        <div className="flex gap-2">
          <Button
            variant="outline"
            size="sm"
            aria-expanded={editing}
            aria-controls={editorId}
            onClick={() => setEditing((open) => !open)}
            aria-label={`Change the rule for ${song}`}
          >
            {editing ? 'Close' : 'Change'}
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={remove.isPending}
            onClick={deleteRule}
            aria-label={`Delete the rule for ${song}`}
          >
            {remove.isPending ? 'Deleting…' : 'Delete'}
          </Button>
        </div>
      </div>
      {editing ? (
        <div id={editorId}>
          <RuleEditor rule={rule} onDone={() => setEditing(false)} />
        </div>
      ) : null}
    </div>
  );
}

/** Change a rule: "not on this service", or a track the person finds on the destination service. */
function RuleEditor({ rule, onDone }: { rule: MatchRule; onDone: () => void }) {
  const [query, setQuery] = useState(`${rule.sourceTrack.name} ${rule.sourceTrack.artists[0] ?? ''}`.trim());
  const destination = SERVICE_LABELS[rule.destinationService];
  const edit = useEditMatchRule(rule.id);
  const change = (next: MatchRuleEdit) =>
    edit.mutate(next, {
      onSuccess: (updated) => {
        toast({
          title: 'Rule updated',
          description:
            updated.action === 'skip' || !updated.destinationTrack
              ? `${describeTrack(updated.sourceTrack)}: not on ${destination}`
              : `${describeTrack(updated.sourceTrack)}: always ${describeTrack(updated.destinationTrack)}`,
        });
        onDone();
      },
      onError: (error) =>
        toast({
          title: 'The rule could not be changed',
          description: serverMessage(error) ?? 'Please try again.',
          variant: 'destructive',
        }),
    });
  return (
    <div className="grid gap-3 border-t border-slate-200 pt-3">
      <DestinationSearch
        label={`Search ${destination}`}
        query={query}
        onQueryChange={setQuery}
        searchQuery={(text) => ruleSearchQuery(rule.id, text)}
        currentId={rule.action === 'choose' ? rule.destinationTrack?.id : undefined}
        busy={edit.isPending}
        onUse={(candidate) => change({ action: 'choose', trackId: candidate.track.id })}
      />
      {rule.action === 'choose' ? (
        <div>
          <Button
            variant="outline"
            size="sm"
            disabled={edit.isPending}
            onClick={() => change({ action: 'skip' })}
          >
            Not on {destination}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
