import { Check } from 'lucide-react';
import { cn } from '../../../lib/cn';
import type { WizardStep } from '../wizard-state';

export const STEP_LABELS: Record<WizardStep, string> = {
  1: 'Choose Services',
  2: 'Select Playlist',
  3: 'Match Songs',
  4: 'Transfer',
};

const STEPS: WizardStep[] = [1, 2, 3, 4];

/**
 * Spec section 2: completed steps carry a check mark, the current one is highlighted. Only steps whose work
 * is done count as completed: a visitor who opens /matches directly has chosen nothing yet.
 */
export function StepIndicator({
  current,
  isCompleted,
}: {
  current: WizardStep;
  isCompleted: (step: WizardStep) => boolean;
}) {
  return (
    <nav aria-label="Transfer progress" className="mb-8">
      <ol className="grid grid-cols-4 gap-2">
        {STEPS.map((step) => {
          const done = isCompleted(step);
          const active = step === current;
          return (
            <li
              key={step}
              aria-current={active ? 'step' : undefined}
              className="flex flex-col items-center gap-1 text-center sm:flex-row sm:gap-2 sm:text-left"
            >
              <span
                className={cn(
                  'flex h-8 w-8 shrink-0 items-center justify-center rounded-full border-2 text-sm font-semibold',
                  done && 'border-violet-700 bg-violet-700 text-white',
                  active && 'border-violet-700 bg-violet-50 text-violet-800 ring-2 ring-violet-300',
                  !done && !active && 'border-slate-300 bg-white text-slate-600',
                )}
              >
                {done ? <Check aria-hidden="true" className="h-4 w-4" strokeWidth={3} /> : step}
              </span>
              <span
                className={cn(
                  'text-xs sm:text-sm',
                  active ? 'font-semibold text-slate-900' : 'text-slate-600',
                )}
              >
                <span className="sr-only">Step {step}: </span>
                {STEP_LABELS[step]}
                {done ? <span className="sr-only"> (completed)</span> : null}
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
