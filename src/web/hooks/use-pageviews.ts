import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { track } from '../lib/track';

/** Records `$pageview` with the route as `page_name` each time the route changes. */
export function usePageviews(): void {
  const [location] = useLocation();
  useEffect(() => {
    track('$pageview', { page_name: location });
  }, [location]);
}
