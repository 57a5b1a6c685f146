import type { RowProblemDto } from '../../../shared/api/recreate';

const SHOWN = 20;

/** Lines or entries that were left out, so the person can fix and add them by hand. */
export function ProblemList({ problems }: { problems: RowProblemDto[] }) {
  if (problems.length === 0) return null;
  return (
    <div className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
      <p className="font-medium">
        {problems.length === 1 ? '1 line was left out:' : `${problems.length} lines were left out:`}
      </p>
      <ul aria-label="Left out" className="mt-1 list-disc pl-5">
        {problems.slice(0, SHOWN).map((problem) => (
          <li key={`${problem.row}-${problem.message}`}>{problem.message}</li>
        ))}
      </ul>
      {problems.length > SHOWN ? <p className="mt-1">and {problems.length - SHOWN} more.</p> : null}
    </div>
  );
}
