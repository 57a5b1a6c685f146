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
  TrackQuery,
} from '../types';
import {
  DEVELOPMENT_MODE_SHARED_MESSAGE,
  describeSpotifyError,
  OWNER_WITHOUT_PREMIUM_MESSAGE,
} from './errors';
import { normalizeTrack, toPlaylistEntry } from './normalize';
import {
  createdPlaylistSchema,
  playlistItemsPageSchema,
  playlistPageSchema,
  type SpotifySimplifiedPlaylist,
  searchSchema,
  severalTracksSchema,
  simplifiedPlaylistSchema,
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
    >
  >;
}

const PAGE_SIZE = 50;
const ADD_BATCH = 100;
const SEARCH_LIMIT_DEVELOPMENT = 10;
const SEARCH_LIMIT_EXTENDED = 50;
const SEVERAL_TRACKS_BATCH = 50;

/** A query value inside `field:"…"`: Spotify's syntax has no escape for a double quote, so drop it. */
const quoted = (value: string) => `"${value.replace(/"/g, ' ').replace(/\s+/g, ' ').trim()}"`;

export function buildSearchQuery(query: TrackQuery): string {
  const parts: string[] = [];
  if (query.title?.trim()) parts.push(`track:${quoted(query.title)}`);
  if (query.artist?.trim()) parts.push(`artist:${quoted(query.artist)}`);
  if (query.album?.trim()) parts.push(`album:${quoted(query.album)}`);
  if (query.text?.trim()) parts.push(query.text.trim());
  return parts.join(' ');
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

  async getPlaylist(playlistId: string): Promise<PlaylistContents> {
    const me = await this.getCurrentUser();
    const market = this.options.market;
    const playlist = await this.request(simplifiedPlaylistSchema, {
      url: `playlists/${encodeURIComponent(playlistId)}`,
      query: { market },
    });
    const entries: PlaylistEntry[] = [];
    let url: string | null = `playlists/${encodeURIComponent(playlistId)}/items`;
    let query: RequestOptions['query'] = {
      limit: PAGE_SIZE,
      offset: 0,
      market,
      additional_types: 'track,episode',
    };
    try {
      while (url !== null) {
        const page: z.infer<typeof playlistItemsPageSchema> = await this.request(playlistItemsPageSchema, {
          url,
          ...(query ? { query } : {}),
        });
        page.items.forEach((item, i) => {
          entries.push(toPlaylistEntry(item, page.offset + i));
        });
        // A page shorter than asked with a `next` would loop forever on a broken server; trust offsets.
        url = page.items.length === 0 ? null : page.next;
        query = undefined;
      }
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
  ): Promise<void> {
    for (let start = 0; start < uris.length; start += ADD_BATCH) {
      const batch = uris.slice(start, start + ADD_BATCH);
      await this.request(snapshotSchema, {
        method: 'POST',
        retryServerErrors: false,
        url: `playlists/${encodeURIComponent(playlistId)}/items`,
        body: { uris: batch },
      });
      await onBatch?.({ added: start + batch.length, total: uris.length });
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
    return answer.tracks.items.flatMap((track) => normalizeTrack(track) ?? []);
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
  };
}
