import { hash128 } from '../catalog/random';
import type { Catalog, CatalogRelease, CatalogTrack } from '../catalog/types';
import { parseSearchQuery, TrackSearchIndex, tokenize } from './search-index';
import type { DemoUser } from './state';
import { SpotifyStore } from './store';
import { albumId } from './wire-objects';

/** A release as a Spotify album: the tracks Spotify carries, in disc and track order. */
export interface SpotifyAlbum {
  id: string;
  release: CatalogRelease;
  tracks: CatalogTrack[];
  /** Search tokens of the name and of the artists. */
  nameTokens: string[];
  artistTokens: string[];
}

/** Everything both emulator apps share: the catalog's Spotify view, its search index and the durable state. */
export class SpotifyWorld {
  readonly store: SpotifyStore;
  /** Tracks Spotify carries somewhere (a non-empty market list), in catalog order. */
  private readonly tracks: CatalogTrack[];
  private readonly byId = new Map<string, CatalogTrack>();
  private readonly index: TrackSearchIndex;
  private readonly playable: (key: string) => CatalogTrack | undefined;
  private readonly albums = new Map<string, SpotifyAlbum>();

  constructor(
    private readonly catalog: Catalog,
    readonly mode: 'development' | 'extended',
    readonly now: () => number,
    /** The folder of the emulator's state documents (undefined: in memory). */
    stateDir: string | undefined,
  ) {
    this.tracks = catalog.tracks.filter((track) => (track.spotify?.markets.length ?? 0) > 0);
    for (const track of this.tracks) if (track.spotify) this.byId.set(track.spotify.id, track);
    const byKey = new Map(this.tracks.map((track) => [track.key, track]));
    this.index = new TrackSearchIndex(
      this.tracks.map((track) => {
        const release = catalog.releases.get(track.releaseKey);
        const year = Number((release?.releaseDate ?? '').slice(0, 4));
        return {
          title: track.title,
          artists: track.artists,
          album: release?.name ?? '',
          isrc: track.isrc,
          year: Number.isFinite(year) && year > 0 ? year : undefined,
        };
      }),
    );
    this.playable = (key) => byKey.get(key);
    for (const track of this.tracks) {
      const release = catalog.releases.get(track.releaseKey);
      if (!release) continue;
      const id = albumId(release.key);
      let album = this.albums.get(id);
      if (!album) {
        album = {
          id,
          release,
          tracks: [],
          nameTokens: tokenize(release.name),
          artistTokens: tokenize(release.artists.join(' ')),
        };
        this.albums.set(id, album);
      }
      album.tracks.push(track);
    }
    for (const album of this.albums.values()) {
      album.tracks.sort((a, b) => a.discNumber - b.discNumber || a.trackNumber - b.trackNumber);
    }
    this.store = new SpotifyStore(
      catalog,
      this.playable,
      (releaseKey) => (this.albums.has(albumId(releaseKey)) ? albumId(releaseKey) : undefined),
      now,
      stateDir,
    );
  }

  /** A demo user, a per-person sandbox account or the owner of a followed playlist. */
  user(id: string): DemoUser {
    return this.store.user(id);
  }

  album(id: string): SpotifyAlbum | undefined {
    return this.albums.get(id);
  }

  /**
   * Album search: `upc:` finds the album with that UPC; otherwise every `album:`, `artist:` and free-text
   * word must appear (free words in the name or the artists). With a market, albums playable there.
   */
  searchAlbums(q: string, market: string | undefined): SpotifyAlbum[] {
    const parsed = parseSearchQuery(q);
    if (parsed.unmatchable) return [];
    const available = (album: SpotifyAlbum) =>
      market === undefined || album.tracks.some((track) => track.spotify?.markets.includes(market));
    if (parsed.upc !== undefined) {
      return [...this.albums.values()].filter(
        (album) => album.release.upc === parsed.upc && available(album),
      );
    }
    if (parsed.album.length + parsed.artist.length + parsed.free.length === 0) return [];
    const found = [...this.albums.values()].filter(
      (album) =>
        parsed.album.every((token) => album.nameTokens.includes(token)) &&
        parsed.artist.every((token) => album.artistTokens.includes(token)) &&
        parsed.free.every(
          (token) => album.nameTokens.includes(token) || album.artistTokens.includes(token),
        ) &&
        available(album),
    );
    // Closest names first: fewest extra words.
    return found.sort((a, b) => a.nameTokens.length - b.nameTokens.length);
  }

  track(id: string): CatalogTrack | undefined {
    return this.byId.get(id);
  }

  release(track: CatalogTrack): CatalogRelease | undefined {
    return this.catalog.releases.get(track.releaseKey);
  }

  /**
   * Ranked matches; with a market, the tracks playable there, plus (as Spotify does now and then) a few it
   * cannot play there, which answer with `is_playable: false` and `restrictions`.
   */
  search(q: string, market: string | undefined): CatalogTrack[] {
    const parsed = parseSearchQuery(q);
    if (parsed.unmatchable) return [];
    const ranked = this.index.search(parsed, (i) => {
      if (market === undefined) return true;
      const spotify = this.tracks[i]?.spotify;
      if (!spotify) return false;
      return spotify.markets.includes(market) || hash128(`listed:${spotify.id}:${market}`)[0] % 5 === 0;
    });
    return ranked.flatMap((i) => this.tracks[i] ?? []);
  }
}
