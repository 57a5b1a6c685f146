import type { Catalog, CatalogTrack, DemoPlaylist, DemoSavedLibrary } from '../catalog/types';
import {
  albumIdFor,
  appleAlbumName,
  appleArtistName,
  appleSongName,
  genreNames,
  hash32,
  stableLibraryId,
} from './apple-style';
import type { AppleAlbumRecord, AppleCatalogIndex, AppleSongRecord } from './catalog-index';

/** One library's writes as the library reads and changes them (kept by ./store.ts). */
export interface WritesDocument {
  readonly value: LibraryWrites;
  update(change: (writes: LibraryWrites) => void): void;
}

/** One library's writes: everything a person or the app changed (../store.ts keeps them). */
export interface LibraryWrites {
  createdPlaylists: StoredPlaylist[];
  /** Songs appended to any library playlist (demo or created), in order. */
  additions: Record<string, { songs: StoredSong[]; lastModifiedDate: string }>;
  /**
   * A playlist's whole list of songs once the person removed or moved one in the app (the sandbox's web
   * page): it replaces the demo songs and the additions from then on, and later appends go onto it.
   */
  contents?: Record<string, { songs: StoredSong[]; lastModifiedDate: string }>;
  /** Catalog songs and albums added to the library (POST /v1/me/library), oldest first. */
  songs?: LibraryAddition[];
  albums?: LibraryAddition[];
  /** Ratings by catalog song id (1 = favourite, -1 = dislike, 0 = removed), shown after the write lag. */
  ratings?: Record<string, { value: number; visibleAt?: number }>;
}

export interface LibraryAddition {
  catalogId: string;
  addedAt: string;
  /** As StoredPlaylist.visibleAt: Apple's library writes show in reads after a delay. */
  visibleAt?: number;
}

/** A saved album in the library: its `l.` id, the catalog album, when it was added. */
export interface LibraryAlbumEntry {
  id: string;
  album: AppleAlbumRecord;
  addedAt: string;
}

/** Whose library: the shared demo listener (account undefined) or a per-person sandbox account. */
export interface LibraryOwner {
  account?: string;
  name: string;
  demoPlaylists: readonly DemoPlaylist[];
  /** Favourite songs and saved albums of the demo library (absent: none). */
  saved?: DemoSavedLibrary | undefined;
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
  /** The library song of each catalog song, once made (see catalogSong). */
  private readonly songsByCatalogId = new Map<string, LibrarySong>();
  private readonly releases: Catalog['releases'];
  private readonly name: string;
  /** Keeps each account's ids apart ('' for the shared demo listener, whose ids tests know). */
  private readonly seedPrefix: string;
  /** The demo library's songs (favourites and the songs of its albums) and albums, newest first. */
  private readonly demoSongs: LibraryAddition[];
  private readonly demoAlbums: LibraryAddition[];
  private readonly demoFavourites: Set<string>;

  constructor(
    catalog: Catalog,
    private readonly owner: LibraryOwner,
    private readonly index: AppleCatalogIndex,
    private readonly store: WritesDocument,
    private readonly now: () => number,
    /** How long a write stays invisible to reads (0 = at once, the default). */
    private readonly writeLagMs = 0,
  ) {
    this.releases = catalog.releases;
    this.name = owner.name;
    this.seedPrefix = owner.account === undefined ? '' : `${owner.account}:`;
    // The demo user shares their first own playlist; playlists they follow are public by nature. Both answer
    // in the catalog under a `pl.u-` id, so share-URL imports have something to read.
    const firstOwned = owner.demoPlaylists.find((playlist) => playlist.followedOnly !== true);
    this.demo = owner.demoPlaylists.map((playlist) =>
      this.demoPlaylist(playlist, playlist === firstOwned || playlist.followedOnly === true),
    );
    const saved = owner.saved ?? { liked: [], albums: [] };
    const favourites = saved.liked.flatMap((entry) => {
      const catalogId = index.trackByKey(entry.trackKey)?.apple?.id;
      return catalogId && index.songAnywhere(catalogId) ? [{ catalogId, addedAt: entry.addedAt }] : [];
    });
    this.demoFavourites = new Set(favourites.map((entry) => entry.catalogId));
    this.demoAlbums = saved.albums.flatMap((entry) => {
      const catalogId = albumIdFor(entry.releaseKey);
      return index.album(catalogId) ? [{ catalogId, addedAt: entry.addedAt }] : [];
    });
    // An album in the library brings its songs along (not as favourites).
    const albumSongs = this.demoAlbums.flatMap((entry) =>
      (index.album(entry.catalogId)?.songs ?? []).map((song) => ({
        catalogId: song.id,
        addedAt: entry.addedAt,
      })),
    );
    this.demoSongs = [...favourites, ...albumSongs].sort((a, b) =>
      a.addedAt < b.addedAt ? 1 : a.addedAt > b.addedAt ? -1 : 0,
    );
  }

  /** The per-person account whose library this is (undefined: the shared demo listener's). */
  get account(): string | undefined {
    return this.owner.account;
  }

  get ownerName(): string {
    return this.name;
  }

  /** Every song in the library (GET /v1/me/library/songs), newest first; lagging additions left out. */
  songsInLibrary(): LibrarySong[] {
    const written = this.visibleAdditions(this.writes.songs);
    const seen = new Set<string>();
    const songs: LibrarySong[] = [];
    for (const entry of [...written, ...this.demoSongs]) {
      if (seen.has(entry.catalogId)) continue;
      seen.add(entry.catalogId);
      const record = this.index.songAnywhere(entry.catalogId);
      if (record) songs.push(this.catalogSong(record));
    }
    return songs;
  }

  /** The library's favourite songs (rated 1), newest first: the Music app's Favourite Songs. */
  favouriteSongs(): LibrarySong[] {
    return this.songsInLibrary().filter(
      (song) => song.source.kind === 'catalog' && this.rating(song.source.record.id) === 1,
    );
  }

  /** The saved albums (GET /v1/me/library/albums), newest first. */
  albumsInLibrary(): LibraryAlbumEntry[] {
    const seen = new Set<string>();
    const albums: LibraryAlbumEntry[] = [];
    for (const entry of [...this.visibleAdditions(this.writes.albums), ...this.demoAlbums]) {
      const album = this.index.album(entry.catalogId);
      if (!album || seen.has(entry.catalogId)) continue;
      seen.add(entry.catalogId);
      albums.push({ id: stableLibraryId('l', `album:${album.id}`), album, addedAt: entry.addedAt });
    }
    return albums;
  }

  libraryAlbum(id: string): LibraryAlbumEntry | undefined {
    return this.albumsInLibrary().find((entry) => entry.id === id);
  }

  /** The song of a saved album as library songs, in album order. */
  libraryAlbumSongs(entry: LibraryAlbumEntry): LibrarySong[] {
    return entry.album.songs.map((record) => this.catalogSong(record));
  }

  /** Additions of the library, newest first, without those reads do not show yet. */
  private visibleAdditions(additions: LibraryAddition[] | undefined): LibraryAddition[] {
    const now = this.now();
    return (additions ?? []).filter((entry) => (entry.visibleAt ?? 0) <= now).reverse();
  }

  /** POST /v1/me/library: catalog songs and albums (with their songs) join the library, after the lag. */
  addToLibrary(songIds: string[], albumIds: string[]): void {
    const addedAt = new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const lag = this.lag();
    const albumSongs = albumIds.flatMap((id) => (this.index.album(id)?.songs ?? []).map((song) => song.id));
    // Appended in place: a library of 100,000 songs is not copied on every batch (issue 25's test).
    this.updateWrites((writes) => {
      writes.songs ??= [];
      for (const catalogId of [...albumSongs, ...songIds]) writes.songs.push({ catalogId, addedAt, ...lag });
      writes.albums ??= [];
      for (const catalogId of albumIds) writes.albums.push({ catalogId, addedAt, ...lag });
    });
  }

  hasCatalogAlbum(id: string): boolean {
    return this.index.album(id) !== undefined;
  }

  /** The rating of a catalog song: 1 (favourite), -1 (dislike) or undefined; a lagging change not yet. */
  rating(catalogId: string): number | undefined {
    const written = this.writes.ratings?.[catalogId];
    if (written && (written.visibleAt ?? 0) <= this.now())
      return written.value === 0 ? undefined : written.value;
    return this.demoFavourites.has(catalogId) ? 1 : undefined;
  }

  /** Rates a song (undefined: removes the rating, kept as 0 so a demo favourite stays removed). */
  rate(catalogId: string, value: number | undefined): void {
    const lag = this.lag();
    // Set in place: copying every rating on each one made 100,000 favourites cost minutes.
    this.updateWrites((writes) => {
      writes.ratings ??= {};
      writes.ratings[catalogId] = { value: value ?? 0, ...lag };
    });
  }

  private get writes(): LibraryWrites {
    return this.store.value;
  }

  private updateWrites(change: (writes: LibraryWrites) => void): void {
    this.store.update(change);
  }

  /** What reads show: a lagging write is left out until its time has come. */
  playlists(): LibraryPlaylist[] {
    return this.allPlaylists(this.now());
  }

  /** Including writes not yet visible: where a write goes (Apple appends to what it has, not to what it shows). */
  private allPlaylists(readAt = Number.POSITIVE_INFINITY): LibraryPlaylist[] {
    const visible = (item: { visibleAt?: number }) => (item.visibleAt ?? 0) <= readAt;
    const created = this.writes.createdPlaylists.filter(visible).map((stored) => ({
      ...stored,
      curatorName: this.name,
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
    this.updateWrites((state) => {
      state.createdPlaylists.push(stored);
      if (songs.length > 0) state.additions[id] = { songs, lastModifiedDate: dateAdded };
    });
    // The creation answer itself describes the playlist, lag or not.
    return this.writablePlaylist(id);
  }

  append(playlistId: string, added: StoredSong[]) {
    const lastModifiedDate = new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const songs = added.map((song) => ({ ...song, ...this.lag() }));
    this.updateWrites((state) => {
      const existing = state.contents?.[playlistId] ?? state.additions[playlistId];
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
    const resolve = (list: StoredSong[]) =>
      list.filter(visible).flatMap((stored) => {
        const song = this.storedSong(stored);
        return song ? [song] : [];
      });
    const edited = this.writes.contents?.[playlist.id];
    if (edited)
      return { ...playlist, lastModifiedDate: edited.lastModifiedDate, songs: resolve(edited.songs) };
    const added = this.writes.additions[playlist.id];
    if (!added) return playlist;
    return {
      ...playlist,
      lastModifiedDate: added.lastModifiedDate,
      songs: [...playlist.songs, ...resolve(added.songs)],
    };
  }

  // --- What the person does in the Music app (the sandbox's web page) ------------------------------------

  /** A playlist as the person's own app shows it: with their writes that reads do not show yet. */
  appPlaylist(id: string): LibraryPlaylist | undefined {
    return this.writablePlaylist(id);
  }

  /**
   * Removes the song at `position`, or moves it to `to`: the app can, the API cannot. The playlist's whole
   * list is kept from then on, each song with the moment reads show it (lagging appends stay lagging).
   */
  editSongs(playlistId: string, edit: { remove: number } | { from: number; to: number }): void {
    const lastModifiedDate = new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const songs = this.storedSongsOf(playlistId);
    if ('remove' in edit) songs.splice(edit.remove, 1);
    else {
      const [moved] = songs.splice(edit.from, 1);
      if (moved) songs.splice(edit.to, 0, moved);
    }
    this.updateWrites((writes) => {
      writes.contents = { ...writes.contents, [playlistId]: { songs, lastModifiedDate } };
      delete writes.additions[playlistId];
    });
  }

  /** Every song of a playlist as stored references, including lagging ones, in order. */
  private storedSongsOf(playlistId: string): StoredSong[] {
    const edited = this.writes.contents?.[playlistId];
    if (edited) return [...edited.songs];
    const demo = this.demo.find((playlist) => playlist.id === playlistId)?.songs ?? [];
    const fromDemo: StoredSong[] = demo.map((song) =>
      song.source.kind === 'catalog' ? { catalogId: song.source.record.id } : { libraryId: song.id },
    );
    return [...fromDemo, ...(this.writes.additions[playlistId]?.songs ?? [])];
  }

  private storedSong(stored: StoredSong): LibrarySong | undefined {
    if ('libraryId' in stored) return this.librarySongs.get(stored.libraryId);
    const record = this.index.songAnywhere(stored.catalogId);
    return record ? this.catalogSong(record) : undefined;
  }

  private demoPlaylist(playlist: DemoPlaylist, isPublic: boolean): DemoLibraryPlaylist {
    const songs: LibrarySong[] = [];
    playlist.entries.forEach((entry, entryIndex) => {
      const seed = `${this.seedPrefix}${playlist.key}#${entryIndex}`;
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
      id: stableLibraryId('p', `playlist:${this.seedPrefix}${playlist.key}`),
      name: playlist.name,
      description: playlist.description,
      curatorName: playlist.ownerName ?? this.name,
      canEdit: playlist.followedOnly !== true,
      dateAdded,
      lastModifiedDate: dates[dates.length - 1] ?? dateAdded,
      ...(isPublic ? { globalId: stableLibraryId('pl.u', `shared:${this.seedPrefix}${playlist.key}`) } : {}),
      songs,
    };
  }

  private catalogSong(record: AppleSongRecord): LibrarySong {
    // Known songs by catalog id first: every read lists every song again, and hashing each id anew made
    // reading a 10,000-song playlist page by page cost seconds of the emulator's time.
    const byCatalogId = this.songsByCatalogId.get(record.id);
    if (byCatalogId) return byCatalogId;
    const id = stableLibraryId('i', `song:${record.id}`);
    const known = this.librarySongs.get(id);
    if (known) {
      this.songsByCatalogId.set(record.id, known);
      return known;
    }
    const song = this.register({
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
    this.songsByCatalogId.set(record.id, song);
    return song;
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
