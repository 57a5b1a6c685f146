import { describe, expect, it } from 'vitest';
import { libraryTracksPageSchema, searchResponseSchema, songSchema } from './apple/schemas';
import { toPlaylistEntry } from './spotify/normalize';
import { playlistItemsPageSchema, searchSchema } from './spotify/schemas';

/** One odd item (a kind we do not know, a broken or missing cosmetic field) never fails a whole page. */
const appleSong = (id: string, attributes: Record<string, unknown> = {}) => ({
  id,
  type: 'songs',
  attributes: {
    name: `Song ${id}`,
    artistName: 'Artist',
    albumName: 'Album',
    durationInMillis: 1000,
    ...attributes,
  },
});

describe('Apple answers', () => {
  it('accept null artwork sizes and a song without albumName', () => {
    const parsed = songSchema.parse(
      appleSong('1', {
        albumName: undefined,
        artwork: { url: 'https://x/{w}x{h}bb.jpg', width: null, height: null },
      }),
    );
    expect(parsed.attributes.albumName).toBe('');
    expect(parsed.attributes.artwork?.width).toBeNull();
    // Broken artwork loses the picture, not the song.
    expect(
      songSchema.parse(appleSong('2', { artwork: { url: 'no placeholder' } })).attributes.artwork,
    ).toBeUndefined();
  });

  it('keep a playlist page whose items include an unknown kind and a broken song', () => {
    const page = libraryTracksPageSchema.parse({
      data: [
        { id: 'i.1', type: 'library-songs', attributes: { name: 'Fine', artistName: 'A' } },
        { id: 'i.2', type: 'library-songs', attributes: { name: 42 } },
        { id: 'x.3', type: 'uploaded-audios', attributes: { name: 'Voice memo' } },
      ],
    });
    expect(page.data).toHaveLength(3);
  });

  it('leave a broken song out of search results instead of failing the search', () => {
    const answer = searchResponseSchema.parse({
      results: { songs: { data: [appleSong('1'), { id: '2', type: 'songs', attributes: { name: 'x' } }] } },
    });
    expect(answer.results.songs?.data.map((song) => song.id)).toEqual(['1']);
  });
});

describe('Spotify answers', () => {
  const track = (id: string) => ({
    id,
    name: `Track ${id}`,
    type: 'track',
    uri: `spotify:track:${id}`,
    duration_ms: 1000,
    artists: [{ name: 'Artist' }],
    album: { name: 'Album' },
  });

  it('report a playlist item of an unknown type as skipped with its reason, and read the rest', () => {
    const page = playlistItemsPageSchema.parse({
      items: [{ item: track('a') }, { item: { type: 'audiobook', name: 'A Book' } }],
      limit: 50,
      offset: 0,
      total: 2,
      next: null,
    });
    const entries = page.items.map((item, index) => toPlaylistEntry(item, index));
    expect(entries[0]?.kind).toBe('track');
    expect(entries[1]).toEqual({ position: 1, kind: 'skipped', reason: 'unreadable', name: 'A Book' });
  });

  it('leave a broken track out of search results', () => {
    const answer = searchSchema.parse({
      tracks: { items: [track('a'), { id: 'b', type: 'track' }], limit: 10, offset: 0, total: 2, next: null },
    });
    expect(answer.tracks.items.map((item) => item.id)).toEqual(['a']);
  });
});
