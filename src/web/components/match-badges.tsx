import type { MatchStatus } from '../../shared/api/transfer';
import { cn } from '../lib/cn';
import { BAND_CLASSES, rowConfidenceBand } from '../lib/confidence';

export function ConfidenceBadge({ confidence }: { confidence: number }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-semibold tabular-nums',
        BAND_CLASSES[rowConfidenceBand(confidence)],
      )}
    >
      <span className="sr-only">Confidence </span>
      {Math.round(confidence)}%
    </span>
  );
}

const STATUS_CLASSES: Record<MatchStatus, string> = {
  accepted: 'bg-green-50 text-green-900 border-green-300',
  review: 'bg-amber-50 text-amber-900 border-amber-300',
  unmatched: 'bg-red-50 text-red-900 border-red-300',
  skipped: 'bg-slate-100 text-slate-800 border-slate-300',
};

export function StatusBadge({ status }: { status: MatchStatus }) {
  return (
    <span
      className={cn(
        'inline-flex rounded-full border px-2 py-0.5 text-xs font-medium',
        STATUS_CLASSES[status],
      )}
    >
      {status}
    </span>
  );
}
