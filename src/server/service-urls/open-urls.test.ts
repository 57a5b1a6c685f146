import { describe, expect, it } from 'vitest';
import { canonicalUrl, inStorefront, openUrl, searchUrl, storefrontOf } from './open-urls';

const pages = {
  spotify: 'http://127.0.0.1:3000/sandbox/spotify/api/open',
  apple: 'http://127.0.0.1:3000/sandbox/apple/web/',
};

describe('open-urls', () => {
  it('turns canonical addresses into the emulator pages in sandbox mode, and leaves them in real mode', () => {
    expect(openUrl('https://music.apple.com/de/album/road/123', pages)).toBe(
      'http://127.0.0.1:3000/sandbox/apple/web/de/album/road/123',
    );
    expect(openUrl('https://open.spotify.com/playlist/abc', pages)).toBe(
      'http://127.0.0.1:3000/sandbox/spotify/api/open/playlist/abc',
    );
    expect(openUrl('https://music.apple.com/de/album/road/123', {})).toBe(
      'https://music.apple.com/de/album/road/123',
    );
    expect(openUrl('https://example.com/x', pages)).toBe('https://example.com/x');
  });

  it("searches in the person's storefront, never a fixed one", () => {
    expect(searchUrl('apple', 'Road Trip', { storefront: 'JP', pages: {} })).toBe(
      'https://music.apple.com/jp/search?term=Road%20Trip',
    );
    expect(searchUrl('apple', 'x', { storefront: 'de', pages })).toBe(
      'http://127.0.0.1:3000/sandbox/apple/web/de/search?term=x',
    );
    expect(searchUrl('spotify', 'a b', { pages: {} })).toBe('https://open.spotify.com/search/a%20b');
    expect(searchUrl('apple', 'x', { pages: {} })).toBe('https://music.apple.com/us/search?term=x');
  });

  it('moves an Apple catalog address to another storefront', () => {
    expect(inStorefront('https://music.apple.com/us/song/1', 'de')).toBe('https://music.apple.com/de/song/1');
    expect(inStorefront('https://music.apple.com/library/playlist/p.1', 'de')).toBe(
      'https://music.apple.com/library/playlist/p.1',
    );
    expect(inStorefront('https://open.spotify.com/track/1', 'de')).toBe('https://open.spotify.com/track/1');
    expect(canonicalUrl('apple', 'track', '42', 'GB')).toBe('https://music.apple.com/gb/song/42');
    expect(storefrontOf('nonsense')).toBe('us');
  });
});
