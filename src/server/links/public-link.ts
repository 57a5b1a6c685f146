import type { LinkTarget, PublicLink } from '../../shared/api/links';
import type { ServiceId } from '../../shared/services';
import type { AppDeps } from '../app-context';
import { type EmulatorPages, inStorefront, openUrl, searchUrl } from '../service-urls/open-urls';

/** Where the emulators show an item in sandbox mode (see `service-urls/open-urls.ts`). */
export type SandboxPages = EmulatorPages;

/**
 * "Open in" for each service: the exact item where one is known, else a search on that service. Apple
 * addresses name `storefront` (the visitor's when known, else the link owner's); in sandbox mode every
 * address is the emulator's own page.
 */
export function openLinks(
  name: string,
  target: LinkTarget | null,
  pages: SandboxPages = {},
  storefront?: string,
): PublicLink['open'] {
  const terms = target ? [target.title, ...target.artists.slice(0, 1)].join(' ') : name;
  const openOn = (service: ServiceId) => {
    const ref = target?.[service];
    return ref
      ? { url: openUrl(storefront ? inStorefront(ref.url, storefront) : ref.url, pages), exact: true }
      : { url: searchUrl(service, terms, { pages, ...(storefront ? { storefront } : {}) }), exact: false };
  };
  return { spotify: openOn('spotify'), apple: openOn('apple') };
}

/**
 * The storefront the public page's Apple addresses use: the visitor's when they are signed in with a
 * connected service, else the link owner's, else none (the default).
 */
export async function linkStorefront(
  deps: Pick<AppDeps, 'providers'>,
  ownerId: string,
  visitorId: string | undefined,
): Promise<string | undefined> {
  for (const userId of visitorId ? [visitorId, ownerId] : [ownerId]) {
    for (const service of ['apple', 'spotify'] as const) {
      const region = (await deps.providers.connections.get(userId, service))?.region;
      if (region) return region.toLowerCase();
    }
  }
  return undefined;
}
