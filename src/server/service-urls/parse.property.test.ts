import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { APPLE_CATALOG_PLAYLIST_ID, APPLE_LIBRARY_PLAYLIST_ID, APPLE_NUMERIC_ID } from './apple';
import { parseShareUrl } from './parse';
import { SPOTIFY_ID } from './spotify';

const spotifyId = fc.stringMatching(/^[A-Za-z0-9]{22}$/);
const spotifyType = fc.constantFrom('playlist', 'track', 'album', 'artist', 'episode', 'show');
const scheme = fc.constantFrom('https://', 'http://', 'HTTPS://', '');
const query = fc.option(
  fc.webQueryParameters().map((q) => `?${q}`),
  { nil: '' },
);
const fragment = fc.option(
  fc.stringMatching(/^[a-z0-9-]{0,12}$/).map((f) => `#${f}`),
  { nil: '' },
);
const trailingSlashes = fc.stringMatching(/^\/{0,3}$/);
const intl = fc.option(
  fc.stringMatching(/^[a-z]{2}$/).map((lang) => `/intl-${lang}`),
  { nil: '' },
);
const mixedCaseHost = (host: string) => fc.mixedCase(fc.constant(host));
// Slugs are cosmetic: plain words, or any text percent-encoded as a browser would (never only dots, which
// the URL standard would read as "go up a folder").
const slug = fc.oneof(
  fc.stringMatching(/^[a-z0-9]+(?:-[a-z0-9]+){0,4}$/),
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 20 })
    .map(encodeURIComponent)
    .filter((s) => !/^\.+$/.test(s)),
);
const optionalSlug = fc.option(
  slug.map((s) => `/${s}`),
  { nil: '' },
);

describe('share-URL properties', () => {
  it('reads any valid Spotify id and type in every accepted web form', () => {
    fc.assert(
      fc.property(
        spotifyId,
        spotifyType,
        scheme,
        mixedCaseHost('open.spotify.com'),
        intl,
        fc.boolean(),
        trailingSlashes,
        query,
        fragment,
        (id, type, s, host, lang, embed, slashes, q, f) => {
          const url = `${s}${host}${lang}${embed ? '/embed' : ''}/${type}/${id}${slashes}${q}${f}`;
          expect(parseShareUrl(url)).toEqual({ ok: true, link: { service: 'spotify', type, id } });
        },
      ),
    );
  });

  it('reads any valid Spotify playlist in the legacy user forms and URIs', () => {
    const userId = fc.stringMatching(/^[a-z0-9._]{1,30}$/).filter((u) => !/^\.+$/.test(u));
    fc.assert(
      fc.property(spotifyId, spotifyType, userId, scheme, query, (id, type, user, s, q) => {
        const expectedPlaylist = { ok: true, link: { service: 'spotify', type: 'playlist', id } };
        expect(parseShareUrl(`${s}open.spotify.com/user/${user}/playlist/${id}${q}`)).toEqual(
          expectedPlaylist,
        );
        expect(parseShareUrl(`spotify:user:${user}:playlist:${id}`)).toEqual(expectedPlaylist);
        expect(parseShareUrl(`spotify:${type}:${id}`)).toEqual({
          ok: true,
          link: { service: 'spotify', type, id },
        });
      }),
    );
  });

  it('reads any valid Apple link with any storefront and slug', () => {
    const storefront = fc.stringMatching(/^[a-z]{2}$/);
    const host = fc
      .constantFrom('music.apple.com', 'embed.music.apple.com', 'itunes.apple.com')
      .chain(mixedCaseHost);
    const playlistId = fc.oneof(
      fc.stringMatching(/^pl\.u-[A-Za-z0-9]{4,30}$/),
      fc.stringMatching(/^pl\.[0-9a-f]{32}$/),
    );
    const numeric = fc.stringMatching(/^[1-9][0-9]{5,11}$/);
    fc.assert(
      fc.property(
        scheme,
        host,
        storefront,
        optionalSlug,
        playlistId,
        numeric,
        numeric,
        trailingSlashes,
        (s, h, sf, sl, pl, albumId, songId, slashes) => {
          const base = `${s}${h}/${sf}`;
          expect(parseShareUrl(`${base}/playlist${sl}/${pl}${slashes}`)).toEqual({
            ok: true,
            link: { service: 'apple', type: 'playlist', id: pl, storefront: sf },
          });
          expect(parseShareUrl(`${base}/song${sl}/${songId}`)).toEqual({
            ok: true,
            link: { service: 'apple', type: 'song', id: songId, storefront: sf },
          });
          expect(parseShareUrl(`${base}/album${sl}/${albumId}${slashes}?i=${songId}&ls=1`)).toEqual({
            ok: true,
            link: { service: 'apple', type: 'album', id: albumId, storefront: sf, songId },
          });
        },
      ),
    );
  });

  it('reads any Apple library playlist id', () => {
    fc.assert(
      fc.property(scheme, fc.stringMatching(/^p\.[A-Za-z0-9]{4,30}$/), query, (s, id, q) => {
        expect(parseShareUrl(`${s}music.apple.com/library/playlist/${id}${q}`)).toEqual({
          ok: true,
          link: { service: 'apple', type: 'library-playlist', id },
        });
      }),
    );
  });

  it('never throws on arbitrary text, and anything it accepts carries an id of the right grammar', () => {
    const prefixes = fc.constantFrom(
      '',
      'https://open.spotify.com/',
      'open.spotify.com/playlist/',
      'spotify:',
      'spotify:playlist:',
      'https://music.apple.com/us/',
      'https://music.apple.com/us/album/x/',
      'https://music.apple.com/library/playlist/',
    );
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.string({ unit: 'grapheme-ascii', maxLength: 300 }),
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
    );
    fc.assert(
      fc.property(prefixes, text, (prefix, rest) => {
        const result = parseShareUrl(prefix + rest);
        if (!result.ok) {
          expect(result.message.length).toBeGreaterThan(0);
          return;
        }
        const { link } = result;
        if (link.service === 'spotify') expect(link.id).toMatch(SPOTIFY_ID);
        else if (link.type === 'playlist') expect(link.id).toMatch(APPLE_CATALOG_PLAYLIST_ID);
        else if (link.type === 'library-playlist') expect(link.id).toMatch(APPLE_LIBRARY_PLAYLIST_ID);
        else expect(link.id).toMatch(APPLE_NUMERIC_ID);
        if (link.songId !== undefined) expect(link.songId).toMatch(APPLE_NUMERIC_ID);
        if (link.storefront !== undefined) expect(link.storefront).toMatch(/^[a-z]{2}$/);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses every host that is not one of the known ones, including look-alikes', () => {
    const known = ['open.spotify.com', 'music.apple.com', 'embed.music.apple.com', 'itunes.apple.com'];
    const knownHost = fc.constantFrom(...known);
    const label = fc.stringMatching(/^[a-z0-9]{1,10}$/);
    const lookAlike = fc.oneof(
      fc.tuple(knownHost, label).map(([h, l]) => `${h}.${l}.example`),
      fc.tuple(knownHost, label).map(([h, l]) => `${h}-${l}.com`),
      fc.tuple(label, knownHost).map(([l, h]) => `${l}${h}`),
      fc.tuple(label, knownHost).map(([l, h]) => `${l}.${h}`),
      fc.tuple(knownHost, fc.nat(), fc.constantFrom('0', '1', 'x', '-')).map(([h, at, c]) => {
        const i = at % h.length;
        return h.slice(0, i) + c + h.slice(i + 1);
      }),
      fc.domain(),
      fc.ipV4(),
      fc.ipV6().map((ip) => `[${ip}]`),
    );
    const path = fc.constantFrom(
      '/playlist/37i9dQZF1DXcBWIGoYBM5M',
      '/us/playlist/x/pl.u-76oNlbAUvJ5Xqr',
      '/open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M',
      '/music.apple.com/us/playlist/x/pl.u-76oNlbAUvJ5Xqr',
    );
    fc.assert(
      fc.property(lookAlike, path, scheme, knownHost, (host, p, s, realHost) => {
        fc.pre(!known.includes(host.toLowerCase()));
        expect(parseShareUrl(`${s || 'https://'}${host}${p}`).ok).toBe(false);
        expect(parseShareUrl(`https://${realHost}@${host}${p}`).ok).toBe(false);
        expect(parseShareUrl(`https://${realHost}:pw@${host}${p}`).ok).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });
});
