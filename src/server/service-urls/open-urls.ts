import type { ServiceId } from '../../shared/services';

/**
 * Every "Open in …" address the app hands out (issue 23), in one place: a transfer's `destinationUrl`, a
 * saved album's or a playlist's page, the public link page's exact items and searches. The services'
 * canonical addresses (what people copy, and what the app reads back) are `open.spotify.com` and
 * `music.apple.com`; in sandbox mode every one of them is turned into the emulator's own page for the same
 * object, so no link leaves the sandbox. In real mode an Apple address names the person's storefront (the
 * link owner's on public pages, the visitor's when known).
 */
export const SPOTIFY_WEB = 'https://open.spotify.com';
export const APPLE_WEB = 'https://music.apple.com';
export const DEFAULT_STOREFRONT = 'us';

/** Where the emulators show an object in sandbox mode, in place of open.spotify.com and music.apple.com. */
export interface EmulatorPages {
  /** `<origin>/sandbox/spotify/api/open`: `/track/{id}`, `/album/{id}`, `/playlist/{id}`, `/search/{terms}`. */
  spotify?: string;
  /** `<origin>/sandbox/apple/web`: `/{sf}/song/{id}`, `/{sf}/album/{slug}/{id}`, `/library/playlist/{id}`, … */
  apple?: string;
}

const STOREFRONT = /^[a-z]{2}$/;

/** A storefront as Apple's addresses spell it, or the default for anything else. */
export function storefrontOf(region: string | null | undefined): string {
  const lower = region?.toLowerCase();
  return lower && STOREFRONT.test(lower) ? lower : DEFAULT_STOREFRONT;
}

/**
 * The address to open: a canonical service address as the emulator's page in sandbox mode (addresses that
 * already point at an emulator, or elsewhere, stay as they are).
 */
export function openUrl(url: string, pages: EmulatorPages): string {
  if (pages.spotify && url.startsWith(`${SPOTIFY_WEB}/`)) {
    return `${pages.spotify.replace(/\/+$/, '')}/${url.slice(SPOTIFY_WEB.length + 1)}`;
  }
  if (pages.apple && url.startsWith(`${APPLE_WEB}/`)) {
    return `${pages.apple.replace(/\/+$/, '')}/${url.slice(APPLE_WEB.length + 1)}`;
  }
  return url;
}

/** An Apple catalog address in another storefront (`/us/song/1` → `/de/song/1`); others unchanged. */
export function inStorefront(url: string, storefront: string): string {
  if (!url.startsWith(`${APPLE_WEB}/`)) return url;
  const rest = url.slice(APPLE_WEB.length + 1);
  const [first, ...others] = rest.split('/');
  if (first === undefined || !STOREFRONT.test(first)) return url;
  return `${APPLE_WEB}/${[storefrontOf(storefront), ...others].join('/')}`;
}

/** The canonical address of a track or playlist (Apple in `storefront`). */
export function canonicalUrl(
  service: ServiceId,
  kind: 'track' | 'playlist',
  id: string,
  storefront = DEFAULT_STOREFRONT,
): string {
  if (service === 'spotify') return `${SPOTIFY_WEB}/${kind}/${encodeURIComponent(id)}`;
  return `${APPLE_WEB}/${storefrontOf(storefront)}/${kind === 'track' ? 'song' : 'playlist'}/${encodeURIComponent(id)}`;
}

/**
 * The person's Liked Songs (Spotify) or Favourite Songs (Apple Music: the library's songs page, where
 * favourites are starred), as the emulator's page in sandbox mode. Both are private: only the signed-in
 * person sees them, so there is no storefront in the address.
 */
export function likedSongsUrl(service: ServiceId, pages: EmulatorPages): string {
  const canonical = service === 'spotify' ? `${SPOTIFY_WEB}/collection/tracks` : `${APPLE_WEB}/library/songs`;
  return openUrl(canonical, pages);
}

/** A search on the service's own site (the emulator's search page in sandbox mode), in `storefront`. */
export function searchUrl(
  service: ServiceId,
  terms: string,
  options: { storefront?: string; pages: EmulatorPages },
): string {
  const canonical =
    service === 'spotify'
      ? `${SPOTIFY_WEB}/search/${encodeURIComponent(terms)}`
      : `${APPLE_WEB}/${storefrontOf(options.storefront)}/search?term=${encodeURIComponent(terms)}`;
  return openUrl(canonical, options.pages);
}
