import { type LinkTarget, type PublicLink, serviceSearchUrl } from '../../shared/api/links';
import type { ServiceId } from '../../shared/services';

/** Where the emulators show an item in sandbox mode, in place of open.spotify.com and music.apple.com. */
export interface SandboxPages {
  spotify?: string;
  apple?: string;
}

/**
 * The stored link (the service's canonical address, which people copy and the app reads back) as the
 * emulator's own page for the same item, so "Open in …" stays in the sandbox.
 */
function inSandbox(url: string, pages: SandboxPages): string {
  if (pages.spotify && url.startsWith('https://open.spotify.com/')) {
    return `${pages.spotify}/${url.slice('https://open.spotify.com/'.length)}`;
  }
  if (pages.apple && url.startsWith('https://music.apple.com/')) {
    return `${pages.apple}/${url.slice('https://music.apple.com/'.length)}`;
  }
  return url;
}

/** "Open in" for each service: the exact item where one is known, else a search on that service. */
export function openLinks(
  name: string,
  target: LinkTarget | null,
  pages: SandboxPages = {},
): PublicLink['open'] {
  const terms = target ? [target.title, ...target.artists.slice(0, 1)].join(' ') : name;
  const openOn = (service: ServiceId) => {
    const ref = target?.[service];
    return ref
      ? { url: inSandbox(ref.url, pages), exact: true }
      : { url: serviceSearchUrl(service, terms), exact: false };
  };
  return { spotify: openOn('spotify'), apple: openOn('apple') };
}
