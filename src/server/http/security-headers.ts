import { secureHeaders } from 'hono/secure-headers';
import type { Config } from '../config';

/**
 * CSP and friends for every response. Only our own origin may run scripts; with real Apple Music
 * credentials the page also loads MusicKit on the Web from Apple's CDN (Apple forbids re-hosting it) and
 * MusicKit talks to Apple's API directly. Artwork comes from the services' image CDNs over HTTPS.
 */
export function securityHeaders(config: Config) {
  const appleScripts = config.sandbox.apple ? [] : [new URL(config.MUSICKIT_SCRIPT_URL).origin];
  const appleConnect = config.sandbox.apple ? [] : ['https://api.music.apple.com', 'https://*.apple.com'];
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...appleScripts],
      // Radix positions popovers with inline style attributes.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
      connectSrc: ["'self'", ...appleConnect],
      fontSrc: ["'self'", 'data:'],
      frameSrc: config.sandbox.apple ? ["'none'"] : ['https://*.apple.com'],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      baseUri: ["'self'"],
      objectSrc: ["'none'"],
    },
    referrerPolicy: 'no-referrer',
    xContentTypeOptions: 'nosniff',
    xFrameOptions: 'DENY',
    strictTransportSecurity: config.publicUrl.startsWith('https://')
      ? 'max-age=31536000; includeSubDomains'
      : false,
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: 'same-origin',
    // MusicKit's sign-in is a popup that hands the token back to this page: with real Apple Music the
    // page must keep its tie to the popups it opens.
    crossOriginOpenerPolicy: config.sandbox.apple ? 'same-origin' : 'same-origin-allow-popups',
  });
}
