import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

export function Alert({
  className,
  variant = 'default',
  ...props
}: HTMLAttributes<HTMLDivElement> & { variant?: 'default' | 'destructive' }) {
  return (
    <div
      role="alert"
      className={cn(
        'rounded-lg border px-4 py-3 text-sm',
        variant === 'destructive'
          ? 'border-red-300 bg-red-50 text-red-900'
          : 'border-slate-200 bg-slate-50 text-slate-900',
        className,
      )}
      {...props}
    />
  );
}
