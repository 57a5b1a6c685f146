import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { cn } from '../../lib/cn';

export interface PageProps {
  /** The page's single h1, also used for the tab title. */
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  className?: string;
  width?: 'narrow' | 'normal' | 'wide';
  align?: 'start' | 'center';
}

const WIDTHS = { narrow: 'max-w-md', normal: 'max-w-3xl', wide: 'max-w-6xl' } as const;

export function Page({
  title,
  description,
  children,
  className,
  width = 'normal',
  align = 'start',
}: PageProps) {
  useDocumentTitle(title);
  return (
    <div className={cn('mx-auto w-full px-4 py-10 sm:px-6 sm:py-14', WIDTHS[width], className)}>
      <div className={cn('mb-8', align === 'center' && 'text-center')}>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
        {description ? <p className="mt-3 text-base text-slate-600">{description}</p> : null}
      </div>
      {children}
    </div>
  );
}

/** Stands in for a screen that is not built yet, so every route of the spec already resolves. */
export function PlaceholderPage({ title, description }: { title: string; description: string }) {
  return (
    <Page title={title} description={description}>
      <div className="rounded-2xl border border-dashed border-slate-300 bg-slate-50 p-8 text-center text-sm text-slate-600">
        This page is coming soon.
      </div>
    </Page>
  );
}
