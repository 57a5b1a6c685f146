import type { z } from 'zod';
import { HttpClient, type HttpClientOptions, ProviderError, type RequestOptions } from '../http';
import type {
  AddTracksProgress,
  CreatedPlaylist,
  MusicProvider,
  NormalizedTrack,
  PlaylistContents,
  PlaylistEntry,
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
  type AppleLibraryPlaylist,
  type AppleSong,
  catalogPlaylistResponseSchema,
  catalogTracksPageSchema,
  createdPlaylistResponseSchema,
  errorResponseSchema,
  isrcSongsResponseSchema,
  libraryPlaylistResponseSchema,
  libraryPlaylistsPageSchema,
  librarySongSchema,
  libraryTracksPageSchema,
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

export interface AppleMusicProviderOptions {
  /** `https://api.music.apple.com/v1`, or the sandbox's `<origin>/sandbox/apple/v1`. */
  apiBaseUrl: string;
  developerToken: DeveloperTokenSource;
  /** The person's Music User Token; library calls fail with `reconnect_required` without one. */
  musicUserToken?: () => Promise<string>;
  /** The person's storefront when known; otherwise read from `/me/storefront` (or `us` without a MUT). */
  storefront?: string;
  onRateLimit?: RateLimitListener;
  /** How long library writes may take to show in reads (default APPLE_WRITE_SETTLE_MS). */
  writeSettleMs?: number;
  /** Test and tuning knobs of the shared HTTP layer (fast `sleep`, `backoffBaseMs`, `fetchImpl`, …). */
  http?: Partial<Omit<HttpClientOptions, 'service' | 'baseUrl' | 'describeError' | 'onRateLimit'>>;
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
export class AppleMusicProvider implements MusicProvider {
  readonly service = 'apple' as const;
  readonly addBatchSize = PAGE_SIZE;
  readonly isrcBatchSize = ISRC_BATCH;
  readonly appendOnly = APPLE_PLAYLISTS_APPEND_ONLY;
  readonly writeSettleMs: number;
  readonly http: HttpClient;
  private storefrontId: Promise<string> | undefined;

  constructor(private readonly options: AppleMusicProviderOptions) {
    this.writeSettleMs = options.writeSettleMs ?? APPLE_WRITE_SETTLE_MS;
    this.http = new HttpClient({
      ...options.http,
      service: 'apple',
      baseUrl: options.apiBaseUrl,
      onRateLimit: options.onRateLimit,
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

  async listPlaylists(): Promise<PlaylistSummary[]> {
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
    // Library playlists carry no track count, so each is asked for its total (one small call each).
    const counts = await mapWithConcurrency(playlists, COUNT_CONCURRENCY, (playlist) =>
      this.countTracks(playlist.id),
    );
    return playlists.map((playlist, index) => librarySummary(playlist, counts[index] ?? 0));
  }

  async getPlaylist(playlistId: string): Promise<PlaylistContents> {
    const answer = await this.library(libraryPlaylistResponseSchema, {
      url: `me/library/playlists/${encodeURIComponent(playlistId)}`,
    });
    const playlist = answer.data[0];
    if (!playlist)
      throw new ProviderError('apple', 'not_found', 'Apple Music could not find that playlist.', 404);
    const entries: PlaylistEntry[] = [];
    let url: string | undefined = `me/library/playlists/${encodeURIComponent(playlistId)}/tracks`;
    while (url) {
      // An empty playlist answers 404 on its tracks: that is an empty result, not an error.
      const page: z.infer<typeof libraryTracksPageSchema> = await this.orEmpty(
        this.library(libraryTracksPageSchema, { url, query: { limit: PAGE_SIZE, include: 'catalog' } }),
        { data: [] },
      );
      for (const item of page.data) entries.push(libraryEntry(item, entries.length));
      url = page.next;
    }
    return { playlist: librarySummary(playlist, entries.length), entries };
  }

  async searchTracks(
    query: TrackQuery,
    options?: { limit?: number; region?: string },
  ): Promise<NormalizedTrack[]> {
    const term = (query.text ?? [query.title, query.artist, query.album].filter(Boolean).join(' ')).trim();
    if (term === '') return [];
    const storefront = await this.region(options?.region);
    const limit = Math.min(Math.max(1, Math.floor(options?.limit ?? 10)), MAX_SEARCH_LIMIT);
    const answer = await this.catalog(searchResponseSchema, {
      url: `catalog/${storefront}/search`,
      query: { term, types: 'songs', limit },
    });
    return (answer.results.songs?.data ?? []).map(songToTrack);
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

  async createPlaylist(name: string, description?: string): Promise<CreatedPlaylist> {
    const answer = await this.library(createdPlaylistResponseSchema, {
      method: 'POST',
      retryServerErrors: false,
      url: 'me/library/playlists',
      body: { attributes: { name, ...(description ? { description } : {}) } },
    });
    const created = answer.data[0];
    if (!created)
      throw new ProviderError('apple', 'malformed', 'Apple Music did not return the new playlist.');
    return { id: created.id, url: libraryUrl(created.id) };
  }

  async addTracks(
    playlistId: string,
    uris: string[],
    onBatch?: (progress: AddTracksProgress) => void | Promise<void>,
  ): Promise<void> {
    let added = 0;
    for (const batch of chunk(uris, PAGE_SIZE)) {
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
        ...(attributes.url ? { url: attributes.url } : {}),
      },
      entries,
    };
  }

  /**
   * One small call when Apple sends `meta.total`; when it does not (it is not guaranteed), the pages are
   * counted, since the length of a one-item page says nothing about the playlist.
   */
  private async countTracks(playlistId: string): Promise<number> {
    const first = await this.orEmpty(
      this.library(libraryTracksPageSchema, {
        url: `me/library/playlists/${encodeURIComponent(playlistId)}/tracks`,
        query: { limit: 1 },
      }),
      { data: [] },
    );
    if (first.meta?.total !== undefined) return first.meta.total;
    let count = first.data.length;
    let url = first.next;
    while (url) {
      const page = await this.library(libraryTracksPageSchema, { url, query: { limit: PAGE_SIZE } });
      count += page.data.length;
      url = page.data.length === 0 ? undefined : page.next;
    }
    return count;
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

function librarySummary(playlist: AppleLibraryPlaylist, trackCount: number): PlaylistSummary {
  const { attributes } = playlist;
  const description = attributes.description?.standard ?? attributes.description?.short;
  return {
    id: playlist.id,
    name: attributes.name,
    ...(description ? { description } : {}),
    ...(attributes.artwork ? { imageUrl: artworkUrl(attributes.artwork.url, 300) } : {}),
    trackCount,
    // Only playlists the person can edit accept additions; Apple calls the others not editable.
    isOwned: attributes.canEdit ?? true,
    url: libraryUrl(playlist.id),
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
  attributes?: { name?: string; artistName?: string; albumName?: string; durationInMillis?: number };
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

const libraryUrl = (id: string) => `https://music.apple.com/library/playlist/${id}`;

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

function chunk<T>(items: T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size));
  return batches;
}

async function mapWithConcurrency<T, R>(
  items: T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      const item = items[index];
      if (item !== undefined) results[index] = await work(item);
    }
  });
  await Promise.all(workers);
  return results;
}
