import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, getTableName, inArray, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountProfile } from '../../shared/api/account';
import type { Usage } from '../../shared/api/plans';
import * as schema from '../db/schema';
import {
  analyticsEvents,
  backupPlaylists,
  backups,
  batches,
  billingAccounts,
  billingEvents,
  cloudDriveConnections,
  idempotencyKeys,
  importedPlaylists,
  jobs,
  linkSignups,
  links,
  linkViews,
  matchRows,
  matchRules,
  matchSets,
  matchSourceEntries,
  mergedPlaylists,
  mergeInvitations,
  oauthRequests,
  outboxMessages,
  planChanges,
  playlistHistories,
  playlistVersions,
  providerConnections,
  rateLimitCounters,
  savedExports,
  sessions,
  syncRuns,
  syncs,
  transfers,
  users,
} from '../db/schema';
import { recordBackupVersion, recordObservation } from '../history/playlist-history';
import { hashKey } from '../security/rate-limit';
import { connectService } from '../testing/connect-service';
import { subscribe } from '../testing/stripe-sandbox';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';
import { insertBackup } from '../vault/backup-store';

let server: TestServer;
let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${counter++}`;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function registered(client: TestClient = server.newClient()) {
  const username = unique('user');
  const account = { username, email: `${username}@example.com`, password: 'correct horse' };
  const response = await client.post('/api/auth/register', account);
  expect(response.status).toBe(201);
  const [row] = await server.deps.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (!row) throw new Error('registered user not found');
  return { client, account, userId: row.id };
}

const message = (body: unknown) => (body as { message?: string }).message;

async function addTransfer(userId: string, createdAt: Date, status: 'succeeded' | 'failed' = 'succeeded') {
  await server.deps.db.insert(transfers).values({
    userId,
    sourceService: 'spotify',
    destinationService: 'apple',
    sourcePlaylistId: 'p1',
    name: 'Road Trip',
    status,
    createdAt,
  });
}

describe('GET /api/usage', () => {
  it('counts the transfers of the last 30 days and says when the free limit resets', async () => {
    const { client, userId } = await registered();
    const empty = await client.get('/api/usage');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ plan: 'free', transfersUsed: 0, transfersAllowed: 1, resetsAt: null });

    const tenDaysAgo = new Date(Date.now() - 10 * 24 * 60 * 60_000);
    await addTransfer(userId, tenDaysAgo);
    await addTransfer(userId, new Date(), 'failed');
    await addTransfer(userId, new Date(Date.now() - 40 * 24 * 60 * 60_000));
    const usage = (await client.get('/api/usage')).body as Usage;
    expect(usage.transfersUsed).toBe(1);
    expect(usage.transfersAllowed).toBe(1);
    expect(usage.resetsAt).toBe(new Date(tenDaysAgo.getTime() + 30 * 24 * 60 * 60_000).toISOString());
  });

  it('is unlimited on Pro and Vault+', async () => {
    const { client, account } = await registered();
    await server.deps.db.update(users).set({ plan: 'pro' }).where(eq(users.username, account.username));
    expect(((await client.get('/api/usage')).body as Usage).transfersAllowed).toBeNull();
    await server.deps.db.update(users).set({ plan: 'vault' }).where(eq(users.username, account.username));
    const usage = (await client.get('/api/usage')).body as Usage;
    expect(usage).toMatchObject({ plan: 'vault', transfersAllowed: null });
  });

  it('needs a signed-in person', async () => {
    expect((await server.newClient().get('/api/usage')).status).toBe(401);
    expect((await server.newClient().get('/api/account')).status).toBe(401);
    expect((await server.newClient().get('/api/account/export')).status).toBe(401);
  });
});

describe('profile and public-profile switch', () => {
  it('shows the profile with connected services and no tokens', async () => {
    const { client, account } = await registered();
    await connectService(client, 'spotify', { returnTo: '/account' });
    const response = await client.get('/api/account');
    expect(response.status).toBe(200);
    const profile = response.body as AccountProfile;
    expect(profile).toMatchObject({ username: account.username, email: account.email, plan: 'free' });
    expect(profile.publicProfile).toBe(false);
    expect(profile.connections.map((connection) => connection.service)).toEqual(['spotify']);
    expect(response.text).not.toMatch(/token/i);
  });

  it('turns the public profile on and off, and keeps it across requests', async () => {
    const { client, userId } = await registered();
    const on = await client.send('PATCH', '/api/account', { publicProfile: true });
    expect(on.status).toBe(200);
    expect((on.body as AccountProfile).publicProfile).toBe(true);
    const [row] = await server.deps.db.select().from(users).where(eq(users.id, userId));
    expect(row?.publicProfile).toBe(true);
    expect(((await client.get('/api/account')).body as AccountProfile).publicProfile).toBe(true);

    const off = await client.send('PATCH', '/api/account', { publicProfile: false });
    expect((off.body as AccountProfile).publicProfile).toBe(false);
  });

  it('lets other people see the taste graph only while the profile is public', async () => {
    const { client, userId } = await registered();
    const visitor = server.newClient();
    const privateGraph = await visitor.get(`/api/taste-graph/${userId}`);
    expect(privateGraph.status).toBe(403);
    expect(message(privateGraph.body)).toBe("This person's taste profile is private.");

    await client.send('PATCH', '/api/account', { publicProfile: true });
    expect((await visitor.get(`/api/taste-graph/${userId}`)).status).toBe(200);
    expect((await visitor.get(`/api/taste-timeline/${userId}`)).status).toBe(200);

    await client.send('PATCH', '/api/account', { publicProfile: false });
    expect((await visitor.get(`/api/taste-graph/${userId}`)).status).toBe(403);
  });

  it('refuses a value that is not true or false', async () => {
    const { client } = await registered();
    const response = await client.send('PATCH', '/api/account', { publicProfile: 'yes' });
    expect(response.status).toBe(400);
    expect(message(response.body)).toBe('publicProfile must be true or false');
  });
});

/** Rows holding something of one person, per table of schema.ts. */
async function rowsOwnedBy(userId: string, ids: { matchSets: string[]; links: string[]; backups: string[] }) {
  const db = server.deps.db;
  const countWhere = async (table: PgTable, condition: ReturnType<typeof eq>) => {
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(table).where(condition);
    return row?.n ?? 0;
  };
  const none = sql`false` as unknown as ReturnType<typeof eq>;
  return {
    users: await countWhere(users, eq(users.id, userId)),
    sessions: await countWhere(sessions, eq(sessions.userId, userId)),
    analytics_events: await countWhere(analyticsEvents, eq(analyticsEvents.userId, userId)),
    provider_connections: await countWhere(providerConnections, eq(providerConnections.userId, userId)),
    oauth_requests: await countWhere(oauthRequests, eq(oauthRequests.userId, userId)),
    jobs: await countWhere(jobs, eq(jobs.userId, userId)),
    match_sets: await countWhere(matchSets, eq(matchSets.userId, userId)),
    match_rows: await countWhere(
      matchRows,
      ids.matchSets.length ? inArray(matchRows.matchSetId, ids.matchSets) : none,
    ),
    match_source_entries: await countWhere(
      matchSourceEntries,
      ids.matchSets.length ? inArray(matchSourceEntries.matchSetId, ids.matchSets) : none,
    ),
    transfers: await countWhere(transfers, eq(transfers.userId, userId)),
    match_rules: await countWhere(matchRules, eq(matchRules.userId, userId)),
    batches: await countWhere(batches, eq(batches.userId, userId)),
    syncs: await countWhere(syncs, eq(syncs.userId, userId)),
    sync_runs: await countWhere(syncRuns, eq(syncRuns.userId, userId)),
    imported_playlists: await countWhere(importedPlaylists, eq(importedPlaylists.userId, userId)),
    saved_exports: await countWhere(savedExports, eq(savedExports.userId, userId)),
    backups: await countWhere(backups, eq(backups.userId, userId)),
    backup_playlists: await countWhere(
      backupPlaylists,
      ids.backups.length ? inArray(backupPlaylists.backupId, ids.backups) : none,
    ),
    merge_invitations: await countWhere(mergeInvitations, eq(mergeInvitations.inviterId, userId)),
    merged_playlists: await countWhere(mergedPlaylists, eq(mergedPlaylists.userId, userId)),
    links: await countWhere(links, eq(links.userId, userId)),
    link_views: await countWhere(linkViews, ids.links.length ? inArray(linkViews.linkId, ids.links) : none),
    link_signups: await countWhere(
      linkSignups,
      ids.links.length ? inArray(linkSignups.linkId, ids.links) : none,
    ),
    outbox_messages: await countWhere(outboxMessages, eq(outboxMessages.senderId, userId)),
    idempotency_keys: await countWhere(idempotencyKeys, eq(idempotencyKeys.userId, userId)),
    cloud_drive_connections: await countWhere(
      cloudDriveConnections,
      eq(cloudDriveConnections.userId, userId),
    ),
    billing_accounts: await countWhere(billingAccounts, eq(billingAccounts.userId, userId)),
    billing_events: await countWhere(billingEvents, eq(billingEvents.userId, userId)),
    plan_changes: await countWhere(planChanges, eq(planChanges.userId, userId)),
    // A playlist's history: the match run's read of its source is the first version.
    playlist_histories: await countWhere(playlistHistories, eq(playlistHistories.userId, userId)),
    playlist_versions: await countWhere(playlistVersions, eq(playlistVersions.userId, userId)),
  };
}

/** Tables that hold nobody's personal data: the shared catalog lookup cache. */
// Rate-limit counters are keyed by hashes of addresses, accounts and links, and expire with their window.
// The server's own webhook endpoint with the payments sandbox belongs to nobody, nor do the learned rate
// budgets of each service's app and their slots (decision 0029), which name no person.
const SHARED_TABLES = [
  'match_cache',
  'rate_budget_slots',
  'rate_budgets',
  'rate_limit_counters',
  'stripe_webhook_endpoints',
];

/** The username's failed sign-ins as the limiter stores them (hashed key, login-throttle.ts). */
async function failedSignInCount(username: string) {
  const rows = await server.deps.db
    .select({ count: rateLimitCounters.count })
    .from(rateLimitCounters)
    .where(
      and(
        eq(rateLimitCounters.bucket, 'login-username'),
        eq(rateLimitCounters.keyHash, hashKey(username.toLowerCase())),
      ),
    );
  return rows.reduce((sum, row) => sum + row.count, 0);
}

/** Gives a person at least one row in every table that can hold their data. */
async function fillEverything(client: TestClient, userId: string, username: string) {
  const db = server.deps.db;
  await connectService(client, 'spotify');
  await connectService(client, 'apple');
  // A connect that was never finished leaves an OAuth request behind.
  expect((await client.get('/api/auth/spotify/connect')).status).toBe(200);
  await client.post('/api/events', {
    events: [
      { event: 'feature_used', properties: { feature: 'account' }, timestamp: new Date().toISOString() },
    ],
  });
  await db.insert(analyticsEvents).values({
    userId,
    sessionKey: 'k',
    event: 'feature_used',
    properties: { feature: 'test' },
    occurredAt: new Date(),
  });
  // A failed sign-in: counted for the username (the owner's alert) until the account is deleted.
  const failed = await server.newClient().post('/api/auth/login', { username, password: 'not-the-password' });
  expect(failed.status).toBe(401);
  await db.insert(jobs).values({ kind: 'backup', userId, payload: { userId, trigger: 'manual' } });
  await db.insert(cloudDriveConnections).values({ userId, drive: 'dropbox', encryptedTokens: 'v1.sealed' });
  const [set] = await db
    .insert(matchSets)
    .values({
      userId,
      sourceService: 'spotify',
      destinationService: 'apple',
      sourcePlaylistId: 'p1',
      sourcePlaylistName: 'Road Trip',
      status: 'ready',
    })
    .returning({ id: matchSets.id });
  if (!set) throw new Error('no match set');
  // A playlist Crossfade read: its history.
  await recordObservation(db, {
    userId,
    service: 'spotify',
    playlistId: 'p1',
    name: 'P',
    entries: [
      {
        position: 0,
        kind: 'track',
        track: { id: 't1', uri: 'spotify:track:t1', name: 'T', artists: ['A'], album: 'B', durationMs: 1 },
      },
    ],
    mode: 'read',
    cause: 'transfer',
  });
  await db.insert(matchSourceEntries).values({
    matchSetId: set.id,
    position: 0,
    entry: { position: 0, kind: 'skipped', reason: 'unavailable' },
  });
  await db.insert(matchRows).values({
    matchSetId: set.id,
    position: 0,
    source: {
      id: 's1',
      uri: 'spotify:track:s1',
      name: 'Song',
      artists: ['Artist'],
      album: 'Album',
      durationMs: 200_000,
    },
    candidates: [],
    confidence: 95,
    status: 'accepted',
    reasons: ['ISRC'],
    decidedBy: 'person',
  });
  await addTransfer(userId, new Date());
  await db.insert(batches).values({
    userId,
    sourceService: 'spotify',
    destinationService: 'apple',
    items: [{ sourcePlaylistId: 'p1', matchSetId: set.id, transferId: null }],
  });
  const song = {
    id: 's1',
    uri: 'spotify:track:s1',
    name: 'Song',
    artists: ['Artist'],
    album: 'A',
    durationMs: 1,
  };
  await db.insert(matchRules).values({
    userId,
    sourceService: 'spotify',
    destinationService: 'apple',
    sourceKey: 'text:song|artist',
    source: song,
    action: 'skip',
  });
  const [sync] = await db
    .insert(syncs)
    .values({
      userId,
      sourceService: 'spotify',
      sourcePlaylistId: 'p1',
      destinationService: 'apple',
      schedule: 'daily',
    })
    .returning({ id: syncs.id });
  if (!sync) throw new Error('no sync');
  await db
    .insert(syncRuns)
    .values({ syncId: sync.id, userId, dryRun: true, trigger: 'first', status: 'succeeded' });
  await db.insert(importedPlaylists).values({ userId, name: 'From a file', tracks: [] });
  await db.insert(savedExports).values({
    userId,
    format: 'csv',
    fileName: 'a.csv',
    contentType: 'text/csv',
    data: Buffer.from('a,b'),
    sizeBytes: 3,
    playlistName: 'Road Trip',
  });
  // A backup of that playlist: its header, and its link to the version it found current.
  const backupId = randomUUID();
  const version = await recordBackupVersion(db, {
    userId,
    service: 'spotify',
    playlistId: 'p1',
    name: 'P',
    entries: [
      {
        position: 0,
        kind: 'track',
        track: { id: 't1', uri: 'spotify:track:t1', name: 'T', artists: ['A'], album: 'B', durationMs: 1 },
      },
    ],
    mode: 'read',
    cause: 'backup',
    origin: `backup:${backupId}`,
  });
  await insertBackup(db, {
    id: backupId,
    userId,
    service: 'spotify',
    trigger: 'manual',
    playlists: [
      { id: 'p1', name: 'P', description: null, skippedEntries: 0, trackCount: 1, versionId: version.id },
    ],
    unreadable: [],
  });
  await db.insert(mergeInvitations).values({
    inviterId: userId,
    tokenHash: randomBytes(16).toString('hex'),
    friendEmail: 'friend@example.com',
    inviterPlaylist: { name: 'Mine' },
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  await db.insert(mergedPlaylists).values({
    userId,
    name: 'Merged',
    tracks: [],
    insightSummary: 'x',
    mixRatio: [50, 50],
    sources: {},
  });
  const [link] = await db
    .insert(links)
    .values({ userId, slug: randomBytes(6).toString('hex'), name: 'My link' })
    .returning({ id: links.id });
  if (!link) throw new Error('no link');
  await db.insert(linkViews).values({ linkId: link.id, visitorHash: 'v' });
  await db.insert(linkSignups).values({ linkId: link.id, email: 'fan@example.com' });
  await db
    .insert(outboxMessages)
    .values({ senderId: userId, recipient: 'friend@example.com', subject: 's', body: 'b' });
  // A create sent with an Idempotency-Key keeps its answer for a day.
  await db.insert(idempotencyKeys).values({ userId, key: 'k', fingerprint: 'f', request: 'POST /api/links' });
  // A subscription bought through the payments sandbox: customer, events, a change of plan.
  await subscribe(server, client, { plan: 'pro' });
  return { matchSets: [set.id], links: [link.id], backups: [backupId] };
}

describe('DELETE /api/account', () => {
  it('covers every table of the schema', async () => {
    const { userId } = await registered();
    const counted = Object.keys(await rowsOwnedBy(userId, { matchSets: [], links: [], backups: [] }));
    const tables = (Object.values(schema) as unknown[]).flatMap((value) =>
      is(value, PgTable) ? [getTableName(value)] : [],
    );
    // A new table must be added to rowsOwnedBy (person-owned) or SHARED_TABLES.
    expect([...counted, ...SHARED_TABLES].sort()).toEqual([...tables].sort());
  });

  it('removes every row the person owns and leaves other people alone', async () => {
    const { client, userId, account } = await registered();
    const ids = await fillEverything(client, userId, account.username);
    const other = await registered();
    const otherIds = await fillEverything(other.client, other.userId, other.account.username);

    const before = await rowsOwnedBy(userId, ids);
    for (const [table, rows] of Object.entries(before)) expect(rows, table).toBeGreaterThan(0);
    expect(await failedSignInCount(account.username)).toBeGreaterThan(0);
    const otherBefore = await rowsOwnedBy(other.userId, otherIds);

    const response = await client.send('DELETE', '/api/account', { confirmUsername: account.username });
    expect(response.status).toBe(204);

    const after = await rowsOwnedBy(userId, ids);
    for (const [table, rows] of Object.entries(after)) expect(rows, table).toBe(0);
    expect(await failedSignInCount(account.username)).toBe(0);
    expect(await failedSignInCount(other.account.username)).toBeGreaterThan(0);
    expect(await rowsOwnedBy(other.userId, otherIds)).toEqual(otherBefore);

    // Signed out, and the credentials no longer work.
    const status = await client.get('/api/auth/status');
    expect((status.body as { authenticated: boolean }).authenticated).toBe(false);
    const login = await server.newClient().post('/api/auth/login', {
      username: account.username,
      password: account.password,
    });
    expect(login.status).toBe(401);
  });

  it('keeps the account when the typed username does not match', async () => {
    const { client, userId } = await registered();
    const response = await client.send('DELETE', '/api/account', { confirmUsername: 'someone-else' });
    expect(response.status).toBe(400);
    expect(message(response.body)).toBe('The username you typed does not match your account.');
    const [row] = await server.deps.db.select().from(users).where(eq(users.id, userId));
    expect(row).toBeDefined();
    expect((await client.get('/api/account')).status).toBe(200);
  });
});

describe('GET /api/account/export', () => {
  it('downloads everything stored about the person as a JSON file, without secrets', async () => {
    const { client, userId, account } = await registered();
    await fillEverything(client, userId, account.username);
    const response = await client.get('/api/account/export');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="crossfade-my-data.json"');
    const data = response.body as Record<string, unknown> & {
      profile: { username: string; email: string };
      connections: { service: string }[];
      transfers: { name: string }[];
      matchSets: { rows: number; yourChoices: number }[];
      matchRules: { action: string; source: { name: string } }[];
      imports: { name: string }[];
      exports: { fileName: string }[];
      backups: { service: string }[];
      merges: { invitations: { friendEmail: string }[]; mergedPlaylists: { name: string }[] };
      links: { name: string; views: number; signups: number }[];
      analyticsEvents: { event: string }[];
    };
    expect(data.profile).toMatchObject({ username: account.username, email: account.email });
    expect(data.connections.map((connection) => connection.service).sort()).toEqual(['apple', 'spotify']);
    expect(data.transfers.map((transfer) => transfer.name)).toEqual(['Road Trip']);
    expect(data.matchSets).toEqual([expect.objectContaining({ rows: 1, yourChoices: 1 })]);
    expect(data.matchRules).toEqual([
      expect.objectContaining({ action: 'skip', source: expect.objectContaining({ name: 'Song' }) }),
    ]);
    expect(data.imports.map((row) => row.name)).toEqual(['From a file']);
    expect(data.exports.map((row) => row.fileName)).toEqual(['a.csv']);
    expect(data.backups.map((row) => row.service)).toEqual(['spotify']);
    expect(data.merges.invitations.map((row) => row.friendEmail)).toEqual(['friend@example.com']);
    expect(data.merges.mergedPlaylists.map((row) => row.name)).toEqual(['Merged']);
    expect(data.links).toEqual([expect.objectContaining({ name: 'My link', views: 1, signups: 1 })]);
    expect(data.analyticsEvents.map((event) => event.event)).toContain('feature_used');
    expect(response.text).not.toMatch(/passwordHash|encryptedTokens|tokenHash|password_hash/);
  });
});
