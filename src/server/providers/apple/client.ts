import type { z } from 'zod';
import { LIKED_SONGS_ID, LIKED_SONGS_NAME, parseCollectionId } from '../../../shared/library-ids';
import { chunk, mapWithConcurrency } from '../../concurrency';
import { APPLE_WEB, openUrl } from '../../service-urls/open-urls';
import { HttpClient, type HttpClientOptions, ProviderError, type RequestOptions } from '../http';
import { albumSummary } from '../library-summaries';
import { PagesInOrder } from '../pages-in-order';
import type {
  AddTracksProgress,
  AlbumQuery,
  CreatedPlaylist,
  LibraryAlbum,
  LibraryOverview,
  MusicProvider,
  NormalizedTrack,
  PlaylistContents,
  PlaylistEntry,
  PlaylistListOptions,
  PlaylistReadOptions,
  PlaylistSummary,
  ProviderUser,
  RateLimitListener,
  SharedPlaylistRef,
  SkipReason,
  TrackQuery,
} from '../types';
import type { DeveloperTokenSource } from './developer-token';
import { artworkUrl, songToTrack, splitArtistName } from './normalize';
import {
  type AppleAlbum,
  type AppleLibraryAlbum,
  type AppleLibraryPlaylist,
  type AppleSong,
  albumsResponseSchema,
  catalogPlaylistResponseSchema,
  catalogTracksPageSchema,
  createdPlaylistResponseSchema,
  errorResponseSchema,
  isrcSongsResponseSchema,
  libraryAlbumResponseSchema,
  libraryAlbumsPageSchema,
  libraryPlaylistResponseSchema,
  libraryPlaylistsPageSchema,
  librarySongSchema,
  libraryTracksPageSchema,
  ratingsResponseSchema,
  searchResponseSchema,
  songSchema,
  songsResponseSchema,
  storefrontsResponseSchema,
} from './schemas';

/**
 * Apple Music playlists cannot be edited, reordered or emptied after creation: the public API only
 * creates playlists and appends tracks to their end. Crossfade therefore never renames, reorders, removes
 * or replaces anything on Apple Music, and a repeated sync into Apple can only add tracks or make a new
 * playlist.
 */
export const APPLE_PLAYLISTS_APPEND_ONLY = true;
export const APPLE_APPEND_ONLY_NOTICE =
  'Apple Music playlists cannot be edited, reordered or emptied after creation. Crossfade can only create them and add tracks to the end.';

const PAGE_SIZE = 100;
const ISRC_BATCH = 25;
const IDS_BATCH = 300;
const MAX_SEARCH_LIMIT = 25;
const COUNT_CONCURRENCY = 4;
/** Pages of a library playlist read at once once its length is known. */
const PAGE_CONCURRENCY = 4;
/** Pages counted for a playlist whose track count Apple left out, before calling its length unknown. */
const COUNT_PAGE_LIMIT = 2;
/** Ids per POST /v1/me/library and per ratings lookup. */
const LIBRARY_BATCH = 100;
const RATINGS_BATCH = 100;
/** Library pages read to count the favourites for the listing (500 songs) before calling the count a lower bound. */
const FAVOURITE_COUNT_PAGES = 5;

export interface AppleMusicProviderOptions {
  /** `https://api.music.apple.com/v1`, or the sandbox's `<origin>/sandbox/apple/v1`. */
  apiBaseUrl: string;
  /** Where "Open in Apple Music" goes: `https://music.apple.com` (default), or the sandbox's own pages. */
  webUrl?: string;
  developerToken: DeveloperTokenSource;
  /** The person's Music User Token; library calls fail with `reconnect_required` without one. */
  musicUserToken?: (() => Promise<string>) | undefined;
  /** The person's storefront when known; otherwise read from `/me/storefront` (or `us` without a MUT). */
  storefront?: string | undefined;
  onRateLimit?: RateLimitListener | undefined;
  /** How long library writes may take to show in reads (default APPLE_WRITE_SETTLE_MS). */
  writeSettleMs?: number | undefined;
  /** Test and tuning knobs of the shared HTTP layer (fast `sleep`, `backoffBaseMs`, `fetchImpl`, …). */
  http?:
    | Partial<Omit<HttpClientOptions, 'service' | 'baseUrl' | 'describeError' | 'onRateLimit'>>
    | undefined;
}

/**
 * Apple documents that library additions "may appear after a delay" without saying how long; seconds are
 * what people observe. Twice the sandbox's test lag (SANDBOX_FAULTS=apple-write-lag-ms=3000).
 */
export const APPLE_WRITE_SETTLE_MS = 6_000;

/**
 * Apple Music API client. Library reads resolve every library song (`i.…`) to its catalog Song through
 * `include=catalog`, so tracks carry catalog ids and ISRCs; library songs without a catalog counterpart
 * (uploads, songs Apple dropped) are reported as skipped rather than lost. Catalog calls use the person's
 * storefront unless a region is given. Playlists are append-only on Apple (see `APPLE_PLAYLISTS_APPEND_ONLY`).
 */
const searchTerm = (query: TrackQuery) =>
  (query.text ?? [query.title, query.artist, query.album].filter(Boolean).join(' ')).trim();

export class AppleMusicProvider implements MusicProvider {
  readonly service = 'apple' as const;
  readonly addBatchSize = PAGE_SIZE;
  readonly createBatchSize = PAGE_SIZE;
  readonly isrcBatchSize = ISRC_BATCH;
  readonly appendOnly = APPLE_PLAYLISTS_APPEND_ONLY;
  readonly writeSettleMs: number;
  readonly http: HttpClient;
  private storefrontId: Promise<string> | undefined;

  private get webUrl(): string {
    return (this.options.webUrl ?? APPLE_WEB).replace(/\/+$/, '');
  }

  /** An address Apple gives (music.apple.com/…) as the page to open: the emulator's own in sandbox mode. */
  private pageUrl(url: string): string {
    return openUrl(url, { apple: this.webUrl });
  }

  constructor(private readonly options: AppleMusicProviderOptions) {
    this.writeSettleMs = options.writeSettleMs ?? APPLE_WRITE_SETTLE_MS;
    this.http = new HttpClient({
      ...options.http,
      service: 'apple',
      baseUrl: options.apiBaseUrl,
      ...(options.onRateLimit ? { onRateLimit: options.onRateLimit } : {}),
      describeError,
    });
    if (options.storefront) this.storefrontId = Promise.resolve(options.storefront.toLowerCase());
  }

  async getCurrentUser(): Promise<ProviderUser> {
    const answer = await this.library(storefrontsResponseSchema, { url: 'me/storefront' });
    const storefront = answer.data[0]?.id.toLowerCase() ?? 'us';
    this.storefrontId ??= Promise.resolve(storefront);
    // Apple exposes no account id or name to third-party apps; the storefront is all there is.
    return { id: 'me', region: storefront };
  }

  async listPlaylists(options?: PlaylistListOptions): Promise<PlaylistSummary[]> {
    const playlists: AppleLibraryPlaylist[] = [];
    let url: string | undefined = 'me/library/playlists';
    while (url) {
      const page: z.infer<typeof libraryPlaylistsPageSchema> = await this.orEmpty(
        this.library(libraryPlaylistsPageSchema, { url, query: { limit: PAGE_SIZE } }),
        { data: [] },
      );
      playlists.push(...page.data);
      url = page.next;
    }
    // Library playlists carry no track count, so each is asked for its total (one small call each),
    // unless its length is known under the same change marker.
    const counts = await mapWithConcurrency(playlists, COUNT_CONCURRENCY, async (playlist) => {
      const known = options?.knownCounts?.get(playlist.id);
      const marker = playlist.attributes.lastModifiedDate;
      if (known && marker && known.changeMarker === marker) return { count: known.trackCount, known: true };
      return this.countTracks(playlist.id);
    });
    return playlists.map((playlist, index) =>
      librarySummary(playlist, counts[index] ?? { count: 0, known: true }, this.webUrl),
    );
  }

  async getPlaylist(playlistId: string, options?: PlaylistReadOptions): Promise<PlaylistContents> {
    const collection = parseCollectionId(playlistId);
    if (collection?.kind === 'liked') {
      const { entries, read } = await this.readFavourites(Number.POSITIVE_INFINITY, options);
      return { playlist: this.likedSummary(read, true), entries };
    }
    if (collection?.kind === 'album') return this.readAlbum(collection.albumId, options);
    const answer = await this.library(libraryPlaylistResponseSchema, {
      url: `me/library/playlists/${encodeURIComponent(playlistId)}`,
    });
    const playlist = answer.data[0];
    if (!playlist)
      throw new ProviderError('apple', 'not_found', 'Apple Music could not find that playlist.', 404);
    const entries = await this.readPlaylistTracks(playlistId, options);
    return {
      playlist: librarySummary(playlist, { count: entries.length, known: true }, this.webUrl),
      entries,
    };
  }

  async getPlaylistEntries(playlistId: string): Promise<PlaylistEntry[]> {
    // The tracks' first page answers 404 for a playlist not found as for an empty one: both read as empty.
    return this.readPlaylistTracks(playlistId);
  }

  /**
   * A library playlist's tracks in order. The first page tells the length: the others are asked a few at
   * a time (each a call of its own, as one after another; a 10,000-track read back is 100 pages), then
   * any pages past that length (the playlist grew meanwhile) one after another.
   */
  private async readPlaylistTracks(playlistId: string, options?: PlaylistReadOptions) {
    const tracksUrl = `me/library/playlists/${encodeURIComponent(playlistId)}/tracks`;
    // An empty playlist answers 404 on its tracks: that is an empty result, not an error.
    const pageAt = (url: string, offset?: number) =>
      this.orEmpty(
        this.library(libraryTracksPageSchema, {
          url,
          query: { ...(offset !== undefined ? { offset } : {}), limit: PAGE_SIZE, include: 'catalog' },
        }),
        { data: [] },
      );
    const pages = new PagesInOrder(
      (page: z.infer<typeof libraryTracksPageSchema>, firstPosition: number) =>
        page.data.map((item, i) => libraryEntry(item, firstPosition + i)),
      options?.onEntries,
    );
    const first = await pageAt(tracksUrl);
    const total = first.meta?.total ?? null;
    let read = first.data.length;
    options?.onPage?.(read, total);
    pages.add(0, first);
    let last = first;
    let count = 1;
    if (total !== null && first.next && first.data.length === PAGE_SIZE) {
      const offsets: number[] = [];
      for (let offset = PAGE_SIZE; offset < total; offset += PAGE_SIZE) offsets.push(offset);
      const rest = await mapWithConcurrency(
        [...offsets.entries()],
        PAGE_CONCURRENCY,
        async ([index, offset]) => {
          await options?.beforePage?.();
          const page = await pageAt(tracksUrl, offset);
          read += page.data.length;
          options?.onPage?.(read, total);
          pages.add(index + 1, page);
          return page;
        },
      );
      last = rest[rest.length - 1] ?? first;
      count += rest.length;
    }
    let next = last.next;
    while (next) {
      await options?.beforePage?.();
      const page = await pageAt(next);
      pages.add(count++, page);
      read += page.data.length;
      options?.onPage?.(read, total);
      next = page.data.length === 0 ? undefined : page.next;
    }
    return pages.entries;
  }

  /** Apple's search takes one term: the fields of a query are its words, one after another. */
  searchAs(query: TrackQuery): TrackQuery {
    return { text: searchTerm(query) };
  }

  async searchTracks(
    query: TrackQuery,
    options?: { limit?: number; region?: string },
  ): Promise<NormalizedTrack[]> {
    const term = searchTerm(query);
    if (term === '') return [];
    const storefront = await this.region(options?.region);
    const limit = Math.min(Math.max(1, Math.floor(options?.limit ?? 10)), MAX_SEARCH_LIMIT);
    const answer = await this.catalog(searchResponseSchema, {
      url: `catalog/${storefront}/search`,
      query: { term, types: 'songs', limit },
    });
    // Apple lists a few songs it cannot stream in the storefront (no `playParams`); nobody can use them, so
    // they are never offered, as Spotify's `is_playable: false` tracks are not.
    return (answer.results.songs?.data ?? [])
      .map(songToTrack)
      .filter((track) => track.availability?.playable !== false);
  }

  async lookupIsrcs(isrcs: string[], options?: { region?: string }): Promise<Map<string, NormalizedTrack[]>> {
    const storefront = await this.region(options?.region);
    const wanted = [...new Set(isrcs.map((isrc) => isrc.toUpperCase()))];
    const result = new Map<string, NormalizedTrack[]>(wanted.map((isrc) => [isrc, []]));
    for (const batch of chunk(wanted, ISRC_BATCH)) {
      const answer = await this.catalog(isrcSongsResponseSchema, {
        url: `catalog/${storefront}/songs`,
        query: { 'filter[isrc]': batch.join(',') },
      });
      const byId = new Map(answer.data.map((song) => [song.id, song]));
      const filter = answer.meta?.filters?.isrc;
      for (const isrc of batch) {
        // meta.filters.isrc says which songs answer which ISRC; without it, fall back to each song's own isrc.
        const songs: AppleSong[] = filter
          ? (filter[isrc] ?? []).flatMap((ref) => byId.get(ref.id) ?? [])
          : answer.data.filter((song) => song.attributes.isrc?.toUpperCase() === isrc);
        result.set(isrc, songs.map(songToTrack));
      }
    }
    return result;
  }

  async getTrack(trackId: string, options?: { region?: string }): Promise<NormalizedTrack | null> {
    const storefront = await this.region(options?.region);
    const answer = await this.orEmpty(
      this.catalog(songsResponseSchema, {
        url: `catalog/${storefront}/songs/${encodeURIComponent(trackId)}`,
      }),
      { data: [] },
    );
    const song = answer.data[0];
    return song ? songToTrack(song) : null;
  }

  async createPlaylist(
    name: string,
    description?: string,
    tracks: readonly string[] = [],
  ): Promise<CreatedPlaylist> {
    if (tracks.length > PAGE_SIZE) throw new Error(`A playlist is created with at most ${PAGE_SIZE} tracks.`);
    const answer = await this.library(createdPlaylistResponseSchema, {
      method: 'POST',
      retryServerErrors: false,
      url: 'me/library/playlists',
      body: {
        attributes: { name, ...(description ? { description } : {}) },
        ...(tracks.length > 0
          ? { relationships: { tracks: { data: tracks.map((id) => ({ id, type: 'songs' })) } } }
          : {}),
      },
    });
    const created = answer.data[0];
    if (!created)
      throw new ProviderError('apple', 'malformed', 'Apple Music did not return the new playlist.');
    return { id: created.id, url: libraryUrl(this.webUrl, created.id) };
  }

  async addTracks(
    playlistId: string,
    uris: string[],
    onBatch?: (progress: AddTracksProgress) => void | Promise<void>,
    beforeBatch?: () => Promise<void>,
  ): Promise<void> {
    let added = 0;
    for (const batch of chunk(uris, PAGE_SIZE)) {
      await beforeBatch?.();
      await this.library(null, {
        method: 'POST',
        retryServerErrors: false,
        url: `me/library/playlists/${encodeURIComponent(playlistId)}/tracks`,
        body: { data: batch.map((id) => ({ id, type: 'songs' })) },
      });
      added += batch.length;
      await onBatch?.({ added, total: uris.length });
    }
  }

  async getAvailability(trackIds: string[], region: string): Promise<Map<string, boolean>> {
    const storefront = region.toLowerCase();
    const result = new Map<string, boolean>(trackIds.map((id) => [id, false]));
    for (const batch of chunk([...new Set(trackIds)], IDS_BATCH)) {
      const answer = await this.catalog(songsResponseSchema, {
        url: `catalog/${storefront}/songs`,
        query: { ids: batch.join(',') },
      });
      // A song missing from the storefront is simply absent from the answer.
      for (const song of answer.data) {
        if (result.has(song.id)) result.set(song.id, song.attributes.playParams !== undefined);
      }
    }
    return result;
  }

  async readSharedPlaylist(ref: SharedPlaylistRef): Promise<PlaylistContents> {
    if (ref.service !== 'apple') {
      throw new ProviderError('apple', 'bad_request', 'That link is not an Apple Music playlist.');
    }
    if (!ref.id.startsWith('pl.')) {
      throw new ProviderError(
        'apple',
        'forbidden',
        'That Apple Music link points to a private library playlist. Ask its owner to share it publicly and send the new link.',
      );
    }
    const storefront = await this.region(ref.storefront);
    const id = encodeURIComponent(ref.id);
    const answer = await this.catalog(catalogPlaylistResponseSchema, {
      url: `catalog/${storefront}/playlists/${id}`,
      query: { include: 'tracks' },
    });
    const playlist = answer.data[0];
    if (!playlist)
      throw new ProviderError('apple', 'not_found', 'Apple Music could not find that playlist.', 404);
    const entries: PlaylistEntry[] = [];
    const addItems = (items: z.infer<typeof catalogTracksPageSchema>['data']) => {
      for (const item of items) entries.push(catalogEntry(item, entries.length));
    };
    addItems(playlist.relationships?.tracks?.data ?? []);
    let url = playlist.relationships?.tracks?.next;
    while (url) {
      const page = await this.orEmpty(
        this.catalog(catalogTracksPageSchema, { url, query: { limit: PAGE_SIZE } }),
        { data: [] },
      );
      addItems(page.data);
      url = page.next;
    }
    const { attributes } = playlist;
    return {
      playlist: {
        id: playlist.id,
        name: attributes.name,
        ...(attributes.description?.standard ? { description: attributes.description.standard } : {}),
        ...(attributes.artwork ? { imageUrl: artworkUrl(attributes.artwork.url, 600) } : {}),
        trackCount: entries.length,
        ...(attributes.curatorName ? { ownerName: attributes.curatorName } : {}),
        isOwned: false,
        ...(attributes.url ? { url: this.pageUrl(attributes.url) } : {}),
      },
      entries,
    };
  }

  /**
   * Favourite Songs (library songs rated 1, see `readFavourites`) and the saved albums. Counting the
   * favourites reads the library; past FAVOURITE_COUNT_PAGES pages the count is a lower bound
   * (`trackCountUnknown`), as for playlists Apple gives no length for.
   */
  async listLibrary(): Promise<LibraryOverview> {
    const [favourites, albums] = await Promise.all([
      this.readFavourites(FAVOURITE_COUNT_PAGES),
      this.libraryAlbums(),
    ]);
    return {
      liked: this.likedSummary(favourites.entries.length, favourites.complete),
      albums: albums.map((album) => ({ summary: albumSummary(album), album })),
    };
  }

  /**
   * Apple has no list of favourites: they are the library songs rated 1 (GET /v1/me/ratings/songs, one
   * call per page of 100 library songs). Library songs without a catalog id (uploads) cannot be rated
   * through the catalog and are never favourites here. Order: the library's own.
   */
  private async readFavourites(
    maxPages = Number.POSITIVE_INFINITY,
    options?: PlaylistReadOptions,
  ): Promise<{ entries: PlaylistEntry[]; read: number; complete: boolean }> {
    const entries: PlaylistEntry[] = [];
    let read = 0;
    let url: string | undefined = 'me/library/songs';
    let pages = 0;
    while (url) {
      if (pages === maxPages) return { entries, read, complete: false };
      if (pages > 0) await options?.beforePage?.();
      // An empty library answers 404: no favourites.
      const page: z.infer<typeof libraryTracksPageSchema> = await this.orEmpty(
        this.library(libraryTracksPageSchema, { url, query: { limit: PAGE_SIZE, include: 'catalog' } }),
        { data: [] },
      );
      pages++;
      const catalogIds = page.data.map(catalogIdOf);
      const wanted = [...new Set(catalogIds.flatMap((id) => id ?? []))];
      const favourite = new Set<string>();
      for (const batch of chunk(wanted, RATINGS_BATCH)) {
        const ratings = await this.orEmpty(
          this.library(ratingsResponseSchema, { url: 'me/ratings/songs', query: { ids: batch.join(',') } }),
          { data: [] },
        );
        for (const rating of ratings.data) if (rating.attributes.value === 1) favourite.add(rating.id);
      }
      const fresh: PlaylistEntry[] = [];
      page.data.forEach((item, i) => {
        const id = catalogIds[i];
        if (id && favourite.has(id)) fresh.push(libraryEntry(item, read + fresh.length));
      });
      read += fresh.length;
      if (!options?.entriesHeardOnly) for (const entry of fresh) entries.push(entry);
      options?.onPage?.(read, null);
      if (fresh.length > 0) options?.onEntries?.(fresh);
      url = page.data.length === 0 ? undefined : page.next;
    }
    return { entries, read, complete: true };
  }

  private async libraryAlbums(): Promise<LibraryAlbum[]> {
    const albums: LibraryAlbum[] = [];
    let url: string | undefined = 'me/library/albums';
    while (url) {
      const page: z.infer<typeof libraryAlbumsPageSchema> = await this.orEmpty(
        this.library(libraryAlbumsPageSchema, { url, query: { limit: PAGE_SIZE, include: 'catalog' } }),
        { data: [] },
      );
      for (const album of page.data) albums.push(this.fromLibraryAlbum(album));
      url = page.data.length === 0 ? undefined : page.next;
    }
    return albums;
  }

  /** The catalog album when Apple links one (its id, its UPC); else the library album as it is (`l.` id). */
  private fromLibraryAlbum(album: AppleLibraryAlbum): LibraryAlbum {
    const catalog = album.relationships?.catalog?.data[0];
    if (catalog) return this.fromCatalogAlbum(catalog);
    const { attributes } = album;
    return {
      id: album.id,
      name: attributes.name,
      artists: splitArtistName(attributes.artistName),
      trackCount: attributes.trackCount ?? 0,
      ...(attributes.releaseDate ? { releaseDate: attributes.releaseDate } : {}),
      ...(attributes.artwork ? { imageUrl: artworkUrl(attributes.artwork.url, 300) } : {}),
    };
  }

  private fromCatalogAlbum(album: AppleAlbum): LibraryAlbum {
    const { attributes } = album;
    return {
      id: album.id,
      name: attributes.name.replace(/ - (Single|EP)$/, ''),
      artists: splitArtistName(attributes.artistName),
      trackCount: attributes.trackCount ?? album.relationships?.tracks?.data.length ?? 0,
      ...(attributes.upc ? { upc: attributes.upc } : {}),
      ...(attributes.releaseDate ? { releaseDate: attributes.releaseDate } : {}),
      ...(attributes.artwork ? { imageUrl: artworkUrl(attributes.artwork.url, 300) } : {}),
      ...(attributes.url ? { url: this.pageUrl(attributes.url) } : {}),
    };
  }

  private likedSummary(trackCount: number, known: boolean): PlaylistSummary {
    return {
      id: LIKED_SONGS_ID,
      name: LIKED_SONGS_NAME.apple,
      trackCount,
      ...(known ? {} : { trackCountUnknown: true }),
      isOwned: true,
    };
  }

  /** A saved album's tracks in album order: a catalog album by its id, a library-only one (`l.`) from the library. */
  private async readAlbum(albumId: string, options?: PlaylistReadOptions): Promise<PlaylistContents> {
    const entries: PlaylistEntry[] = [];
    if (albumId.startsWith('l.')) {
      const answer = await this.library(libraryAlbumResponseSchema, {
        url: `me/library/albums/${encodeURIComponent(albumId)}`,
      });
      const album = answer.data[0];
      if (!album)
        throw new ProviderError('apple', 'not_found', 'Apple Music could not find that album.', 404);
      let url: string | undefined = `me/library/albums/${encodeURIComponent(albumId)}/tracks`;
      while (url) {
        const page: z.infer<typeof libraryTracksPageSchema> = await this.orEmpty(
          this.library(libraryTracksPageSchema, { url, query: { limit: PAGE_SIZE, include: 'catalog' } }),
          { data: [] },
        );
        const fresh = page.data.map((item, i) => libraryEntry(item, entries.length + i));
        for (const entry of fresh) entries.push(entry);
        options?.onPage?.(entries.length, page.meta?.total ?? null);
        if (fresh.length > 0) options?.onEntries?.(fresh);
        url = page.data.length === 0 ? undefined : page.next;
      }
      const summary = albumSummary(this.fromLibraryAlbum(album));
      return { playlist: { ...summary, trackCount: entries.length }, entries };
    }
    const storefront = await this.region(undefined);
    const answer = await this.catalog(albumsResponseSchema, {
      url: `catalog/${storefront}/albums/${encodeURIComponent(albumId)}`,
    });
    const album = answer.data[0];
    if (!album) throw new ProviderError('apple', 'not_found', 'Apple Music could not find that album.', 404);
    for (const item of await this.albumTrackItems(album, storefront))
      entries.push(catalogEntry(item, entries.length));
    options?.onPage?.(entries.length, entries.length);
    options?.onEntries?.(entries);
    const summary = albumSummary(this.fromCatalogAlbum(album));
    return { playlist: { ...summary, trackCount: entries.length }, entries };
  }

  /** Every track item of a catalog album: those the album answer included, then its track pages. */
  private async albumTrackItems(album: AppleAlbum, storefront: string) {
    const items: z.infer<typeof catalogTracksPageSchema>['data'] = [];
    const included = album.relationships?.tracks;
    let url: string | undefined = included
      ? included.next
      : `catalog/${storefront}/albums/${encodeURIComponent(album.id)}/tracks`;
    if (included) items.push(...included.data);
    while (url) {
      const page: z.infer<typeof catalogTracksPageSchema> = await this.orEmpty(
        this.catalog(catalogTracksPageSchema, { url, query: { limit: PAGE_SIZE } }),
        { data: [] },
      );
      items.push(...page.data);
      url = page.data.length === 0 ? undefined : page.next;
    }
    return items;
  }

  /**
   * Adds the catalog songs to the library (POST /v1/me/library?ids[songs]=…) and rates each one 1, which
   * makes it a favourite (PUT /v1/me/ratings/songs/{id}). Both are idempotent, so a repeated batch does no
   * harm. Reads show the additions after Apple's delay (`writeSettleMs`).
   */
  async saveTracks(
    uris: string[],
    onBatch?: (progress: AddTracksProgress) => void | Promise<void>,
    beforeBatch?: () => Promise<void>,
  ): Promise<void> {
    let saved = 0;
    for (const batch of chunk(uris, LIBRARY_BATCH)) {
      await beforeBatch?.();
      await this.library(null, {
        method: 'POST',
        url: 'me/library',
        query: { 'ids[songs]': batch.join(',') },
      });
      // One rating call per song (Apple has no batch): a few at a time; a 429 holds them all back.
      await mapWithConcurrency(batch, COUNT_CONCURRENCY, (id) =>
        this.library(null, {
          method: 'PUT',
          url: `me/ratings/songs/${encodeURIComponent(id)}`,
          body: { type: 'rating', attributes: { value: 1 } },
        }),
      );
      saved += batch.length;
      await onBatch?.({ added: saved, total: uris.length });
    }
  }

  /** Favourites are songs rated 1: GET /v1/me/ratings/songs?ids= answers the rated ones among them. */
  async savedTracksContain(uris: string[]): Promise<boolean[]> {
    const favourite = new Set<string>();
    for (const batch of chunk([...new Set(uris)], RATINGS_BATCH)) {
      const ratings = await this.orEmpty(
        this.library(ratingsResponseSchema, { url: 'me/ratings/songs', query: { ids: batch.join(',') } }),
        { data: [] },
      );
      for (const rating of ratings.data) if (rating.attributes.value === 1) favourite.add(rating.id);
    }
    return uris.map((uri) => favourite.has(uri));
  }

  async saveAlbums(albumIds: string[]): Promise<void> {
    for (const batch of chunk(albumIds, LIBRARY_BATCH)) {
      await this.library(null, {
        method: 'POST',
        url: 'me/library',
        query: { 'ids[albums]': batch.join(',') },
      });
    }
  }

  /** By UPC first (`filter[upc]`); when that finds nothing, a catalog search for title and artist. */
  async findAlbums(
    query: AlbumQuery,
    options?: { region?: string; limit?: number },
  ): Promise<LibraryAlbum[]> {
    const storefront = await this.region(options?.region);
    const upc = query.upc?.replace(/\D/g, '');
    if (upc) {
      const answer = await this.catalog(albumsResponseSchema, {
        url: `catalog/${storefront}/albums`,
        query: { 'filter[upc]': upc },
      });
      const found = answer.data.map((album) => this.fromCatalogAlbum(album));
      if (found.length > 0 || !query.title?.trim()) return found;
    }
    const term = [query.title, query.artist].filter(Boolean).join(' ').trim();
    if (term === '') return [];
    const limit = Math.min(Math.max(1, Math.floor(options?.limit ?? 10)), MAX_SEARCH_LIMIT);
    const answer = await this.catalog(searchResponseSchema, {
      url: `catalog/${storefront}/search`,
      query: { term, types: 'albums', limit },
    });
    return (answer.results.albums?.data ?? []).map((album) => this.fromCatalogAlbum(album));
  }

  /** A catalog album's songs in album order (music videos left out); not_found when the storefront lacks it. */
  async getAlbumTracks(albumId: string, options?: { region?: string }): Promise<NormalizedTrack[]> {
    const storefront = await this.region(options?.region);
    const answer = await this.catalog(albumsResponseSchema, {
      url: `catalog/${storefront}/albums/${encodeURIComponent(albumId)}`,
    });
    const album = answer.data[0];
    if (!album) throw new ProviderError('apple', 'not_found', 'Apple Music could not find that album.', 404);
    return (await this.albumTrackItems(album, storefront)).flatMap((item) => {
      const song = songSchema.safeParse(item);
      return song.success ? [songToTrack(song.data)] : [];
    });
  }

  /**
   * One small call when Apple sends `meta.total`; when it does not (it is not guaranteed), a few pages are
   * counted, since the length of a one-item page says nothing about the playlist. A playlist longer than
   * that is reported as of unknown length (`known: false`, the count a lower bound), never a wrong number.
   */
  private async countTracks(playlistId: string): Promise<{ count: number; known: boolean }> {
    const first = await this.orEmpty(
      this.library(libraryTracksPageSchema, {
        url: `me/library/playlists/${encodeURIComponent(playlistId)}/tracks`,
        query: { limit: 1 },
      }),
      { data: [] },
    );
    if (first.meta?.total !== undefined) return { count: first.meta.total, known: true };
    let count = first.data.length;
    let url = first.next;
    for (let pages = 0; url; pages++) {
      if (pages === COUNT_PAGE_LIMIT) return { count, known: false };
      const page = await this.library(libraryTracksPageSchema, { url, query: { limit: PAGE_SIZE } });
      count += page.data.length;
      url = page.data.length === 0 ? undefined : page.next;
    }
    return { count, known: true };
  }

  private region(region: string | undefined): Promise<string> {
    if (region) return Promise.resolve(region.toLowerCase());
    if (!this.storefrontId) {
      this.storefrontId = this.options.musicUserToken
        ? this.getCurrentUser().then((user) => user.region ?? 'us')
        : Promise.resolve('us');
      // A failed lookup must not stick: the next call asks again.
      this.storefrontId.catch(() => {
        this.storefrontId = undefined;
      });
    }
    return this.storefrontId;
  }

  private catalog<T>(schema: z.ZodType<T>, request: Omit<RequestOptions, 'headers'>): Promise<T> {
    return this.http.request(schema, { ...request, headers: () => this.developerHeaders() });
  }

  private library<T>(schema: z.ZodType<T>, request: Omit<RequestOptions, 'headers'>): Promise<T>;
  private library(schema: null, request: Omit<RequestOptions, 'headers'>): Promise<undefined>;
  private library<T>(schema: z.ZodType<T> | null, request: Omit<RequestOptions, 'headers'>) {
    const { musicUserToken } = this.options;
    if (!musicUserToken) return Promise.reject(reconnectRequired());
    const headers = async () => ({
      ...(await this.developerHeaders()),
      'Music-User-Token': await musicUserToken(),
    });
    return schema === null
      ? this.http.request(null, { ...request, headers })
      : this.http.request(schema, { ...request, headers });
  }

  private async developerHeaders(): Promise<Record<string, string>> {
    return { Authorization: `Bearer ${await this.options.developerToken.getToken()}` };
  }

  private async orEmpty<T>(request: Promise<T>, empty: T): Promise<T> {
    try {
      return await request;
    } catch (error) {
      if (error instanceof ProviderError && error.kind === 'not_found') return empty;
      throw error;
    }
  }
}

function librarySummary(
  playlist: AppleLibraryPlaylist,
  tracks: { count: number; known: boolean },
  webUrl: string,
): PlaylistSummary {
  const { attributes } = playlist;
  const description = attributes.description?.standard ?? attributes.description?.short;
  const changedAt = attributes.lastModifiedDate ?? attributes.dateAdded;
  return {
    id: playlist.id,
    name: attributes.name,
    ...(description ? { description } : {}),
    ...(attributes.artwork ? { imageUrl: artworkUrl(attributes.artwork.url, 300) } : {}),
    trackCount: tracks.count,
    ...(tracks.known ? {} : { trackCountUnknown: true }),
    // Only playlists the person can edit accept additions; Apple calls the others not editable.
    isOwned: attributes.canEdit ?? true,
    url: libraryUrl(webUrl, playlist.id),
    ...(changedAt ? { updatedAt: changedAt } : {}),
    ...(attributes.lastModifiedDate ? { changeMarker: attributes.lastModifiedDate } : {}),
  };
}

type LibraryItem = z.infer<typeof libraryTracksPageSchema>['data'][number];

function libraryEntry(item: LibraryItem, position: number): PlaylistEntry {
  const song = librarySongSchema.safeParse(item);
  if (!song.success || song.data.type !== 'library-songs') {
    return {
      position,
      kind: 'skipped',
      reason: itemReason(item.type),
      ...known(item),
    };
  }
  const catalogSong = song.data.relationships?.catalog?.data[0];
  if (catalogSong) return { position, kind: 'track', track: songToTrack(catalogSong) };
  return {
    position,
    kind: 'skipped',
    // Matched once but missing from the person's storefront now, or never in Apple's catalog at all.
    reason: song.data.attributes.playParams?.catalogId ? 'unavailable' : 'not_in_catalog',
    ...known(song.data),
  };
}

/** The catalog song id behind a library song: its catalog relationship, else its playParams. */
function catalogIdOf(item: LibraryItem): string | undefined {
  const song = librarySongSchema.safeParse(item);
  if (!song.success) return undefined;
  return song.data.relationships?.catalog?.data[0]?.id ?? song.data.attributes.playParams?.catalogId;
}

function catalogEntry(
  item: z.infer<typeof catalogTracksPageSchema>['data'][number],
  position: number,
): PlaylistEntry {
  const parsed = songSchema.safeParse(item);
  if (parsed.success) return { position, kind: 'track', track: songToTrack(parsed.data) };
  return {
    position,
    kind: 'skipped',
    reason: itemReason(item.type),
    ...known(item),
  };
}

/** Why an item that is not a usable song was skipped: a video, or something we could not read. */
function itemReason(type: string): SkipReason {
  return type.includes('video') ? 'video' : 'unreadable';
}

function known(item: {
  attributes?:
    | {
        name?: string | undefined;
        artistName?: string | undefined;
        albumName?: string | undefined;
        durationInMillis?: number | undefined;
      }
    | undefined;
}): { name?: string; artists?: string[]; album?: string; durationMs?: number } {
  const attributes = item.attributes;
  if (!attributes) return {};
  return {
    ...(attributes.name ? { name: attributes.name } : {}),
    ...(attributes.artistName ? { artists: splitArtistName(attributes.artistName) } : {}),
    ...(attributes.albumName ? { album: attributes.albumName } : {}),
    ...(attributes.durationInMillis !== undefined ? { durationMs: attributes.durationInMillis } : {}),
  };
}

const libraryUrl = (webUrl: string, id: string) => `${webUrl}/library/playlist/${id}`;

function reconnectRequired(): ProviderError {
  return new ProviderError(
    'apple',
    'reconnect_required',
    'Apple Music sign-in has expired; connect Apple Music again.',
    403,
  );
}

function describeError(status: number, bodyText: string): ProviderError {
  const detail = appleErrorDetail(bodyText);
  const suffix = detail ? ` (${detail})` : '';
  if (status === 401) {
    return new ProviderError(
      'apple',
      'unauthorized',
      'Apple Music rejected the developer token: check the Apple Music key configuration (team id, key id and private key).',
      401,
    );
  }
  if (status === 403) return reconnectRequired();
  if (status === 404)
    return new ProviderError('apple', 'not_found', `Apple Music could not find that${suffix}.`, 404);
  if (status === 405) {
    return new ProviderError(
      'apple',
      'bad_request',
      'Apple Music does not allow changing or deleting a playlist after it is created.',
      405,
    );
  }
  if (status === 429) {
    return new ProviderError(
      'apple',
      'rate_limited',
      'Apple Music is limiting how fast we can work. Try again in a few minutes.',
      429,
    );
  }
  if (status >= 500) {
    return new ProviderError(
      'apple',
      'unavailable',
      `Apple Music is not answering properly right now${suffix}.`,
      status,
    );
  }
  return new ProviderError('apple', 'bad_request', `Apple Music refused the request${suffix}.`, status);
}

function appleErrorDetail(bodyText: string): string | undefined {
  try {
    const parsed = errorResponseSchema.safeParse(JSON.parse(bodyText));
    const first = parsed.success ? parsed.data.errors[0] : undefined;
    return first ? (first.detail ?? first.title) : undefined;
  } catch {
    return undefined;
  }
}
