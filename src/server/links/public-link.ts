import { type LinkTarget, type PublicLink, serviceSearchUrl } from '../../shared/api/links';
import type { ServiceId } from '../../shared/services';

/** "Open in" for each service: the exact item where one is known, else a search on that service. */
export function openLinks(name: string, target: LinkTarget | null): PublicLink['open'] {
  const terms = target ? [target.title, ...target.artists.slice(0, 1)].join(' ') : name;
  const openOn = (service: ServiceId) => {
    const ref = target?.[service];
    return ref ? { url: ref.url, exact: true } : { url: serviceSearchUrl(service, terms), exact: false };
  };
  return { spotify: openOn('spotify'), apple: openOn('apple') };
}
