import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { NormalizedTrack, PlaylistEntry } from '../providers/types';
import type {
  BatchItemRecord,
  CachedLookup,
  JobProgress,
  LibrarySaveRecord,
  StoredAlbumMatch,
  StoredCandidate,
  SyncedRecording,
  SyncRunWrites,
  SyncTrackRecord,
  TwoWayBase,
  VerificationMissing,
} from './stored-json';

/**
 * The database schema. Migrations in ./migrations are generated from this file (`npm run db:generate`),
 * reviewed and committed; both PGlite and PostgreSQL run the same ones at start-up.
 * Every row that belongs to a person references `users` with ON DELETE CASCADE, so deleting an account
 * removes everything of theirs in one statement.
 */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    plan: text('plan', { enum: ['free', 'pro', 'vault'] })
      .notNull()
      .default('free'),
    /** Lets other people see this person's taste graph and timeline. */
    publicProfile: boolean('public_profile').notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('users_username_key').on(sql`lower(${table.username})`),
    uniqueIndex('users_email_key').on(sql`lower(${table.email})`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the cookie's token: a database leak does not hand out live sessions. */
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

/**
 * Rate-limit counters (security/rate-limit.ts), failed sign-ins included: one row per limit, hashed key
 * and slot (a tenth of the limit's rolling window), plus one anchor row per key whose lock serialises its
 * takes, so every process shares them. Rows whose window has passed are deleted.
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    bucket: text('bucket').notNull(),
    keyHash: text('key_hash').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.bucket, table.keyHash, table.windowStart] }),
    index('rate_limit_counters_expires_idx').on(table.expiresAt),
  ],
);

/**
 * A service's learned rate budget, shared by every process of one app on PostgreSQL (decision 0029):
 * one row per service and app (Spotify client id, Apple developer key). `budget` is null until the service
 * first refuses a call, and is forgotten `relearn` after `learned_at`.
 */
export const rateBudgets = pgTable(
  'rate_budgets',
  {
    service: text('service').notNull(),
    app: text('app').notNull(),
    budget: integer('budget'),
    learnedAt: timestamp('learned_at', { withTimezone: true }),
    /**
     * The first waiting call of any process (decision 0050): until `urgent_until`, the room that frees
     * goes to a call of this rank or better (`CallScheduler`'s rank: interactive 0, then a light person's
     * by when they asked), not to another process's later or heavy one.
     */
    urgentRank: bigint('urgent_rank', { mode: 'number' }),
    urgentUntil: timestamp('urgent_until', { withTimezone: true }),
    /**
     * Until when some room is kept back from heavy calls (decision 0054): a light or interactive call took
     * slots a moment ago, so more of its kind may follow (a move's next page, its transfer's few calls).
     */
    lightUntil: timestamp('light_until', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.service, table.app] })],
);

/**
 * The calls of a rate budget's rolling window (decision 0040): a batch of slots a process took and whose
 * calls are in flight (`counts_at` in the future, so they count until reported; what it did not use it
 * gives back) or calls a process reported answered (`counts_at` the report's time).
 */
export const rateBudgetSlots = pgTable(
  'rate_budget_slots',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    service: text('service').notNull(),
    app: text('app').notNull(),
    countsAt: timestamp('counts_at', { withTimezone: true }).notNull(),
    calls: integer('calls').notNull(),
  },
  (table) => [index('rate_budget_slots_window_idx').on(table.service, table.app, table.countsAt)],
);

export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** The browser's analytics session (the CSRF cookie value's hash), for per-session rate limits. */
    sessionKey: text('session_key').notNull(),
    event: text('event').notNull(),
    properties: jsonb('properties').$type<Record<string, string | number | boolean | null>>().notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('analytics_events_event_idx').on(table.event, table.occurredAt),
    // A person's events in order, a page at a time: the data download (decision 0042).
    index('analytics_events_user_idx').on(table.userId, table.occurredAt, table.id),
  ],
);

/** A person's link to Spotify or Apple Music. Tokens are AES-256-GCM encrypted (security/encryption.ts). */
export const providerConnections = pgTable(
  'provider_connections',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    service: text('service', { enum: ['spotify', 'apple'] }).notNull(),
    providerUserId: text('provider_user_id'),
    displayName: text('display_name'),
    /** Spotify market or Apple storefront, lower-case. */
    region: text('region'),
    encryptedTokens: text('encrypted_tokens').notNull(),
    /** When the person authorized; Spotify refresh tokens stop working 6 months after it. */
    authorizedAt: timestamp('authorized_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.service] })],
);

/** OAuth requests in flight: `state` ties the callback to the person who started it; PKCE verifier kept here. */
export const oauthRequests = pgTable('oauth_requests', {
  stateHash: text('state_hash').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** A music service, or a cloud drive (Save to Cloud, decision 0027). */
  service: text('service', { enum: ['spotify', 'apple', 'google-drive', 'dropbox'] }).notNull(),
  encryptedVerifier: text('encrypted_verifier'),
  returnTo: text('return_to').notNull().default('/transfer'),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * Durable background work (matching and transfers of big playlists, backups). A worker claims a row with
 * `FOR UPDATE SKIP LOCKED` and holds a lease it renews while working; if its process dies the lease
 * runs out and another worker resumes from the last checkpoint in `state`. See src/server/jobs.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] })
      .notNull()
      .default('queued'),
    payload: jsonb('payload').$type<unknown>().notNull(),
    /** Handler-owned checkpoint: what is done, so a resumed run skips it. */
    state: jsonb('state').$type<unknown>(),
    /** What the person sees: `{done, total, phase, message, waitingUntil}`. */
    progress: jsonb('progress').$type<JobProgress>(),
    result: jsonb('result').$type<unknown>(),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** Deduplicates scheduled work (e.g. one daily backup per person and day). */
    dedupeKey: text('dedupe_key'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** When a worker first took the job (the queue's wait is `started_at - created_at`). */
    startedAt: timestamp('started_at', { withTimezone: true }),
    /** When a worker last took it: the queue serves next the person it served least recently. */
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
  },
  (table) => [
    index('jobs_claim_idx').on(table.status, table.runAfter),
    index('jobs_user_idx').on(table.userId, table.createdAt),
    uniqueIndex('jobs_dedupe_key').on(table.dedupeKey),
  ],
);

/** A playlist's tracks matched against the other service: one set per "Match Songs" run. */
export const matchSets = pgTable(
  'match_sets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sourceService: text('source_service', { enum: ['spotify', 'apple'] }).notNull(),
    destinationService: text('destination_service', { enum: ['spotify', 'apple'] }).notNull(),
    /** The source playlist's id on its service, or `import:<id>` for an imported file. */
    sourcePlaylistId: text('source_playlist_id').notNull(),
    sourcePlaylistName: text('source_playlist_name').notNull(),
    status: text('status', { enum: ['matching', 'ready', 'failed'] })
      .notNull()
      .default('matching'),
    jobId: uuid('job_id'),
    /**
     * The source playlist's entries as first read, so a resumed or requeued match job does not read a
     * 10,000-track playlist from the service again.
     */
    sourceEntries: jsonb('source_entries').$type<PlaylistEntry[]>(),
    /**
     * The source's length once its whole read is kept, entry by entry, in `match_source_entries` (issue 25:
     * a 100,000-song library is never held whole); null while it is read. Sets matched before it keep
     * `sourceEntries`.
     */
    sourceLength: integer('source_length'),
    /** A saved album's album-level match (issue 14); null for playlists and Liked Songs. */
    albumMatch: jsonb('album_match').$type<StoredAlbumMatch>(),
    /**
     * Bumped by database triggers on every change of the set or of its rows (migration
     * match_view_version, decision 0032): the key of the cached serialised match view in every process.
     */
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
  },
  (table) => [index('match_sets_user_idx').on(table.userId, table.sourcePlaylistId)],
);

/**
 * A match set's source as first read, one entry per row in source order, written page by page while it is
 * read: a resumed or requeued match job works from it in chunks instead of reading the service again.
 */
export const matchSourceEntries = pgTable(
  'match_source_entries',
  {
    matchSetId: uuid('match_set_id')
      .notNull()
      .references(() => matchSets.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    entry: jsonb('entry').$type<PlaylistEntry>().notNull(),
  },
  (table) => [primaryKey({ columns: [table.matchSetId, table.position] })],
);

/** One source entry and what it matched, with the person's own choice when they fixed it. */
export const matchRows = pgTable(
  'match_rows',
  {
    matchSetId: uuid('match_set_id')
      .notNull()
      .references(() => matchSets.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    source: jsonb('source').$type<NormalizedTrack>().notNull(),
    candidates: jsonb('candidates').$type<StoredCandidate[]>().notNull(),
    /** The destination track that will be added: the engine's pick, or the person's. Null = nothing. */
    chosenId: text('chosen_id'),
    confidence: integer('confidence').notNull(),
    status: text('status', { enum: ['accepted', 'review', 'unmatched', 'skipped'] }).notNull(),
    reasons: jsonb('reasons').$type<string[]>().notNull(),
    /** Set when the person picked a candidate, searched one by hand, or chose to skip. */
    decidedBy: text('decided_by', { enum: ['engine', 'person', 'ai'] })
      .notNull()
      .default('engine'),
  },
  (table) => [primaryKey({ columns: [table.matchSetId, table.position] })],
);

/**
 * A person's remembered fix (issue 14): for this source recording (ISRC when known, else normalised title
 * + artists) going from one service to another, add this destination track, or add nothing ("skip").
 * Every later match applies it. One rule per person, pair of services and source key.
 */
export const matchRules = pgTable(
  'match_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sourceService: text('source_service', { enum: ['spotify', 'apple'] }).notNull(),
    destinationService: text('destination_service', { enum: ['spotify', 'apple'] }).notNull(),
    /** `isrc:<ISRC>` or `text:<normalised title>|<normalised artists>`. */
    sourceKey: text('source_key').notNull(),
    /** The source track as it was when the rule was made, to show on the rules page. */
    source: jsonb('source').$type<NormalizedTrack>().notNull(),
    action: text('action', { enum: ['choose', 'skip'] }).notNull(),
    /** The chosen destination track; null for "skip". */
    destination: jsonb('destination').$type<NormalizedTrack>(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('match_rules_key_idx').on(
      table.userId,
      table.sourceService,
      table.destinationService,
      table.sourceKey,
    ),
  ],
);

/** A transfer the person ran: the history in /account and the CSV come from here. */
export const transfers = pgTable(
  'transfers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    matchSetId: uuid('match_set_id').references(() => matchSets.id, { onDelete: 'set null' }),
    sourceService: text('source_service', { enum: ['spotify', 'apple'] }).notNull(),
    destinationService: text('destination_service', { enum: ['spotify', 'apple'] }).notNull(),
    sourcePlaylistId: text('source_playlist_id').notNull(),
    name: text('name').notNull(),
    includeUnmatched: boolean('include_unmatched').notNull().default(false),
    /** Liked Songs only (issue 14): also put the saved tracks in a new playlist. */
    alsoAddToPlaylist: boolean('also_add_to_playlist').notNull().default(false),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed'] })
      .notNull()
      .default('queued'),
    destinationPlaylistId: text('destination_playlist_id'),
    destinationUrl: text('destination_url'),
    /** Where a library collection's transfer saved things (issue 14); null for playlists. */
    librarySave: jsonb('library_save').$type<LibrarySaveRecord>(),
    totalTracks: integer('total_tracks').notNull().default(0),
    matchedTracks: integer('matched_tracks').notNull().default(0),
    unmatchedTracks: integer('unmatched_tracks').notNull().default(0),
    addedTracks: integer('added_tracks').notNull().default(0),
    overallConfidence: integer('overall_confidence').notNull().default(0),
    /** Tracks found in the destination when it was read back after the adds; null = not verified. */
    verifiedTracks: integer('verified_tracks'),
    /** What the read-back still did not find after one more add, with why. */
    verificationMissing: jsonb('verification_missing').$type<VerificationMissing[]>(),
    error: text('error'),
    jobId: uuid('job_id'),
    /** playlist_transfer.csv's lines as they were when the transfer finished (decision 0012). */
    csvSnapshot: jsonb('csv_snapshot').$type<string[][]>(),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [index('transfers_user_idx').on(table.userId, table.createdAt)],
);

/**
 * Several playlists moved as one batch (issue 14): one match set (and, once the person has reviewed,
 * one transfer) per playlist, run by a single durable `batch` job.
 */
export const batches = pgTable(
  'batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sourceService: text('source_service', { enum: ['spotify', 'apple'] }).notNull(),
    destinationService: text('destination_service', { enum: ['spotify', 'apple'] }).notNull(),
    /** matching → review (waits for the person) → transferring → done; failed when the job gave up. */
    status: text('status', { enum: ['matching', 'review', 'transferring', 'done', 'failed'] })
      .notNull()
      .default('matching'),
    /** The playlists in the order picked: each with its match set and, in the transfer phase, its transfer. */
    items: jsonb('items').$type<BatchItemRecord[]>().notNull(),
    jobId: uuid('job_id'),
    createdAt: createdAt(),
  },
  (table) => [index('batches_user_idx').on(table.userId, table.createdAt)],
);

/** Lookups against a service's catalog, shared by every person: the same search is not sent twice. */
export const matchCache = pgTable(
  'match_cache',
  {
    service: text('service', { enum: ['spotify', 'apple'] }).notNull(),
    region: text('region').notNull(),
    lookupKey: text('lookup_key').notNull(),
    value: jsonb('value').$type<CachedLookup>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.service, table.region, table.lookupKey] })],
);

/** Playlists people brought in as files (Exportify CSV, pasted lists): usable as a transfer source. */
export const importedPlaylists = pgTable(
  'imported_playlists',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The service whose ids the file carries (Exportify: spotify), if any. */
    originService: text('origin_service', { enum: ['spotify', 'apple'] }),
    /** `NormalizedTrack`s in file order. */
    tracks: jsonb('tracks').$type<NormalizedTrack[]>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('imported_playlists_user_idx').on(table.userId, table.createdAt)],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/** Vault+ "Save to Cloud": exports kept in Crossfade's own storage, listed in /account. */
export const savedExports = pgTable(
  'saved_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    format: text('format', { enum: ['csv', 'json', 'zip'] }).notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    data: bytea('data').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    playlistName: text('playlist_name').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('saved_exports_user_idx').on(table.userId, table.createdAt)],
);

/**
 * Vault+ backups (decision 0038): the header of one reading of all of a person's playlists on one service.
 * What each playlist held is a version in the playlist history store, linked by `backup_playlists`.
 */
export const backups = pgTable(
  'backups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    service: text('service', { enum: ['spotify', 'apple'] }).notNull(),
    trigger: text('trigger', { enum: ['scheduled', 'manual'] }).notNull(),
    playlistCount: integer('playlist_count').notNull(),
    trackCount: integer('track_count').notNull(),
    /** Playlists the service would not let Crossfade read: `[{id, name, reason}]`. */
    unreadable: jsonb('unreadable')
      .$type<{ id: string; name: string; reason: string }[]>()
      .notNull()
      .default([]),
    createdAt: createdAt(),
  },
  (table) => [index('backups_user_idx').on(table.userId, table.createdAt)],
);

/** Friend merge invitations: the secret token travels by e-mail, only its hash is stored. */
export const mergeInvitations = pgTable(
  'merge_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    inviterId: uuid('inviter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    friendEmail: text('friend_email').notNull(),
    /** The inviter's side: `{service, playlistId, name, trackCount}`. */
    inviterPlaylist: jsonb('inviter_playlist').$type<unknown>().notNull(),
    /** The friend's side once they answer: `{service?, playlistId?, name, owner, tracks}`. */
    friendPlaylist: jsonb('friend_playlist').$type<unknown>(),
    friendUserId: uuid('friend_user_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['pending', 'merged', 'expired'] })
      .notNull()
      .default('pending'),
    mergedPlaylistId: uuid('merged_playlist_id'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [uniqueIndex('merge_invitations_token_key').on(table.tokenHash)],
);

/** A merged playlist (friend merge); public pages show it by id (`newPlaylistId`). */
export const mergedPlaylists = pgTable('merged_playlists', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  /** `[{id, name, artists, album, source: 'you'|'friend'|'both'|'bridge', uri?, service?}]` */
  tracks: jsonb('tracks').$type<unknown[]>().notNull(),
  insightSummary: text('insight_summary').notNull(),
  /** `anthropic` when a model wrote the insight, `local` when the rules did; null on merges from before 0019. */
  insightWrittenBy: text('insight_written_by').$type<'anthropic' | 'local'>(),
  mixRatio: jsonb('mix_ratio').$type<[number, number]>().notNull(),
  /** `{you: {...}, friend: {...}}`: where the two sides came from. */
  sources: jsonb('sources').$type<unknown>().notNull(),
  invitationId: uuid('invitation_id'),
  /** Public merges may be copied (save-playlist) by anyone; private ones only by their people (decision 0012). */
  public: boolean('public').notNull().default(false),
  createdAt: createdAt(),
});

/** Sniper links: shareable links with a public landing page at /l/:slug. */
export const links = pgTable(
  'links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    targetUrl: text('target_url'),
    /** What the link points at, resolved on both services: `{kind, spotify?, apple?, title, artists, imageUrl}`. */
    target: jsonb('target').$type<unknown>(),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('links_slug_key').on(table.slug), index('links_user_idx').on(table.userId)],
);

export const linkViews = pgTable(
  'link_views',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    linkId: uuid('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    /** A salted hash of the visitor (cookie), so repeat views can be told apart without storing who. */
    visitorHash: text('visitor_hash').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('link_views_link_idx').on(table.linkId, table.at)],
);

export const linkSignups = pgTable(
  'link_signups',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    linkId: uuid('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('link_signups_email_key').on(table.linkId, sql`lower(${table.email})`)],
);

/** Mail that could not go out through SMTP (none configured) lands here and in DATA_DIR/outbox. */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Whose action sent it (an invitation's inviter), so deleting an account removes it too. */
    senderId: uuid('sender_id').references(() => users.id, { onDelete: 'cascade' }),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  // A person's messages in order, a page at a time: the data download (decision 0042).
  (table) => [index('outbox_messages_sender_idx').on(table.senderId, table.createdAt, table.id)],
);

/** A pair of playlists kept in sync (issue 14, decision 0017); its runs are `sync_runs`. */
export const syncs = pgTable(
  'syncs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sourceService: text('source_service', { enum: ['spotify', 'apple'] }).notNull(),
    sourcePlaylistId: text('source_playlist_id').notNull(),
    sourcePlaylistName: text('source_playlist_name'),
    destinationService: text('destination_service', { enum: ['spotify', 'apple'] }).notNull(),
    /** Null until the first real run creates the destination playlist. */
    destinationPlaylistId: text('destination_playlist_id'),
    destinationUrl: text('destination_url'),
    schedule: text('schedule', { enum: ['manual', 'hourly', 'daily', 'weekly'] }).notNull(),
    removals: boolean('removals').notNull().default(false),
    paused: boolean('paused').notNull().default(false),
    /** Paused because the plan no longer includes sync (issue 22): resumed when the person is on Pro again. */
    pausedByPlan: boolean('paused_by_plan').notNull().default(false),
    /** When the scheduler next enqueues a run; null for manual syncs. */
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    /** The recordings this sync put in (or found in) the destination, by source key: how removals are told. */
    synced: jsonb('synced').$type<SyncedRecording[]>().notNull().default([]),
    /** One way (source into destination) or both ways (decision 0024). */
    direction: text('direction', { enum: ['one-way', 'two-way'] })
      .notNull()
      .default('one-way'),
    /** Two-way: the state the last successful real run left, by recording; null before the first one. */
    twoWayBase: jsonb('two_way_base').$type<TwoWayBase>(),
    createdAt: createdAt(),
  },
  (table) => [
    index('syncs_user_idx').on(table.userId, table.createdAt),
    index('syncs_due_idx').on(table.nextRunAt),
  ],
);

/** One run of a sync: what it added, removed and listed. At most one is queued or running per sync. */
export const syncRuns = pgTable(
  'sync_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    syncId: uuid('sync_id')
      .notNull()
      .references(() => syncs.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    dryRun: boolean('dry_run').notNull(),
    trigger: text('trigger', { enum: ['manual', 'scheduled', 'first'] }).notNull(),
    status: text('status', { enum: ['queued', 'running', 'needs_confirmation', 'succeeded', 'failed'] })
      .notNull()
      .default('queued'),
    /** The person confirmed the removals of a run that stopped for it. */
    removalsConfirmed: boolean('removals_confirmed').notNull().default(false),
    /** Two-way: this run rebuilds the Apple Music playlist as a new one holding the merged state. */
    rebuild: boolean('rebuild').notNull().default(false),
    added: jsonb('added').$type<SyncTrackRecord[]>().notNull().default([]),
    removed: jsonb('removed').$type<SyncTrackRecord[]>().notNull().default([]),
    listedRemovals: jsonb('listed_removals').$type<SyncTrackRecord[]>().notNull().default([]),
    notAdded: jsonb('not_added').$type<SyncTrackRecord[]>().notNull().default([]),
    unchanged: integer('unchanged').notNull().default(0),
    verifiedTracks: integer('verified_tracks'),
    verificationMissing: jsonb('verification_missing').$type<VerificationMissing[]>().notNull().default([]),
    /** Two-way: added to and removed from the source side (`added`/`removed` are the destination's). */
    addedToSource: jsonb('added_to_source').$type<SyncTrackRecord[]>().notNull().default([]),
    removedFromSource: jsonb('removed_from_source').$type<SyncTrackRecord[]>().notNull().default([]),
    /** Two-way: removed on one side and added again on the other, kept (the add wins), listed. */
    conflicts: jsonb('conflicts').$type<SyncTrackRecord[]>().notNull().default([]),
    /** Two-way: exactly what this run wrote on each side, for an undo (decision 0024). */
    writes: jsonb('writes').$type<SyncRunWrites>(),
    error: text('error'),
    jobId: uuid('job_id'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [
    index('sync_runs_sync_idx').on(table.syncId, table.createdAt),
    // Never two runs at once for one sync, whichever process asks: the database refuses the second.
    uniqueIndex('sync_runs_one_active').on(table.syncId).where(sql`${table.status} in ('queued', 'running')`),
  ],
);

/**
 * Idempotency keys (http/idempotency.ts, decision 0023): the first answer to a create request a person
 * sent with an `Idempotency-Key`, answered again to every repeat of that request for 24 hours. While the
 * first copy runs `responseStatus` is null and `leaseUntil` (renewed as it runs) keeps repeats out; a
 * copy whose process died lets go when its lease runs out.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** SHA-256 of the method, path, query and body: the same key with another request is refused. */
    fingerprint: text('fingerprint').notNull(),
    /** Method and path of the first request, named when the key comes back with another one. */
    request: text('request').notNull(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    responseStatus: integer('response_status'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    responseBody: bytea('response_body'),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.key] }),
    index('idempotency_keys_created_idx').on(table.createdAt),
  ],
);

// ── Save to Cloud: cloud drives (decision 0027) ──────────────────────────────────────────────────

/**
 * A person's link to their Google Drive or Dropbox, for Save to Cloud. The tokens are AES-256-GCM
 * ciphertext, as for the music services (see export/cloud-drives/cloud-drive-store.ts).
 */
export const cloudDriveConnections = pgTable(
  'cloud_drive_connections',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    drive: text('drive', { enum: ['google-drive', 'dropbox'] }).notNull(),
    /** The drive account's name and address, shown as "Connected as …". */
    accountName: text('account_name'),
    encryptedTokens: text('encrypted_tokens').notNull(),
    authorizedAt: timestamp('authorized_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.drive] })],
);
// ── Billing (issue 22, decision 0025) ────────────────────────────────────────────────────────────────

/** The last invoice of a person's subscription, as /account shows it. */
export interface StoredInvoice {
  id: string;
  amount: number;
  currency: string;
  status: string;
  createdAt: string;
  url: string | null;
}

/**
 * A person's Stripe customer and subscription as the last verified webhook left them (plans change only
 * from verified webhooks), and what a downgrade left behind: backups readable until a date.
 */
export const billingAccounts = pgTable('billing_accounts', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Null for someone whose plan only an operator ever changed. */
  customerId: text('customer_id').unique(),
  /** Sandbox only: the customer's Stripe test clock. */
  testClockId: text('test_clock_id'),
  subscriptionId: text('subscription_id'),
  subscriptionPlan: text('subscription_plan', { enum: ['pro', 'vault'] }),
  billingInterval: text('billing_interval', { enum: ['month', 'year'] }),
  /** Stripe's subscription status (active, past_due, canceled, …). */
  subscriptionStatus: text('subscription_status'),
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  /** A renewal failed: when, and when the grace period of 7 days ends. */
  paymentFailedAt: timestamp('payment_failed_at', { withTimezone: true }),
  graceEndsAt: timestamp('grace_ends_at', { withTimezone: true }),
  lastInvoice: jsonb('last_invoice').$type<StoredInvoice>(),
  /** The customer's time on Stripe when it runs ahead of ours (a test clock moved on). */
  stripeTime: timestamp('stripe_time', { withTimezone: true }),
  /** After leaving Vault+, backups stay readable and downloadable until then, and are deleted after. */
  backupsKeptUntil: timestamp('backups_kept_until', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Stripe events already processed, by id: a replayed or twice-delivered event (to this process or another)
 * finds its row and changes nothing. The insert shares the transaction of the event's effect.
 */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
  receivedAt: createdAt(),
});

/** Every change of a person's plan and what it did, told on /account and by e-mail. */
export const planChanges = pgTable(
  'plan_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fromPlan: text('from_plan', { enum: ['free', 'pro', 'vault'] }).notNull(),
    toPlan: text('to_plan', { enum: ['free', 'pro', 'vault'] }).notNull(),
    reason: text('reason', {
      enum: [
        'checkout',
        'plan_changed',
        'subscription_ended',
        'grace_ended',
        'payment_recovered',
        'operator',
      ],
    }).notNull(),
    syncsPaused: integer('syncs_paused').notNull().default(0),
    syncsResumed: integer('syncs_resumed').notNull().default(0),
    backupsKeptUntil: timestamp('backups_kept_until', { withTimezone: true }),
    /** When it took effect, in the customer's time on Stripe (a test clock's, in the sandbox). */
    effectiveAt: timestamp('effective_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('plan_changes_user_idx').on(table.userId, table.createdAt)],
);

/**
 * Sandbox mode: the webhook endpoint this server registered with the payments emulator for its own
 * address, and its signing secret (encrypted), which Stripe shows only when the endpoint is created.
 */
export const stripeWebhookEndpoints = pgTable('stripe_webhook_endpoints', {
  url: text('url').primaryKey(),
  endpointId: text('endpoint_id').notNull(),
  secretEncrypted: text('secret_encrypted').notNull(),
  createdAt: createdAt(),
});

/**
 * Every playlist's history (issue 21, decision 0030): one row per (person, service, playlist) Crossfade
 * has read or written; its versions are `playlist_versions`, stored as differences (history-codec.ts).
 */
export const playlistHistories = pgTable(
  'playlist_histories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    service: text('service', { enum: ['spotify', 'apple'] }).notNull(),
    playlistId: text('playlist_id').notNull(),
    name: text('name').notNull(),
    /** The newest version's `seq` (0 before the first). */
    lastSeq: integer('last_seq').notNull().default(0),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('playlist_histories_key').on(table.userId, table.service, table.playlistId)],
);

/**
 * One version of a playlist. The ordered track list is `ops` applied to the previous version (a
 * `keyframe` every HISTORY_KEYFRAME_EVERY versions holds the whole list, as deflated track numbers);
 * tracks are numbered by first appearance, their details kept once, in the version that first held them
 * (`new_tracks`, deflated JSON in base64). `added`, `removed`, `became_unavailable` are track numbers.
 */
export const playlistVersions = pgTable(
  'playlist_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    historyId: uuid('history_id')
      .notNull()
      .references(() => playlistHistories.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    cause: text('cause', { enum: ['transfer', 'sync', 'restore', 'backup', 'outside'] }).notNull(),
    /** What wrote it: `transfer:<id>`, `sync-run:<id>`, `restore:<jobId>`, `backup:<backupId>`. */
    origin: text('origin'),
    trackCount: integer('track_count').notNull(),
    /** Base64 text, not bytea: the embedded database hands text back many times faster. */
    keyframe: text('keyframe'),
    ops: jsonb('ops').$type<number[][]>().notNull(),
    newTracks: text('new_tracks'),
    added: jsonb('added').$type<number[]>().notNull(),
    removed: jsonb('removed').$type<number[]>().notNull(),
    becameUnavailable: jsonb('became_unavailable').$type<number[]>().notNull(),
    becameAvailable: jsonb('became_available').$type<number[]>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('playlist_versions_seq').on(table.historyId, table.seq),
    index('playlist_versions_user_idx').on(table.userId, table.createdAt),
    index('playlist_versions_origin_idx').on(table.userId, table.origin),
  ],
);

/**
 * The playlists of a backup, in the order the service listed them: each points at the version of the
 * playlist's history the backup found current (recorded by it, or an earlier one when nothing changed since).
 */
export const backupPlaylists = pgTable(
  'backup_playlists',
  {
    backupId: uuid('backup_id')
      .notNull()
      .references(() => backups.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    versionId: uuid('version_id')
      .notNull()
      .references(() => playlistVersions.id, { onDelete: 'cascade' }),
    /** The playlist's name and description when it was backed up (a version keeps only its tracks). */
    name: text('name').notNull(),
    description: text('description'),
    /** Entries the service could not describe as tracks (local files, episodes, unavailable). */
    skippedEntries: integer('skipped_entries').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.backupId, table.position] }),
    index('backup_playlists_version_idx').on(table.versionId),
  ],
);
