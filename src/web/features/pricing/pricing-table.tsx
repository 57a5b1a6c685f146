import { Check, Minus } from 'lucide-react';
import { PLAN_FEATURES, PLAN_OFFERS } from '../../../shared/api/account';
import type { Plan } from '../../../shared/api/auth';
import { cn } from '../../lib/cn';

/** The plans side by side; the signed-in person's plan is marked in its column heading. */
export function PricingTable({ currentPlan }: { currentPlan: Plan | null }) {
  return (
    // Focusable and named, so keyboard users can scroll the table sideways on a narrow screen.
    <section
      className="relative overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-violet-600"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable, WCAG 2.1.1)
      tabIndex={0}
      aria-label="Plan comparison"
    >
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="sr-only">What each plan includes</caption>
        <thead>
          <tr className="border-b border-slate-200">
            <th scope="col" className="p-4 font-medium text-slate-600">
              Feature
            </th>
            {PLAN_OFFERS.map((offer) => (
              <th
                key={offer.plan}
                scope="col"
                className={cn(
                  'p-4 text-base font-semibold text-slate-900',
                  offer.plan === currentPlan && 'bg-violet-50',
                )}
              >
                {offer.name}
                {offer.plan === currentPlan ? (
                  <span className="ml-2 rounded-full bg-violet-700 px-2 py-0.5 text-xs font-medium text-white">
                    Your plan
                  </span>
                ) : null}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {PLAN_FEATURES.map((feature) => (
            <tr key={feature.label}>
              <th scope="row" className="p-4 font-medium text-slate-800">
                {feature.label}
              </th>
              {PLAN_OFFERS.map((offer) => {
                const value = feature.values[offer.plan];
                return (
                  <td
                    key={offer.plan}
                    className={cn('p-4 text-slate-900', offer.plan === currentPlan && 'bg-violet-50')}
                  >
                    {value === true ? (
                      <>
                        <Check aria-hidden="true" className="h-5 w-5 text-green-700" />
                        <span className="sr-only">Included</span>
                      </>
                    ) : value === false ? (
                      <>
                        <Minus aria-hidden="true" className="h-5 w-5 text-slate-400" />
                        <span className="sr-only">Not included</span>
                      </>
                    ) : (
                      value
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
