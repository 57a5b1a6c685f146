import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

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

/** Failed sign-ins, counted per username and per client address for throttling. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    usernameKey: text('username_key').notNull(),
    clientAddress: text('client_address').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('login_failures_username_idx').on(table.usernameKey, table.at),
    index('login_failures_address_idx').on(table.clientAddress, table.at),
  ],
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
  (table) => [index('analytics_events_event_idx').on(table.event, table.occurredAt)],
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
  service: text('service', { enum: ['spotify', 'apple'] }).notNull(),
  encryptedVerifier: text('encrypted_verifier'),
  returnTo: text('return_to').notNull().default('/transfer'),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
