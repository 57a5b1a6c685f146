import { useEffect } from 'react';

/** Gives every page its own tab title, which screen readers announce on navigation. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title === 'Crossfade' ? title : `${title} · Crossfade`;
  }, [title]);
}
