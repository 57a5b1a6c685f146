import { z } from 'zod';
import { serviceIdSchema } from '../services';
import { text } from '../text';

/** Spec section 9: the merged preview shows 8 tracks; bridge track ids start with this prefix. */
export const MERGE_PREVIEW_COUNT = 8;
export const BRIDGE_TRACK_PREFIX = 'bt-';
export const MIX_RATIO_STEP = 10;
export const DEFAULT_MIX_RATIO: [number, number] = [50, 50];
/** How long a friend-merge invitation link stays valid. */
export const INVITATION_TTL_DAYS = 14;

export const MERGE_MESSAGES = {
  bothPlaylists: "Please select both your playlist and your friend's playlist",
  ratioRange: 'The mix ratio must be two numbers from 0 to 100 that add up to 100.',
  missingInvite: "Please select a playlist and enter your friend's email",
} as const;

const percent = z
  .number({ error: MERGE_MESSAGES.ratioRange })
  .min(0, MERGE_MESSAGES.ratioRange)
  .max(100, MERGE_MESSAGES.ratioRange);

/**
 * POST /api/claude/merge-playlists.
 * - `userPlaylistId`: the person's own playlist, as `<service>:<playlistId>` (`spotify:37i9…`), or the plain
 *   id with `userService`; with neither, the first connected service is used.
 * - `friendPlaylistId`: the friend's playlist as /api/fetch-friend-playlist answered it: `<service>:<id>`,
 *   the plain `id` with `friendService`, or the share URL itself.
 */
export const mergePlaylistsRequestSchema = z.object({
  userPlaylistId: text().trim().max(300).default(''),
  userService: serviceIdSchema.optional(),
  friendPlaylistId: text().trim().max(2048).default(''),
  friendService: serviceIdSchema.optional(),
  mixRatio: z
    .tuple([percent, percent], { error: MERGE_MESSAGES.ratioRange })
    .refine(([you, friend]) => Math.abs(you + friend - 100) < 1e-9, MERGE_MESSAGES.ratioRange)
    .default(DEFAULT_MIX_RATIO),
  includeBridgeTracks: z.boolean().default(true),
});
export type MergePlaylistsRequest = z.input<typeof mergePlaylistsRequestSchema>;

export const mergeSourceSchema = z.enum(['you', 'friend', 'both', 'bridge']);
export type MergeSource = z.infer<typeof mergeSourceSchema>;

export const mergedTrackSchema = z.object({
  id: text(),
  name: text(),
  artists: z.array(text()),
  album: text().optional(),
  source: mergeSourceSchema.optional(),
  service: serviceIdSchema.optional(),
});
export type MergedTrack = z.infer<typeof mergedTrackSchema>;

/**
 * Who wrote a merge's insight: `anthropic` when a model did (the UI says "AI Insight"), `local` when rules
 * wrote it from the two playlists' overlap. Absent on merges stored before the server recorded it.
 */
export const insightWriterSchema = z.enum(['anthropic', 'local']);
export type InsightWriter = z.infer<typeof insightWriterSchema>;

export const mergePlaylistsResponseSchema = z.object({
  playlistName: text(),
  tracks: z.array(mergedTrackSchema),
  insightSummary: text(),
  insightWrittenBy: insightWriterSchema.optional(),
  newPlaylistId: text(),
});
export type MergePlaylistsResponse = z.infer<typeof mergePlaylistsResponseSchema>;

/** POST /api/save-playlist (spec: playlistName, tracks as ids); `newPlaylistId` and `service` say where from and to. */
export const savePlaylistRequestSchema = z.object({
  playlistName: text().trim().min(1, 'Please give the playlist a name').max(200),
  tracks: z.array(text().min(1).max(300)).min(1, 'There are no tracks to save').max(1000),
  newPlaylistId: text().max(100).optional(),
  service: serviceIdSchema.optional(),
});
export type SavePlaylistRequest = z.input<typeof savePlaylistRequestSchema>;
export const savePlaylistResponseSchema = z.object({
  playlistId: text(),
  url: text(),
  saved: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
});
export type SavePlaylistResponse = z.infer<typeof savePlaylistResponseSchema>;

/** GET /api/merged-playlists/:id (public). */
export const mergedPlaylistSchema = z.object({
  id: text(),
  name: text(),
  tracks: z.array(mergedTrackSchema),
  insightSummary: text(),
  insightWrittenBy: insightWriterSchema.optional(),
  mixRatio: z.tuple([z.number(), z.number()]),
  createdAt: text(),
  yourPlaylist: z.object({ name: text(), owner: text() }).optional(),
  friendPlaylist: z.object({ name: text(), owner: text() }).optional(),
  /** Whether anyone may copy it into their library with save-playlist (decision 0012); private by default. */
  public: z.boolean().optional(),
  /** Whether the signed-in viewer made it (may make it public or private again). */
  yours: z.boolean().optional(),
  /** Whether the signed-in viewer may copy it with save-playlist (owner, invited friend, or public). */
  canCopy: z.boolean().optional(),
});
export type MergedPlaylist = z.infer<typeof mergedPlaylistSchema>;

/** PATCH /api/merged-playlists/:id (its owner only): make the merge copyable by anyone, or private again. */
export const updateMergedPlaylistRequestSchema = z.object({
  public: z.boolean({ error: '`public` must be true or false.' }),
});
export type UpdateMergedPlaylistRequest = z.input<typeof updateMergedPlaylistRequestSchema>;

/** POST /api/merge/invitations */
export const createInvitationRequestSchema = z.object({
  playlistId: text().trim().max(300).default(''),
  service: serviceIdSchema.optional(),
  friendEmail: text().trim().max(320).default(''),
});
export type CreateInvitationRequest = z.input<typeof createInvitationRequestSchema>;
export const createInvitationResponseSchema = z.object({
  id: text(),
  inviteUrl: text(),
  expiresAt: text(),
  /** False when the e-mail could not be sent; the link still works and is shown to copy. */
  emailSent: z.boolean(),
});
export type CreateInvitationResponse = z.infer<typeof createInvitationResponseSchema>;

export const invitationStatusSchema = z.enum(['pending', 'merged', 'expired']);

/** GET /api/merge/invitations/:token (public: what the friend sees). */
export const invitationViewSchema = z.object({
  inviterName: text(),
  playlistName: text(),
  trackCount: z.number().int().nonnegative(),
  status: invitationStatusSchema,
  mergedPlaylistId: text().nullable(),
  expiresAt: text(),
});
export type InvitationView = z.infer<typeof invitationViewSchema>;

/** POST /api/merge/invitations/:token/accept: the friend's own playlist, or a share URL. */
export const acceptInvitationRequestSchema = z.object({
  playlistId: text().trim().max(300).optional(),
  service: serviceIdSchema.optional(),
  shareUrl: text().trim().max(2048).optional(),
});
export type AcceptInvitationRequest = z.input<typeof acceptInvitationRequestSchema>;

/** GET /api/merge/invitations: the inviter's invitations. */
export const invitationSummarySchema = z.object({
  id: text(),
  friendEmail: text(),
  playlistName: text(),
  status: invitationStatusSchema,
  mergedPlaylistId: text().nullable(),
  createdAt: text(),
  expiresAt: text(),
});
export type InvitationSummary = z.infer<typeof invitationSummarySchema>;
export const invitationListSchema = z.array(invitationSummarySchema);
