import type { BillingInterval } from '../../../shared/api/billing';
import { cn } from '../../lib/cn';

const OPTIONS: { value: BillingInterval; label: string }[] = [
  { value: 'month', label: 'Monthly' },
  { value: 'year', label: 'Yearly' },
];

/** Monthly or yearly prices: a pair of radio buttons styled as a switch. */
export function IntervalChoice({
  value,
  onChange,
}: {
  value: BillingInterval;
  onChange(value: BillingInterval): void;
}) {
  return (
    <fieldset className="flex flex-wrap items-center gap-3">
      <legend className="sr-only">Billing period</legend>
      <span aria-hidden="true" className="text-sm font-medium text-slate-700">
        Billing period
      </span>
      <div className="inline-flex rounded-lg border border-slate-300 p-1">
        {OPTIONS.map((option) => (
          <label
            key={option.value}
            className={cn(
              'cursor-pointer rounded-md px-3 py-1.5 text-sm font-medium focus-within:ring-2 focus-within:ring-violet-600',
              value === option.value ? 'bg-violet-700 text-white' : 'text-slate-700 hover:bg-slate-100',
            )}
          >
            <input
              type="radio"
              name="billing-interval"
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              className="sr-only"
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
