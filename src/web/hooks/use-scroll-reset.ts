import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { MAIN_CONTENT_ID } from '../components/layout/app-layout';

/**
 * A client-side navigation keeps the old scroll position and focus; this starts each new page at the
 * top and moves focus to the main landmark so keyboard and screen-reader users land on the new content.
 */
export function useScrollReset(): void {
  const [location] = useLocation();
  const previous = useRef(location);
  useEffect(() => {
    if (previous.current === location) return;
    previous.current = location;
    window.scrollTo(0, 0);
    document.getElementById(MAIN_CONTENT_ID)?.focus({ preventScroll: true });
  }, [location]);
}
