import { describe, expect, it } from 'vitest';
import { ALBUM_ID_PREFIX, albumCollectionId, LIKED_SONGS_ID, parseCollectionId } from './library-ids';

describe('library collection ids', () => {
  it('round-trips Liked Songs and album ids, and leaves playlist ids alone', () => {
    expect(parseCollectionId(LIKED_SONGS_ID)).toEqual({ kind: 'liked' });
    expect(parseCollectionId(albumCollectionId('1441164426'))).toEqual({
      kind: 'album',
      albumId: '1441164426',
    });
    expect(parseCollectionId(albumCollectionId('l.abc:def'))).toEqual({
      kind: 'album',
      albumId: 'l.abc:def',
    });
    for (const id of [
      '37i9dQZF1DXcBWIGoYBM5M',
      'p.ldvAAbEUv6e4Oz',
      'pl.u-abc',
      'import:1234',
      ALBUM_ID_PREFIX,
      'library:other',
    ])
      expect(parseCollectionId(id)).toBeNull();
  });
});
