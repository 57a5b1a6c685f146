import type { Catalog, CatalogTrack, DemoPlaylist } from '../catalog/types';
import type { StateFile } from '../state-file';
import {
  appleAlbumName,
  appleArtistName,
  appleSongName,
  genreNames,
  hash32,
  stableLibraryId,
} from './apple-style';
import type { AppleCatalogIndex, AppleSongRecord } from './catalog-index';

/** What the emulator writes to its state file: everything a person or the app changed. */
export interface AppleEmulatorState {
  /** Music User Tokens issued by the authorize page, with the developer team they were issued to. */
  userTokens: Record<string, { teamId: string; issuedAt: string }>;
  createdPlaylists: StoredPlaylist[];
  /** Songs appended to any library playlist (demo or created), in order. */
  additions: Record<string, { songs: StoredSong[]; lastModifiedDate: string }>;
}

export interface StoredPlaylist {
  id: string;
  name: string;
  description: string;
  globalId?: string;
  dateAdded: string;
  /** Epoch ms from which reads show the playlist (`SANDBOX_FAULTS=apple-write-lag-ms`); absent = at once. */
  visibleAt?: number;
}

/**
 * A catalog song added by id, or an existing library song (uploads have no catalog id); `visibleAt` as on
 * StoredPlaylist: Apple's writes show up in reads after a delay.
 */
export type StoredSong = ({ catalogId: string } | { libraryId: string }) & { visibleAt?: number };

export const initialAppleState = (): AppleEmulatorState => ({
  userTokens: {},
  createdPlaylists: [],
  additions: {},
});

export type LibrarySource = { kind: 'catalog'; record: AppleSongRecord } | { kind: 'upload' };

export interface LibrarySong {
  id: string;
  name: string;
  artistName: string;
  albumName?: string;
  durationMs: number;
  explicit: boolean;
  genreNames: string[];
  trackNumber: number;
  discNumber: number;
  releaseDate?: string;
  source: LibrarySource;
}

export interface LibraryPlaylist {
  id: string;
  name: string;
  description: string;
  curatorName: string;
  dateAdded: string;
  lastModifiedDate: string;
  /** False for playlists the user follows but does not own: Apple refuses additions to them. */
  canEdit: boolean;
  /** Set for public playlists: the `pl.u-…` id they answer to in the catalog. */
  globalId?: string;
  songs: LibrarySong[];
}

interface DemoLibraryPlaylist extends Omit<LibraryPlaylist, 'lastModifiedDate'> {
  lastModifiedDate: string;
}

export const DEMO_USER_NAME = 'Sam Rivera';

/**
 * The demo Apple Music user's library. Demo playlists come from the catalog (so a regenerated catalog is
 * picked up without touching the state file); playlists created through the API and every appended song
 * live in the state file.
 */
export class AppleLibrary {
  private readonly demo: DemoLibraryPlaylist[];
  /** Every library song the user has, by `i.` id, so a `library-songs` id can be appended elsewhere. */
  private readonly librarySongs = new Map<string, LibrarySong>();
  private readonly releases: Catalog['releases'];

  constructor(
    catalog: Catalog,
    private readonly index: AppleCatalogIndex,
    private readonly state: StateFile<AppleEmulatorState>,
    private readonly now: () => number,
    /** How long a write stays invisible to reads (0 = at once, the default). */
    private readonly writeLagMs = 0,
  ) {
    this.releases = catalog.releases;
    // The demo user shares their first own playlist; playlists they follow are public by nature. Both answer
    // in the catalog under a `pl.u-` id, so share-link imports have something to read.
    const firstOwned = catalog.demoLibraries.apple.find((playlist) => playlist.followedOnly !== true);
    this.demo = catalog.demoLibraries.apple.map((playlist) =>
      this.demoPlaylist(playlist, playlist === firstOwned || playlist.followedOnly === true),
    );
  }

  /** What reads show: a lagging write is left out until its time has come. */
  playlists(): LibraryPlaylist[] {
    return this.allPlaylists(this.now());
  }

  /** Including writes not yet visible: where a write goes (Apple appends to what it has, not to what it shows). */
  private allPlaylists(readAt = Number.POSITIVE_INFINITY): LibraryPlaylist[] {
    const visible = (item: { visibleAt?: number }) => (item.visibleAt ?? 0) <= readAt;
    const created = this.state.value.createdPlaylists.filter(visible).map((stored) => ({
      ...stored,
      curatorName: DEMO_USER_NAME,
      canEdit: true,
      lastModifiedDate: stored.dateAdded,
      songs: [],
    }));
    return [...this.demo, ...created].map((playlist) => this.withAdditions(playlist, visible));
  }

  playlist(id: string): LibraryPlaylist | undefined {
    return this.playlists().find((playlist) => playlist.id === id);
  }

  /** A playlist a write may target, even one whose creation reads do not show yet. */
  writablePlaylist(id: string): LibraryPlaylist | undefined {
    return this.allPlaylists().find((playlist) => playlist.id === id);
  }

  sharedPlaylist(globalId: string): LibraryPlaylist | undefined {
    return this.playlists().find((playlist) => playlist.globalId === globalId);
  }

  /** Turns an id from a request body into what is stored, or undefined when the user could not add it. */
  resolve(id: string, type: string): StoredSong | undefined {
    if (type === 'songs') return this.index.songAnywhere(id) ? { catalogId: id } : undefined;
    if (type === 'library-songs') return this.librarySongs.has(id) ? { libraryId: id } : undefined;
    return undefined;
  }

  createPlaylist(input: { name: string; description: string; isPublic: boolean; songs: StoredSong[] }) {
    const id = `p.${randomBase62(14)}`;
    const dateAdded = new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const lag = this.lag();
    const stored: StoredPlaylist = {
      id,
      name: input.name,
      description: input.description,
      dateAdded,
      ...(input.isPublic ? { globalId: `pl.u-${randomBase62(15)}` } : {}),
      ...lag,
    };
    const songs = input.songs.map((song) => ({ ...song, ...lag }));
    this.state.update((state) => {
      state.createdPlaylists.push(stored);
      if (songs.length > 0) state.additions[id] = { songs, lastModifiedDate: dateAdded };
    });
    // The creation answer itself describes the playlist, lag or not.
    return this.writablePlaylist(id);
  }

  append(playlistId: string, added: StoredSong[]) {
    const lastModifiedDate = new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const songs = added.map((song) => ({ ...song, ...this.lag() }));
    this.state.update((state) => {
      const existing = state.additions[playlistId];
      if (existing) {
        existing.songs.push(...songs);
        existing.lastModifiedDate = lastModifiedDate;
      } else state.additions[playlistId] = { songs: [...songs], lastModifiedDate };
    });
  }

  private lag(): { visibleAt?: number } {
    return this.writeLagMs > 0 ? { visibleAt: this.now() + this.writeLagMs } : {};
  }

  private withAdditions(
    playlist: DemoLibraryPlaylist,
    visible: (item: { visibleAt?: number }) => boolean,
  ): LibraryPlaylist {
    const added = this.state.value.additions[playlist.id];
    if (!added) return playlist;
    const songs = added.songs.filter(visible).flatMap((stored) => {
      const song = this.storedSong(stored);
      return song ? [song] : [];
    });
    return { ...playlist, lastModifiedDate: added.lastModifiedDate, songs: [...playlist.songs, ...songs] };
  }

  private storedSong(stored: StoredSong): LibrarySong | undefined {
    if ('libraryId' in stored) return this.librarySongs.get(stored.libraryId);
    const record = this.index.songAnywhere(stored.catalogId);
    return record ? this.catalogSong(record) : undefined;
  }

  private demoPlaylist(playlist: DemoPlaylist, isPublic: boolean): DemoLibraryPlaylist {
    const songs: LibrarySong[] = [];
    playlist.entries.forEach((entry, entryIndex) => {
      const seed = `${playlist.key}#${entryIndex}`;
      if (entry.kind === 'track') {
        const track = this.index.trackByKey(entry.trackKey);
        if (!track) return;
        const record = track.apple ? this.index.songAnywhere(track.apple.id) : undefined;
        songs.push(record ? this.catalogSong(record) : this.uploadFromTrack(track, seed));
      } else if (entry.kind === 'unavailable') {
        songs.push(this.unavailableSong(seed));
      } else if (entry.kind === 'local') {
        songs.push(
          this.register({
            id: stableLibraryId('i', `upload:${seed}`),
            name: entry.title,
            artistName: entry.artist,
            albumName: entry.album,
            durationMs: entry.durationMs,
            explicit: false,
            genreNames: ['Music'],
            trackNumber: 1,
            discNumber: 1,
            source: { kind: 'upload' },
          }),
        );
      }
      // Podcast episodes never live in an Apple Music library playlist.
    });
    const dates = playlist.entries.map((entry) => entry.addedAt).sort();
    const dateAdded = playlist.createdAt ?? dates[0] ?? '2024-01-01T00:00:00Z';
    return {
      id: stableLibraryId('p', `playlist:${playlist.key}`),
      name: playlist.name,
      description: playlist.description,
      curatorName: playlist.ownerName ?? DEMO_USER_NAME,
      canEdit: playlist.followedOnly !== true,
      dateAdded,
      lastModifiedDate: dates[dates.length - 1] ?? dateAdded,
      ...(isPublic ? { globalId: stableLibraryId('pl.u', `shared:${playlist.key}`) } : {}),
      songs,
    };
  }

  private catalogSong(record: AppleSongRecord): LibrarySong {
    const id = stableLibraryId('i', `song:${record.id}`);
    const known = this.librarySongs.get(id);
    if (known) return known;
    return this.register({
      id,
      name: record.name,
      artistName: record.artistName,
      albumName: record.albumName,
      durationMs: record.track.durationMs,
      explicit: record.track.explicit,
      genreNames: genreNames(record.track.genres),
      trackNumber: record.track.trackNumber,
      discNumber: record.track.discNumber,
      ...(record.release ? { releaseDate: record.release.releaseDate } : {}),
      source: { kind: 'catalog', record },
    });
  }

  /** A song the user once added that Apple no longer carries: it keeps its tags but has no catalog id. */
  private uploadFromTrack(track: CatalogTrack, seed: string): LibrarySong {
    return this.register({
      id: stableLibraryId('i', `gone:${seed}`),
      name: appleSongName(track),
      artistName: appleArtistName(track),
      albumName: appleAlbumName(this.releases.get(track.releaseKey), track.title),
      durationMs: track.durationMs,
      explicit: track.explicit,
      genreNames: genreNames(track.genres),
      trackNumber: track.trackNumber,
      discNumber: track.discNumber,
      source: { kind: 'upload' },
    });
  }

  private unavailableSong(seed: string): LibrarySong {
    const gone = this.index.notOnApple;
    const track = gone[hash32(seed) % Math.max(1, gone.length)];
    if (track) return this.uploadFromTrack(track, seed);
    return this.register({
      id: stableLibraryId('i', `gone:${seed}`),
      name: 'Unavailable Song',
      artistName: 'Unknown Artist',
      durationMs: 180_000,
      explicit: false,
      genreNames: ['Music'],
      trackNumber: 1,
      discNumber: 1,
      source: { kind: 'upload' },
    });
  }

  private register(song: LibrarySong): LibrarySong {
    this.librarySongs.set(song.id, song);
    return song;
  }
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function randomBase62(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (byte) => ALPHABET[byte % 62]).join('');
}
