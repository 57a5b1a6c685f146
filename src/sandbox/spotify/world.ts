import type { Catalog, CatalogRelease, CatalogTrack } from '../catalog/types';
import { StateFile } from '../state-file';
import { parseSearchQuery, TrackSearchIndex } from './search-index';
import { initialState, type SpotifyState } from './state';

/** Everything both emulator apps share: the catalog's Spotify view, its search index and the durable state. */
export class SpotifyWorld {
  readonly state: StateFile<SpotifyState>;
  /** Tracks Spotify carries somewhere (a non-empty market list), in catalog order. */
  private readonly tracks: CatalogTrack[];
  private readonly byId = new Map<string, CatalogTrack>();
  private readonly index: TrackSearchIndex;

  constructor(
    private readonly catalog: Catalog,
    readonly mode: 'development' | 'extended',
    readonly now: () => number,
    stateFile: string | undefined,
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
    this.state = new StateFile(stateFile, () => initialState(catalog, (key) => byKey.get(key)));
  }

  track(id: string): CatalogTrack | undefined {
    return this.byId.get(id);
  }

  release(track: CatalogTrack): CatalogRelease | undefined {
    return this.catalog.releases.get(track.releaseKey);
  }

  /** Ranked matches; with a market, only tracks playable there (Spotify hides the rest from search). */
  search(q: string, market: string | undefined): CatalogTrack[] {
    const ranked = this.index.search(parseSearchQuery(q), (i) => {
      if (market === undefined) return true;
      return this.tracks[i]?.spotify?.markets.includes(market) ?? false;
    });
    return ranked.flatMap((i) => this.tracks[i] ?? []);
  }
}
