import { describe, expect, it } from 'vitest';
import { countByEndpoint, endpointOf } from './counting-proxy';

describe('endpointOf', () => {
  it('counts calls to one endpoint together, whatever ids they name', () => {
    const calls = [
      // A Spotify id with no digit (about one in fifty): it once counted as an endpoint of its own.
      'GET /sandbox/spotify/api/v1/playlists/NelQiyPcgbOsQlFSdyPtPm/items?offset=100&limit=50',
      'GET /sandbox/spotify/api/v1/playlists/3cEYpjA9oz9GiPac4AsH4n/items?limit=50&offset=150',
      'GET /sandbox/apple/v1/me/library/playlists/p.AbCdEfGhIj/tracks?offset=100',
      'POST /sandbox/apple/v1/me/library/playlists',
    ];
    expect(endpointOf(calls[0] ?? '')).toBe('GET /sandbox/spotify/api/:id/playlists/:id/items?limit&offset');
    expect(countByEndpoint(calls)).toEqual({
      'GET /sandbox/apple/:id/me/library/playlists/:id/tracks?offset': 1,
      'GET /sandbox/spotify/api/:id/playlists/:id/items?limit&offset': 2,
      'POST /sandbox/apple/:id/me/library/playlists': 1,
    });
  });
});
