import { z } from 'zod';
import type { MergedPlaylist, MergedTrack, MergePlaylistsResponse } from '../../shared/api/merge';
import type { MergeInsightInput } from '../ai/engine';
import type { AppDeps } from '../app-context';
import { isUuid } from '../db/uuid';
import { badRequest, notFound } from '../domain-errors';
import type { MusicProvider, NormalizedTrack } from '../providers/types';
import { bridgeQueries, type MergeResult, mergePlaylists } from './merge-playlists';
import {
  findInvitationParties,
  findMergedPlaylist,
  insertMergedPlaylist,
  listRecentMergedTracks,
  setMergedPlaylistPublic,
} from './merge-store';
import type { LoadedSide } from './playlist-refs';

/** What a merged_playlists row keeps per track: enough to show it and to save it to either service. */
export const storedTrackSchema = z.object({
  id: z.string(),
  name: z.string(),
  artists: z.array(z.string()),
  album: z.string(),
  source: z.enum(['you', 'friend', 'both', 'bridge']),
  service: z.enum(['spotify', 'apple']),
  trackId: z.string(),
  uri: z.string(),
  durationMs: z.number(),
  isrc: z.string().optional(),
  explicit: z.boolean().optional(),
});
export type StoredTrack = z.infer<typeof storedTrackSchema>;

const sideSummarySchema = z.object({ name: z.string(), owner: z.string() }).partial();
const storedSourcesSchema = z.object({ you: sideSummarySchema, friend: sideSummarySchema }).partial();

const SEARCH_LIMIT = 10;

async function searchBridgeCandidates(
  provider: MusicProvider,
  you: readonly NormalizedTrack[],
  friend: readonly NormalizedTrack[],
): Promise<NormalizedTrack[]> {
  const found: NormalizedTrack[] = [];
  for (const query of bridgeQueries(you, friend)) {
    const tracks = await provider.searchTracks(query, { limit: SEARCH_LIMIT });
    // A bridge by a shared artist must really be theirs, not a search's loose neighbour.
    found.push(...(query.artist ? tracks.filter((t) => t.artists.includes(query.artist ?? '')) : tracks));
  }
  return found;
}

export interface CreateMergeInput {
  ownerId: string | null;
  you: LoadedSide;
  friend: LoadedSide;
  mixRatio: [number, number];
  includeBridgeTracks: boolean;
  /** Where bridge tracks are searched: the merging person's own service. */
  searchProvider: MusicProvider | null;
  invitationId?: string;
}

export interface CreatedMerge {
  response: MergePlaylistsResponse;
  result: MergeResult;
  /** The same merge told to the friend: they are "you", the inviter is the friend (invitation merges). */
  forFriend: () => Promise<MergePlaylistsResponse>;
}

/**
 * What the insight may say, from one reader's point of view. Every number is the merged list's own: the
 * songs marked "both" out of the tracks on the page.
 */
function insightInput(
  result: MergeResult,
  totalTracks: number,
  input: Pick<CreateMergeInput, 'you' | 'friend' | 'mixRatio'>,
  reader: 'you' | 'friend',
): MergeInsightInput {
  const mine = reader === 'you';
  const { overlap } = result;
  return {
    yourName: mine ? input.you.owner : input.friend.owner,
    friendName: mine ? input.friend.owner : input.you.owner,
    sharedArtists: overlap.sharedArtists,
    sharedGenres: overlap.sharedGenres,
    yourTopGenres: mine ? overlap.yourTopGenres : overlap.friendTopGenres,
    friendTopGenres: mine ? overlap.friendTopGenres : overlap.yourTopGenres,
    overlapTrackCount: overlap.overlapTrackCount,
    totalTracks,
    mixRatio: mine ? input.mixRatio : [input.mixRatio[1], input.mixRatio[0]],
    bridgeTrackCount: result.counts.bridge,
  };
}

const SWAPPED_SOURCE = { you: 'friend', friend: 'you', both: 'both', bridge: 'bridge' } as const;

export async function createMerge(deps: AppDeps, input: CreateMergeInput): Promise<CreatedMerge> {
  const { you, friend } = input;
  if (you.tracks.length === 0 || friend.tracks.length === 0) {
    const empty = you.tracks.length === 0 ? you : friend;
    throw badRequest(
      `"${empty.name}" has no tracks to merge. Pick a playlist with songs in it, or add some first.`,
    );
  }
  let bridgeCandidates: NormalizedTrack[] = [];
  if (input.includeBridgeTracks && input.searchProvider) {
    try {
      bridgeCandidates = await searchBridgeCandidates(input.searchProvider, you.tracks, friend.tracks);
    } catch (error) {
      // Bridges are a bonus: a failed search still gives the person their merge.
      deps.logger.warn({ err: error }, 'bridge track search failed');
    }
  }
  const result = mergePlaylists({
    you: you.tracks,
    friend: friend.tracks,
    mixRatio: input.mixRatio,
    includeBridgeTracks: input.includeBridgeTracks,
    bridgeCandidates,
  });
  const serviceOf = (side: string) =>
    side === 'you' || side === 'both'
      ? you.service
      : side === 'friend'
        ? friend.service
        : (input.searchProvider?.service ?? you.service);
  const stored: StoredTrack[] = result.entries.map((entry) => ({
    id: entry.id,
    name: entry.track.name,
    artists: entry.track.artists,
    album: entry.track.album,
    source: entry.source,
    service: serviceOf(entry.side),
    trackId: entry.track.id,
    uri: entry.track.uri,
    durationMs: entry.track.durationMs,
    ...(entry.track.isrc ? { isrc: entry.track.isrc } : {}),
    ...(entry.track.explicit !== undefined ? { explicit: entry.track.explicit } : {}),
  }));
  const insight = await deps.ai.mergeInsight(insightInput(result, stored.length, input, 'you'));
  // The merged playlist's page is read by its owner, the friend and visitors: it names both people.
  const publicInsight = await deps.ai.mergeInsight({
    ...insightInput(result, stored.length, input, 'you'),
    audience: 'public',
  });
  const newPlaylistId = await insertMergedPlaylist(deps.db, {
    userId: input.ownerId,
    name: insight.playlistName,
    tracks: stored,
    insightSummary: publicInsight.insightSummary,
    insightWrittenBy: publicInsight.writtenBy,
    mixRatio: input.mixRatio,
    sources: {
      you: { service: you.service, playlistId: you.playlistId, name: you.name, owner: you.owner },
      friend: {
        service: friend.service,
        playlistId: friend.playlistId,
        name: friend.name,
        owner: friend.owner,
      },
    },
    invitationId: input.invitationId ?? null,
  });
  return {
    result,
    response: {
      playlistName: insight.playlistName,
      tracks: stored.map(toMergedTrack),
      insightSummary: insight.insightSummary,
      insightWrittenBy: insight.writtenBy,
      newPlaylistId,
    },
    forFriend: async () => {
      const told = await deps.ai.mergeInsight(insightInput(result, stored.length, input, 'friend'));
      return {
        // The saved playlist keeps its one name; only the words addressed to the reader change.
        playlistName: insight.playlistName,
        tracks: stored.map((track) => ({ ...toMergedTrack(track), source: SWAPPED_SOURCE[track.source] })),
        insightSummary: told.insightSummary,
        insightWrittenBy: told.writtenBy,
        newPlaylistId,
      };
    },
  };
}

const toMergedTrack = (track: StoredTrack): MergedTrack => ({
  id: track.id,
  name: track.name,
  artists: track.artists,
  album: track.album,
  source: track.source,
  service: track.service,
});

const MISSING = 'That merged playlist does not exist.';

export async function loadMergedRow(deps: AppDeps, id: string) {
  const row = isUuid(id) ? await findMergedPlaylist(deps.db, id) : undefined;
  if (!row) throw notFound(MISSING);
  return { ...row, tracks: z.array(storedTrackSchema).parse(row.tracks) };
}

/** The merged page; `viewerId` (the signed-in person, if any) decides `yours` and `canCopy`. */
export async function publicMergedPlaylist(
  deps: AppDeps,
  id: string,
  viewerId?: string,
): Promise<MergedPlaylist> {
  const row = await loadMergedRow(deps, id);
  const sources = storedSourcesSchema.safeParse(row.sources);
  const side = (value: { name?: string | undefined; owner?: string | undefined } | undefined) =>
    value?.name ? { name: value.name, owner: value.owner ?? '' } : undefined;
  const yourSide = sources.success ? side(sources.data.you) : undefined;
  const friendSide = sources.success ? side(sources.data.friend) : undefined;
  return {
    id: row.id,
    name: row.name,
    tracks: row.tracks.map(toMergedTrack),
    insightSummary: row.insightSummary,
    ...(row.insightWrittenBy ? { insightWrittenBy: row.insightWrittenBy } : {}),
    mixRatio: row.mixRatio,
    createdAt: row.createdAt.toISOString(),
    ...(yourSide ? { yourPlaylist: yourSide } : {}),
    ...(friendSide ? { friendPlaylist: friendSide } : {}),
    public: row.public,
    yours: viewerId !== undefined && row.userId === viewerId,
    canCopy: viewerId !== undefined && (await mayCopy(deps, row, viewerId)),
  };
}

/**
 * Whether this person may copy the merge into their library (decision 0012): its owner, the friend who
 * answered the invitation it came from, or anyone when the owner made it public. Others get the same 404 as
 * for a merge that does not exist, so ids cannot be probed.
 */
export async function loadCopyableMerge(deps: AppDeps, id: string, userId: string) {
  const row = await loadMergedRow(deps, id);
  if (await mayCopy(deps, row, userId)) return row;
  throw notFound(MISSING);
}

async function mayCopy(
  deps: AppDeps,
  row: { public: boolean; userId: string | null; invitationId: string | null },
  userId: string,
) {
  if (row.public || row.userId === userId) return true;
  if (!row.invitationId) return false;
  const invitation = await findInvitationParties(deps.db, row.invitationId);
  return invitation !== undefined && (invitation.inviterId === userId || invitation.friendUserId === userId);
}

/** PATCH /api/merged-playlists/:id: only the owner may change it; to anyone else it does not exist. */
export async function setMergePublic(deps: AppDeps, id: string, userId: string, isPublic: boolean) {
  const row = await loadMergedRow(deps, id);
  if (row.userId !== userId) throw notFound(MISSING);
  await setMergedPlaylistPublic(deps.db, row.id, isPublic);
  return publicMergedPlaylist(deps, row.id, userId);
}

/** The person's latest merge holding every one of these ids (save-playlist called with ids alone). */
export async function findMergeWithTracks(deps: AppDeps, userId: string, ids: readonly string[]) {
  const rows = await listRecentMergedTracks(deps.db, userId, 20);
  const match = rows.find((row) => {
    const have = new Set(
      z
        .array(storedTrackSchema)
        .parse(row.tracks)
        .map((track) => track.id),
    );
    return ids.every((id) => have.has(id));
  });
  if (!match) throw notFound('Those tracks are not part of any of your merged playlists.');
  return match.id;
}
