import { z } from 'zod';
import { LIKED_SONGS_ID, LIKED_SONGS_NAME, parseCollectionId } from '../../../shared/library-ids';
import { mapWithConcurrency } from '../../concurrency';
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
  PlaylistReadOptions,
  PlaylistSummary,
  ProviderUser,
  RateLimitListener,
  SharedPlaylistRef,
  TrackQuery,
} from '../types';
import {
  DEVELOPMENT_MODE_SHARED_MESSAGE,
  describeSpotifyError,
  OWNER_WITHOUT_PREMIUM_MESSAGE,
} from './errors';
import { normalizeTrack, toPlaylistEntry } from './normalize';
import {
  albumObjectSchema,
  albumSearchSchema,
  createdPlaylistSchema,
  playlistItemsPageSchema,
  playlistPageSchema,
  playlistWithItemsSchema,
  type SpotifyAlbum,
  type SpotifySimplifiedAlbum,
  type SpotifySimplifiedPlaylist,
  savedAlbumsPageSchema,
  savedTracksPageSchema,
  searchSchema,
  severalTracksSchema,
  simplifiedTrackSchema,
  snapshotSchema,
  trackSchema,
  userSchema,
} from './schemas';

export interface SpotifyTokenSource {
  getAccessToken(): Promise<string>;
  /** Gets a new access token (rotating the refresh token); throws ProviderError 'reconnect_required'. */
  refresh(): Promise<string>;
}

export interface SpotifyProviderOptions {
  /** `https://api.spotify.com/v1`, or the sandbox's `<origin>/sandbox/spotify/api/v1`. */
  apiBaseUrl: string;
  mode: 'development' | 'extended';
  tokens: SpotifyTokenSource;
  /** The person's market (upper-case ISO code): asks Spotify for `is_playable` on playlist items. */
  market?: string;
  onRateLimit?: RateLimitListener;
  /** For tests: sleep, fetch and retry tuning. */
  http?: Partial<
    Pick<
      HttpClientOptions,
      | 'sleep'
      | 'random'
      | 'fetchImpl'
      | 'timeoutMs'
      | 'maxRetries'
      | 'maxRateLimitRetries'
      | 'maxRetryAfterMs'
      | 'backoffBaseMs'
      | 'rateBudget'
      | 'turn'
    >
  >;
}

const PAGE_SIZE = 50;
/** Pages of one playlist read at once. */
const PAGE_CONCURRENCY = 4;
const ADD_BATCH = 100;
const SEARCH_LIMIT_DEVELOPMENT = 10;
const SEARCH_LIMIT_EXTENDED = 50;
const SEVERAL_TRACKS_BATCH = 50;
/** PUT /me/library takes at most 40 URIs per call (the 2026 development-mode rules). */
const LIBRARY_BATCH = 40;
/** GET /me/library/contains: one boolean per URI asked, in order. */
const libraryContainsSchema = z.array(z.boolean());

/**
 * A query value inside `field:"…"`: Spotify's syntax has no escape for a double quote, so drop it; and a
 * field filter with an apostrophe finds nothing (spotify/web-api#1041), while the word without it
 * ("Carissas") does, so apostrophes go too.
 */
const quoted = (value: string) =>
  `"${value
    .replace(/"/g, ' ')
    .replace(/['\u2018\u2019]/g, '')
    .replace(/\s+/g, ' ')
    .trim()}"`;

export function buildSearchQuery(query: TrackQuery): string {
  const parts: string[] = [];
  if (query.title?.trim()) parts.push(`track:${quoted(query.title)}`);
  if (query.artist?.trim()) parts.push(`artist:${quoted(query.artist)}`);
  if (query.album?.trim()) parts.push(`album:${quoted(query.album)}`);
  if (query.text?.trim()) parts.push(query.text.trim());
  return parts.join(' ');
}

type ItemsPage = z.infer<typeof playlistItemsPageSchema>;

/** The playlist's embedded first page of items, when the answer holds one (not just the count). */
function firstItemsPage(embedded: ItemsPage | { total: number } | null | undefined): ItemsPage | undefined {
  return embedded && 'items' in embedded && embedded.offset === 0 ? embedded : undefined;
}

export class SpotifyProvider implements MusicProvider {
  readonly service = 'spotify' as const;
  readonly addBatchSize = ADD_BATCH;
  readonly isrcBatchSize = 1;
  readonly appendOnly = false;
  readonly http: HttpClient;
  private currentUser: Promise<ProviderUser> | undefined;

  constructor(private readonly options: SpotifyProviderOptions) {
    this.http = new HttpClient({
      service: 'spotify',
      baseUrl: options.apiBaseUrl,
      describeError: describeSpotifyError,
      ...(options.onRateLimit ? { onRateLimit: options.onRateLimit } : {}),
      ...options.http,
    });
  }

  private auth(): Pick<RequestOptions, 'headers' | 'onUnauthorized'> {
    return {
      headers: async () => ({ authorization: `Bearer ${await this.options.tokens.getAccessToken()}` }),
      onUnauthorized: async () => {
        await this.options.tokens.refresh();
        return true;
      },
    };
  }

  private request<T>(schema: z.ZodType<T>, request: RequestOptions): Promise<T> {
    return this.http.request(schema, { ...request, ...this.auth() });
  }

  getCurrentUser(): Promise<ProviderUser> {
    this.currentUser ??= this.request(userSchema, { url: 'me' }).then((user) => ({
      id: user.id,
      ...(user.display_name ? { displayName: user.display_name } : {}),
      ...(user.country ? { region: user.country } : {}),
    }));
    this.currentUser.catch(() => {
      this.currentUser = undefined;
    });
    return this.currentUser;
  }

  async listPlaylists(): Promise<PlaylistSummary[]> {
    const me = await this.getCurrentUser();
    const summaries: PlaylistSummary[] = [];
    let url: string | null = 'me/playlists';
    let query: RequestOptions['query'] = { limit: PAGE_SIZE, offset: 0 };
    while (url !== null) {
      const page: z.infer<typeof playlistPageSchema> = await this.request(playlistPageSchema, {
        url,
        ...(query ? { query } : {}),
      });
      for (const playlist of page.items) if (playlist) summaries.push(toSummary(playlist, me.id));
      url = page.next;
      query = undefined;
    }
    return summaries;
  }

  async getPlaylist(playlistId: string, options?: PlaylistReadOptions): Promise<PlaylistContents> {
    const collection = parseCollectionId(playlistId);
    if (collection?.kind === 'liked') return this.readLiked(options);
    if (collection?.kind === 'album') return this.readAlbum(collection.albumId, options);
    const me = await this.getCurrentUser();
    const market = this.options.market;
    const additionalTypes = 'track,episode';
    const playlist = await this.request(playlistWithItemsSchema, {
      url: `playlists/${encodeURIComponent(playlistId)}`,
      query: { market, additional_types: additionalTypes },
    });
    const itemsUrl = `playlists/${encodeURIComponent(playlistId)}/items`;
    const pageAt = (offset: number) =>
      this.request(playlistItemsPageSchema, {
        url: itemsUrl,
        query: { limit: PAGE_SIZE, offset, market, additional_types: additionalTypes },
      });
    const pages = new PagesInOrder(
      (page: z.infer<typeof playlistItemsPageSchema>) =>
        page.items.map((item, i) => toPlaylistEntry(item, page.offset + i)),
      options?.onEntries,
    );
    try {
      // The first page (up to 100 items, with the playlist where the reader may see them: a call saved)
      // tells the length; the others are asked a few at a time (each a call of its own, as one after
      // another), and kept in order.
      const embedded = firstItemsPage(playlist.items ?? playlist.tracks);
      const first = embedded ?? (await pageAt(0));
      let read = first.items.length;
      options?.onPage?.(read, first.total);
      pages.add(0, first);
      const offsets: number[] = [];
      if (first.items.length > 0) {
        for (let offset = first.items.length; offset < first.total; offset += PAGE_SIZE) offsets.push(offset);
      }
      await mapWithConcurrency([...offsets.entries()], PAGE_CONCURRENCY, async ([index, offset]) => {
        await options?.beforePage?.();
        const page = await pageAt(offset);
        read += page.items.length;
        options?.onPage?.(read, first.total);
        pages.add(index + 1, page);
      });
    } catch (error) {
      // Development mode keeps other people's playlists' items to themselves; a 403 on the person's own
      // playlist (or the owner-without-Premium 403) means something else and keeps its own message.
      if (
        error instanceof ProviderError &&
        error.kind === 'forbidden' &&
        this.options.mode === 'development' &&
        error.message !== OWNER_WITHOUT_PREMIUM_MESSAGE &&
        !toSummary(playlist, me.id).isOwned
      ) {
        throw new ProviderError('spotify', 'forbidden', DEVELOPMENT_MODE_SHARED_MESSAGE, error.status);
      }
      throw error;
    }
    const entries = pages.entries;
    return { playlist: { ...toSummary(playlist, me.id), trackCount: entries.length }, entries };
  }

  async searchTracks(
    query: TrackQuery,
    options?: { limit?: number; region?: string },
  ): Promise<NormalizedTrack[]> {
    const q = buildSearchQuery(query);
    if (q === '') return [];
    return this.search(q, options?.limit, options?.region);
  }

  async lookupIsrcs(isrcs: string[], options?: { region?: string }): Promise<Map<string, NormalizedTrack[]>> {
    const found = new Map<string, NormalizedTrack[]>();
    for (const isrc of isrcs) {
      const tracks = await this.search(`isrc:${isrc}`, undefined, options?.region);
      found.set(
        isrc,
        tracks.filter((track) => track.isrc === isrc.toUpperCase()),
      );
    }
    return found;
  }

  async getTrack(trackId: string, options?: { region?: string }): Promise<NormalizedTrack | null> {
    try {
      const track = await this.request(trackSchema, {
        url: `tracks/${encodeURIComponent(trackId)}`,
        query: { market: options?.region?.toUpperCase() },
      });
      return normalizeTrack(track);
    } catch (error) {
      if (error instanceof ProviderError && (error.kind === 'not_found' || error.kind === 'bad_request'))
        return null;
      throw error;
    }
  }

  async createPlaylist(name: string, description?: string): Promise<CreatedPlaylist> {
    const created = await this.request(createdPlaylistSchema, {
      method: 'POST',
      retryServerErrors: false,
      url: 'me/playlists',
      body: { name, public: false, ...(description ? { description } : {}) },
    });
    return {
      id: created.id,
      url: created.external_urls?.spotify ?? `https://open.spotify.com/playlist/${created.id}`,
    };
  }

  async addTracks(
    playlistId: string,
    uris: string[],
    onBatch?: (progress: AddTracksProgress) => void | Promise<void>,
    beforeBatch?: () => Promise<void>,
  ): Promise<void> {
    for (let start = 0; start < uris.length; start += ADD_BATCH) {
      const batch = uris.slice(start, start + ADD_BATCH);
      await beforeBatch?.();
      await this.request(snapshotSchema, {
        method: 'POST',
        retryServerErrors: false,
        url: `playlists/${encodeURIComponent(playlistId)}/items`,
        body: { uris: batch },
      });
      await onBatch?.({ added: start + batch.length, total: uris.length });
    }
  }

  /** Removes every occurrence of each uri (Spotify's rule), in batches of 100. */
  async removeTracks(playlistId: string, uris: string[]): Promise<void> {
    for (let start = 0; start < uris.length; start += ADD_BATCH) {
      const batch = uris.slice(start, start + ADD_BATCH);
      await this.request(snapshotSchema, {
        method: 'DELETE',
        retryServerErrors: false,
        url: `playlists/${encodeURIComponent(playlistId)}/items`,
        body: { items: batch.map((uri) => ({ uri })) },
      });
    }
  }

  async getAvailability(trackIds: string[], region: string): Promise<Map<string, boolean>> {
    const market = region.toUpperCase();
    const availability = new Map<string, boolean>();
    if (this.options.mode === 'extended') {
      for (let start = 0; start < trackIds.length; start += SEVERAL_TRACKS_BATCH) {
        const ids = trackIds.slice(start, start + SEVERAL_TRACKS_BATCH);
        const answer = await this.request(severalTracksSchema, {
          url: 'tracks',
          query: { ids: ids.join(','), market },
        });
        ids.forEach((id, i) => {
          const track = answer.tracks[i];
          availability.set(
            id,
            track ? (track.is_playable ?? track.available_markets?.includes(market) ?? false) : false,
          );
        });
      }
      return availability;
    }
    // Development mode has no batch lookup: one call per track.
    for (const id of trackIds) {
      const track = await this.getTrack(id, { region: market });
      availability.set(id, track?.availability?.playable ?? false);
    }
    return availability;
  }

  async readSharedPlaylist(ref: SharedPlaylistRef): Promise<PlaylistContents> {
    if (ref.service !== 'spotify') {
      throw new ProviderError('spotify', 'bad_request', 'That link is not a Spotify playlist.');
    }
    return this.getPlaylist(ref.id);
  }

  async listLibrary(): Promise<LibraryOverview> {
    const me = await this.getCurrentUser();
    const liked = await this.request(savedTracksPageSchema, { url: 'me/tracks', query: { limit: 1 } });
    const albums: LibraryOverview['albums'] = [];
    let url: string | null = 'me/albums';
    let query: RequestOptions['query'] = { limit: PAGE_SIZE, offset: 0 };
    while (url !== null) {
      const page: z.infer<typeof savedAlbumsPageSchema> = await this.request(savedAlbumsPageSchema, {
        url,
        ...(query ? { query } : {}),
      });
      for (const item of page.items) {
        const album = toLibraryAlbum(item.album);
        albums.push({ summary: albumSummary(album), album });
      }
      url = page.items.length === 0 ? null : page.next;
      query = undefined;
    }
    return { liked: likedSummary(liked.total, me), albums };
  }

  /** Liked Songs, newest first as Spotify lists them. */
  private async readLiked(options?: PlaylistReadOptions): Promise<PlaylistContents> {
    const me = await this.getCurrentUser();
    const entries: PlaylistEntry[] = [];
    let read = 0;
    let url: string | null = 'me/tracks';
    let query: RequestOptions['query'] = { limit: PAGE_SIZE, offset: 0, market: this.options.market };
    while (url !== null) {
      if (read > 0) await options?.beforePage?.();
      const page: z.infer<typeof savedTracksPageSchema> = await this.request(savedTracksPageSchema, {
        url,
        ...(query ? { query } : {}),
      });
      const fresh = page.items.map((item, i) => toPlaylistEntry(item, page.offset + i));
      read += fresh.length;
      if (!options?.entriesHeardOnly) for (const entry of fresh) entries.push(entry);
      options?.onPage?.(read, page.total);
      if (fresh.length > 0) options?.onEntries?.(fresh);
      url = page.items.length === 0 ? null : page.next;
      query = undefined;
    }
    return { playlist: likedSummary(read, me), entries };
  }

  /** A saved (or any catalog) album as a collection: its tracks in album order. */
  private async readAlbum(albumId: string, options?: PlaylistReadOptions): Promise<PlaylistContents> {
    const album = await this.request(albumObjectSchema, {
      url: `albums/${encodeURIComponent(albumId)}`,
      query: { market: this.options.market },
    });
    const ids = await this.albumTrackIds(album);
    const tracks = await this.fullTracks(
      ids.flatMap((id) => id ?? []),
      this.options.market,
    );
    let next = 0;
    const entries: PlaylistEntry[] = ids.map((id, position) => {
      const track = id === null ? null : (tracks[next++] ?? null);
      return track
        ? { position, kind: 'track', track }
        : { position, kind: 'skipped', reason: 'unavailable' };
    });
    options?.onPage?.(entries.length, entries.length);
    options?.onEntries?.(entries);
    const summary = albumSummary(toLibraryAlbum(album));
    return { playlist: { ...summary, trackCount: entries.length }, entries };
  }

  /**
   * Saves tracks to Liked Songs with PUT /me/library, at most 40 URIs a call (the 2026 rules). Each saved
   * track goes on top, in the order given: pass the oldest first to keep a newest-first list in order.
   * Saving is idempotent, so a batch repeated after a crash does no harm.
   */
  async saveTracks(
    uris: string[],
    onBatch?: (progress: AddTracksProgress) => void | Promise<void>,
    beforeBatch?: () => Promise<void>,
  ): Promise<void> {
    for (let start = 0; start < uris.length; start += LIBRARY_BATCH) {
      const batch = uris.slice(start, start + LIBRARY_BATCH);
      await beforeBatch?.();
      await this.saveToLibrary(batch);
      await onBatch?.({ added: start + batch.length, total: uris.length });
    }
  }

  async savedTracksContain(uris: string[]): Promise<boolean[]> {
    const contained: boolean[] = [];
    for (let start = 0; start < uris.length; start += LIBRARY_BATCH) {
      const batch = uris.slice(start, start + LIBRARY_BATCH);
      const answer = await this.request(libraryContainsSchema, {
        url: 'me/library/contains',
        query: { uris: batch.join(',') },
      });
      if (answer.length !== batch.length)
        throw new Error('Spotify answered a library check for other tracks');
      contained.push(...answer);
    }
    return contained;
  }

  async saveAlbums(albumIds: string[]): Promise<void> {
    const uris = albumIds.map((id) => (id.startsWith('spotify:album:') ? id : `spotify:album:${id}`));
    for (let start = 0; start < uris.length; start += LIBRARY_BATCH) {
      await this.saveToLibrary(uris.slice(start, start + LIBRARY_BATCH));
    }
  }

  private saveToLibrary(uris: string[]): Promise<undefined> {
    return this.http.request(null, {
      method: 'PUT',
      url: 'me/library',
      query: { uris: uris.join(',') },
      ...this.auth(),
    });
  }

  /** By UPC first (`upc:` search); when that finds nothing, by title and artist. */
  async findAlbums(
    query: AlbumQuery,
    options?: { region?: string; limit?: number },
  ): Promise<LibraryAlbum[]> {
    const max = this.options.mode === 'development' ? SEARCH_LIMIT_DEVELOPMENT : SEARCH_LIMIT_EXTENDED;
    const limit = Math.max(1, Math.min(options?.limit ?? max, max));
    const market = (options?.region ?? this.options.market)?.toUpperCase();
    const search = async (q: string) => {
      const answer = await this.request(albumSearchSchema, {
        url: 'search',
        query: { q, type: 'album', limit, market },
      });
      return answer.albums.items.map(toLibraryAlbum);
    };
    const upc = query.upc?.replace(/\D/g, '');
    if (upc) {
      // Search results carry no external ids: the `upc:` filter itself vouches for the UPC.
      const found = (await search(`upc:${upc}`)).map((album) => ({ ...album, upc }));
      if (found.length > 0 || !query.title?.trim()) return found;
    }
    const parts: string[] = [];
    if (query.title?.trim()) parts.push(`album:${quoted(query.title)}`);
    if (query.artist?.trim()) parts.push(`artist:${quoted(query.artist)}`);
    return parts.length === 0 ? [] : search(parts.join(' '));
  }

  /**
   * An album's tracks in album order, with ISRCs: GET /albums/{id} (and its track pages) lists them without
   * ISRCs, so each track is read in full (in development mode one GET /tracks/{id} each, the batch lookup
   * being gone; with extended quota 50 per GET /tracks). Tracks Spotify cannot return are left out.
   */
  async getAlbumTracks(albumId: string, options?: { region?: string }): Promise<NormalizedTrack[]> {
    const market = (options?.region ?? this.options.market)?.toUpperCase();
    const album = await this.request(albumObjectSchema, {
      url: `albums/${encodeURIComponent(albumId)}`,
      query: { market },
    });
    const ids = await this.albumTrackIds(album);
    const tracks = await this.fullTracks(
      ids.flatMap((id) => id ?? []),
      market,
    );
    return tracks.flatMap((track) => track ?? []);
  }

  /** Every track id of an album in order (null where Spotify sent no id), following its track pages. */
  private async albumTrackIds(album: SpotifyAlbum): Promise<(string | null)[]> {
    const ids: (string | null)[] = [];
    const add = (items: unknown[]) => {
      for (const item of items) {
        const parsed = simplifiedTrackSchema.safeParse(item);
        ids.push(parsed.success ? parsed.data.id : null);
      }
    };
    add(album.tracks.items);
    let url = album.tracks.items.length === 0 ? null : album.tracks.next;
    while (url !== null) {
      const page: z.infer<typeof savedTracksPageSchema> = await this.request(savedTracksPageSchema, { url });
      add(page.items);
      url = page.items.length === 0 ? null : page.next;
    }
    return ids;
  }

  /** Full tracks for these ids, in order (null for one Spotify could not return). */
  private async fullTracks(ids: string[], market: string | undefined): Promise<(NormalizedTrack | null)[]> {
    if (this.options.mode === 'extended') {
      const tracks: (NormalizedTrack | null)[] = [];
      for (let start = 0; start < ids.length; start += SEVERAL_TRACKS_BATCH) {
        const answer = await this.request(severalTracksSchema, {
          url: 'tracks',
          query: { ids: ids.slice(start, start + SEVERAL_TRACKS_BATCH).join(','), market },
        });
        tracks.push(...answer.tracks.map((track) => (track ? normalizeTrack(track) : null)));
      }
      return tracks;
    }
    const tracks: (NormalizedTrack | null)[] = [];
    for (const id of ids) tracks.push(await this.getTrack(id, market ? { region: market } : {}));
    return tracks;
  }

  /**
   * The person's country when `/me` leaves it out (development mode): Spotify answers a `market=from_token`
   * search in the token user's country and names it in the answer's `href`. Undefined when it does not.
   */
  async detectCountry(): Promise<string | undefined> {
    const answer = await this.request(searchSchema, {
      url: 'search',
      query: { q: 'love', type: 'track', limit: 1, market: 'from_token' },
    });
    const href = answer.tracks.href;
    const market = href && URL.canParse(href) ? new URL(href).searchParams.get('market') : null;
    return market && /^[A-Z]{2}$/.test(market) ? market : undefined;
  }

  private async search(q: string, limit: number | undefined, region: string | undefined) {
    const max = this.options.mode === 'development' ? SEARCH_LIMIT_DEVELOPMENT : SEARCH_LIMIT_EXTENDED;
    const answer = await this.request(searchSchema, {
      url: 'search',
      query: {
        q,
        type: 'track',
        limit: Math.max(1, Math.min(limit ?? max, max)),
        market: (region ?? this.options.market)?.toUpperCase(),
      },
    });
    // Spotify lists some tracks it cannot play in the market (`is_playable: false`); nobody can use them.
    return answer.tracks.items
      .flatMap((track) => normalizeTrack(track) ?? [])
      .filter((track) => track.availability?.playable !== false);
  }
}

function toSummary(playlist: SpotifySimplifiedPlaylist, myId: string): PlaylistSummary {
  const imageUrl = playlist.images?.[0]?.url;
  const url = playlist.external_urls?.spotify;
  return {
    id: playlist.id,
    name: playlist.name,
    ...(playlist.description ? { description: playlist.description } : {}),
    ...(imageUrl ? { imageUrl } : {}),
    trackCount: playlist.items?.total ?? playlist.tracks?.total ?? 0,
    ownerId: playlist.owner.id,
    ...(playlist.owner.display_name ? { ownerName: playlist.owner.display_name } : {}),
    isOwned: playlist.owner.id === myId || playlist.collaborative === true,
    ...(url ? { url } : {}),
    ...(playlist.snapshot_id ? { changeMarker: playlist.snapshot_id } : {}),
  };
}

function toLibraryAlbum(album: SpotifySimplifiedAlbum): LibraryAlbum {
  const imageUrl = album.images?.[0]?.url;
  const url = album.external_urls?.spotify;
  const upc = album.external_ids?.upc;
  return {
    id: album.id,
    name: album.name,
    artists: album.artists.map((artist) => artist.name),
    trackCount: album.total_tracks,
    ...(upc ? { upc } : {}),
    ...(album.release_date ? { releaseDate: album.release_date } : {}),
    ...(imageUrl ? { imageUrl } : {}),
    ...(url ? { url } : {}),
  };
}

function likedSummary(trackCount: number, me: ProviderUser): PlaylistSummary {
  return {
    id: LIKED_SONGS_ID,
    name: LIKED_SONGS_NAME.spotify,
    trackCount,
    ownerId: me.id,
    ...(me.displayName ? { ownerName: me.displayName } : {}),
    isOwned: true,
  };
}
