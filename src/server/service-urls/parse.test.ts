import { describe, expect, it } from 'vitest';
import { SHARE_URL_MESSAGES as M, parsePlaylistLink, parseShareUrl, parseTrackOrPlaylistLink } from './parse';
import type { ParsedShareUrl } from './types';

const PL = '37i9dQZF1DXcBWIGoYBM5M';
const TR = '4uLU6hMCjMI75M1A2tKUQC';
const AL = '1DFixLWuPkv3KT3TnV35m3';
const APPLE_PL = 'pl.f4d106fed2bd41149aaacabb233eb5eb';
const APPLE_USER_PL = 'pl.u-76oNlbAUvJ5Xqr';

const valid: Array<[string, ParsedShareUrl]> = [
  [`https://open.spotify.com/playlist/${PL}`, { service: 'spotify', type: 'playlist', id: PL }],
  [
    `https://open.spotify.com/playlist/${PL}?si=a1b2c3d4e5f64a7b`,
    { service: 'spotify', type: 'playlist', id: PL },
  ],
  [
    `https://open.spotify.com/playlist/${PL}?si=x&pt=abc&pi=u-xyz#top`,
    { service: 'spotify', type: 'playlist', id: PL },
  ],
  [`https://open.spotify.com/track/${TR}`, { service: 'spotify', type: 'track', id: TR }],
  [`https://open.spotify.com/album/${AL}/`, { service: 'spotify', type: 'album', id: AL }],
  [`https://open.spotify.com/artist/${AL}`, { service: 'spotify', type: 'artist', id: AL }],
  [`https://open.spotify.com/episode/${TR}`, { service: 'spotify', type: 'episode', id: TR }],
  [`https://open.spotify.com/show/${TR}`, { service: 'spotify', type: 'show', id: TR }],
  [`https://open.spotify.com/intl-de/track/${TR}?si=1`, { service: 'spotify', type: 'track', id: TR }],
  [`https://open.spotify.com/intl-pt/playlist/${PL}`, { service: 'spotify', type: 'playlist', id: PL }],
  [`https://open.spotify.com/user/spotify/playlist/${PL}`, { service: 'spotify', type: 'playlist', id: PL }],
  [
    `https://open.spotify.com/user/j%C3%B6rg.m/playlist/${PL}?si=z`,
    { service: 'spotify', type: 'playlist', id: PL },
  ],
  [`https://open.spotify.com/embed/playlist/${PL}`, { service: 'spotify', type: 'playlist', id: PL }],
  [
    `https://open.spotify.com/embed/track/${TR}?utm_source=generator`,
    { service: 'spotify', type: 'track', id: TR },
  ],
  [`http://open.spotify.com/playlist/${PL}`, { service: 'spotify', type: 'playlist', id: PL }],
  [`HTTPS://OPEN.SPOTIFY.COM/playlist/${PL}`, { service: 'spotify', type: 'playlist', id: PL }],
  [`open.spotify.com/playlist/${PL}`, { service: 'spotify', type: 'playlist', id: PL }],
  [`  https://open.spotify.com/playlist/${PL}\n`, { service: 'spotify', type: 'playlist', id: PL }],
  [`spotify:playlist:${PL}`, { service: 'spotify', type: 'playlist', id: PL }],
  [`spotify:track:${TR}`, { service: 'spotify', type: 'track', id: TR }],
  [`spotify:album:${AL}`, { service: 'spotify', type: 'album', id: AL }],
  [`spotify:user:someone:playlist:${PL}`, { service: 'spotify', type: 'playlist', id: PL }],
  [
    `https://music.apple.com/us/playlist/todays-hits/${APPLE_PL}`,
    { service: 'apple', type: 'playlist', id: APPLE_PL, storefront: 'us' },
  ],
  [
    `https://music.apple.com/gb/playlist/road-trip/${APPLE_USER_PL}?l=en-GB`,
    { service: 'apple', type: 'playlist', id: APPLE_USER_PL, storefront: 'gb' },
  ],
  [
    `https://music.apple.com/jp/playlist/%E3%83%89%E3%83%A9%E3%82%A4%E3%83%96/${APPLE_USER_PL}`,
    { service: 'apple', type: 'playlist', id: APPLE_USER_PL, storefront: 'jp' },
  ],
  [
    `https://music.apple.com/de/playlist/${APPLE_PL}`,
    { service: 'apple', type: 'playlist', id: APPLE_PL, storefront: 'de' },
  ],
  [
    'https://music.apple.com/us/song/bohemian-rhapsody/1440806041',
    { service: 'apple', type: 'song', id: '1440806041', storefront: 'us' },
  ],
  [
    'https://music.apple.com/us/album/a-night-at-the-opera/1440806023?i=1440806041',
    { service: 'apple', type: 'album', id: '1440806023', storefront: 'us', songId: '1440806041' },
  ],
  [
    'https://music.apple.com/fr/album/a-night-at-the-opera/1440806023',
    { service: 'apple', type: 'album', id: '1440806023', storefront: 'fr' },
  ],
  [
    'https://music.apple.com/us/artist/queen/3296287',
    { service: 'apple', type: 'artist', id: '3296287', storefront: 'us' },
  ],
  [
    'https://music.apple.com/library/playlist/p.ZOAXxLlsLe7GMk',
    { service: 'apple', type: 'library-playlist', id: 'p.ZOAXxLlsLe7GMk' },
  ],
  [
    `https://itunes.apple.com/us/playlist/summer/${APPLE_USER_PL}`,
    { service: 'apple', type: 'playlist', id: APPLE_USER_PL, storefront: 'us' },
  ],
  [
    'https://itunes.apple.com/us/album/a-night-at-the-opera/id1440806023?i=1440806041',
    { service: 'apple', type: 'album', id: '1440806023', storefront: 'us', songId: '1440806041' },
  ],
  [
    `https://embed.music.apple.com/ca/playlist/chill/${APPLE_PL}`,
    { service: 'apple', type: 'playlist', id: APPLE_PL, storefront: 'ca' },
  ],
  [
    `music.apple.com/US/playlist/x/${APPLE_PL}`,
    { service: 'apple', type: 'playlist', id: APPLE_PL, storefront: 'us' },
  ],
];

const invalid: Array<[string, string]> = [
  ['', M.empty],
  ['   \n', M.empty],
  ['hello there', M.notOurs],
  ['https://spotify.link/AbCdEf123', M.spotifyShortLink],
  ['spotify.link/AbCdEf123', M.spotifyShortLink],
  ['https://spoti.fi/3xYz', M.spotifyShortLink],
  ['https://apple.co/3abcDEF', M.appleShortLink],
  [`https://open.spotify.com.evil.example/playlist/${PL}`, M.notOurs],
  [`https://evil.example/open.spotify.com/playlist/${PL}`, M.notOurs],
  [`evil.example/open.spotify.com/playlist/${PL}`, M.notOurs],
  [`https://open.spotify.com@evil.example/playlist/${PL}`, M.notOurs],
  [`https://user:pw@open.spotify.com/playlist/${PL}`, M.notOurs],
  [`https://evil.example\\@open.spotify.com/playlist/${PL}`, M.notOurs],
  [`https://open.spotify.com:8443/playlist/${PL}`, M.notOurs],
  [`https://xopen.spotify.com/playlist/${PL}`, M.notOurs],
  [`https://spotify.com/playlist/${PL}`, M.notOurs],
  [`https://open.spotify.co/playlist/${PL}`, M.notOurs],
  [`https://оpen.spotify.com/playlist/${PL}`, M.notOurs],
  [`https://127.0.0.1/playlist/${PL}`, M.notOurs],
  [`https://[::1]/playlist/${PL}`, M.notOurs],
  [`https://2130706433/playlist/${PL}`, M.notOurs],
  [`javascript:alert(1)//open.spotify.com/playlist/${PL}`, M.notOurs],
  [`file:///open.spotify.com/playlist/${PL}`, M.notOurs],
  [`data:text/html,open.spotify.com/playlist/${PL}`, M.notOurs],
  [`ftp://open.spotify.com/playlist/${PL}`, M.notOurs],
  [`//open.spotify.com/playlist/${PL}`, M.notOurs],
  [`https://open.spotify.com/play\tlist/${PL}`, M.notOurs],
  [`https://open.spotify.com/playlist/${PL}\u200b`, M.notOurs],
  [`https://open.spotify.com/playlist/${PL} extra words`, M.notOurs],
  [`https://open.spotify.com/playlist/${PL.slice(0, 21)}`, M.spotifyBadId],
  [`https://open.spotify.com/playlist/${PL}A`, M.spotifyBadId],
  ['https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5_', M.spotifyBadId],
  [`https://open.spotify.com/playlist/${PL}/tracks`, M.spotifyUnknownPage],
  [`https://open.spotify.com/genre/${PL}`, M.spotifyUnknownPage],
  ['https://open.spotify.com/', M.spotifyUnknownPage],
  ['https://open.spotify.com/user/someone', M.spotifyProfile],
  ['spotify:user:someone', M.spotifyProfile],
  ['spotify:local:Artist:Album:Title:215', M.spotifyLocalFile],
  ['spotify:playlist:short', M.spotifyBadId],
  [`spotify:concert:${PL}`, M.spotifyUnknownPage],
  [`spotify:playlist:${PL}:extra`, M.spotifyUnknownPage],
  ['https://music.apple.com/us/playlist/mix/pl.not-an-id!', M.appleBadId],
  ['https://music.apple.com/us/song/x/12ab', M.appleBadId],
  ['https://music.apple.com/us/album/x/1440806023?i=abc', M.appleBadId],
  ['https://music.apple.com/library/playlist/pl.u-abcdef', M.appleBadId],
  [`https://music.apple.com/playlist/x/${APPLE_PL}`, M.appleNoStorefront],
  ['https://music.apple.com/us/station/radio/ra.978194965', M.appleUnknownPage],
  ['https://music.apple.com/us/browse', M.appleUnknownPage],
  [`https://music.apple.com.evil.example/us/playlist/x/${APPLE_PL}`, M.notOurs],
  [`https://apple.com/us/playlist/x/${APPLE_PL}`, M.notOurs],
  [`https://open.spotify.com/playlist/${PL}?si=${'a'.repeat(2100)}`, M.tooLong],
];

describe('parseShareUrl', () => {
  it.each(valid)('reads %s', (input, expected) => {
    expect(parseShareUrl(input)).toEqual({ ok: true, link: expected });
  });

  it.each(invalid)('refuses %j', (input, message) => {
    expect(parseShareUrl(input)).toEqual({ ok: false, message });
  });

  it('never puts a URL into its answer, only ids', () => {
    for (const [input] of valid) {
      expect(JSON.stringify(parseShareUrl(input))).not.toMatch(/https?:|\/\//);
    }
  });
});

describe('parsePlaylistLink', () => {
  it('returns the ref the provider reads a shared playlist with', () => {
    expect(parsePlaylistLink(`https://open.spotify.com/intl-fr/playlist/${PL}?si=q`)).toMatchObject({
      ok: true,
      ref: { service: 'spotify', id: PL },
    });
    expect(parsePlaylistLink(`https://music.apple.com/au/playlist/x/${APPLE_USER_PL}`)).toMatchObject({
      ok: true,
      ref: { service: 'apple', id: APPLE_USER_PL, storefront: 'au' },
    });
  });

  it('accepts an Apple library playlist without a storefront', () => {
    const result = parsePlaylistLink('https://music.apple.com/library/playlist/p.ZOAXxLlsLe7GMk');
    expect(result).toMatchObject({ ok: true, ref: { service: 'apple', id: 'p.ZOAXxLlsLe7GMk' } });
    expect(result.ok && 'storefront' in result.ref).toBe(false);
  });

  it.each([
    [`https://open.spotify.com/album/${AL}`, 'Crossfade needs a playlist link here, not an album link.'],
    [`spotify:track:${TR}`, 'Crossfade needs a playlist link here, not a track link.'],
    [`https://open.spotify.com/artist/${AL}`, 'Crossfade needs a playlist link here, not an artist link.'],
    [`https://open.spotify.com/episode/${TR}`, 'Crossfade needs a playlist link here, not an episode link.'],
    [
      'https://music.apple.com/us/song/x/1440806041',
      'Crossfade needs a playlist link here, not a song link.',
    ],
    [
      'https://music.apple.com/us/album/x/1440806023?i=1440806041',
      'Crossfade needs a playlist link here, not a song link.',
    ],
    ['https://example.com/', M.notOurs],
  ])('refuses %s with a message naming what it got', (input, message) => {
    expect(parsePlaylistLink(input)).toEqual({ ok: false, message });
  });
});

describe('parseTrackOrPlaylistLink', () => {
  it('takes playlists and single tracks from either service', () => {
    expect(parseTrackOrPlaylistLink(`spotify:playlist:${PL}`)).toMatchObject({
      ok: true,
      target: { kind: 'playlist', ref: { service: 'spotify', id: PL } },
    });
    expect(parseTrackOrPlaylistLink(`https://open.spotify.com/track/${TR}?si=1`)).toMatchObject({
      ok: true,
      target: { kind: 'track', track: { service: 'spotify', id: TR } },
    });
    expect(parseTrackOrPlaylistLink('https://music.apple.com/us/song/x/1440806041')).toMatchObject({
      ok: true,
      target: { kind: 'track', track: { service: 'apple', id: '1440806041', storefront: 'us' } },
    });
    expect(
      parseTrackOrPlaylistLink('https://music.apple.com/us/album/x/1440806023?i=1440806041'),
    ).toMatchObject({
      ok: true,
      target: { kind: 'track', track: { service: 'apple', id: '1440806041', storefront: 'us' } },
    });
  });

  it('refuses albums, artists and shows', () => {
    expect(parseTrackOrPlaylistLink(`https://open.spotify.com/album/${AL}`)).toEqual({
      ok: false,
      message: 'Crossfade needs a track or playlist link here, not an album link.',
    });
    expect(parseTrackOrPlaylistLink(`spotify:show:${TR}`)).toEqual({
      ok: false,
      message: 'Crossfade needs a track or playlist link here, not a show link.',
    });
  });
});
