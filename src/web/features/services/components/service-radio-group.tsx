import { Check } from 'lucide-react';
import { useId } from 'react';
import { SERVICE_LABELS, type ServiceId } from '../../../../shared/services';
import { cn } from '../../../lib/cn';

const SERVICES: ServiceId[] = ['spotify', 'apple'];

const SERVICE_ACCENT: Record<ServiceId, string> = {
  spotify: 'bg-[#1DB954]',
  apple: 'bg-gradient-to-br from-[#FA2D48] to-[#A833B9]',
};

export interface ServiceRadioGroupProps {
  legend: string;
  name: string;
  value: ServiceId;
  onChange: (service: ServiceId) => void;
}

/** Native radios styled as cards: arrow keys, labels and form semantics come for free. */
export function ServiceRadioGroup({ legend, name, value, onChange }: ServiceRadioGroupProps) {
  const groupId = useId();
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-3 text-base font-semibold text-slate-900">{legend}</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {SERVICES.map((service) => {
          const id = `${groupId}-${service}`;
          const checked = value === service;
          return (
            <label
              key={service}
              htmlFor={id}
              className={cn(
                'relative flex cursor-pointer items-center gap-3 rounded-xl border-2 p-4 transition-colors',
                'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-violet-600 has-[:focus-visible]:ring-offset-2',
                checked
                  ? 'border-violet-700 bg-violet-50'
                  : 'border-slate-200 bg-white hover:border-slate-300',
              )}
            >
              <input
                id={id}
                type="radio"
                name={name}
                value={service}
                checked={checked}
                onChange={() => onChange(service)}
                className="sr-only"
              />
              <span
                aria-hidden="true"
                className={cn('h-8 w-8 shrink-0 rounded-full', SERVICE_ACCENT[service])}
              />
              <span className="font-medium text-slate-900">{SERVICE_LABELS[service]}</span>
              {checked ? (
                <Check aria-hidden="true" className="ml-auto h-5 w-5 text-violet-700" strokeWidth={3} />
              ) : null}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
