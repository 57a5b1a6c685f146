import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryPage } from '../../shared/api/history';
import type { PlaylistSummary } from '../../shared/api/playlists';
import type { MatchSetView, TransferResult } from '../../shared/api/transfer';
import type { BackupDetail, BackupSummary } from '../../shared/api/vault';
import { IDEMPOTENT_CREATES } from '../../shared/idempotency';
import { createApp } from '../app';
import {
  batches,
  idempotencyKeys,
  importedPlaylists,
  jobs,
  links,
  matchSets,
  mergedPlaylists,
  mergeInvitations,
  savedExports,
  syncRuns,
  syncs,
  transfers,
  users,
} from '../db/schema';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestResponse, type TestServer } from '../testing/test-server';
import { waitUntil } from '../testing/wait-until';

/**
 * Issue 20 item 9: every create endpoint runs once per `Idempotency-Key`. Each listed endpoint gets the
 * same request twice with one key: the second answer is the first (status and body, marked
 * `Idempotent-Replayed`), and what the endpoint creates exists once. Then the refusals: another request
 * under a used key (422), a repeat while the first runs (409), and keys that are not kept.
 */
let server: TestServer;
let person: Person;
let lists: PlaylistSummary[];
let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${counter++}`;
const spotifyLink = (id: string) => `https://open.spotify.com/playlist/${id}`;
const message = (answer: TestResponse) => (answer.body as { message?: string }).message ?? '';

interface Person {
  client: TestClient;
  userId: string;
}

async function signUp(plan: 'free' | 'vault'): Promise<Person> {
  const client = server.newClient();
  const username = unique('once');
  const answer = await client.post('/api/auth/register', {
    username,
    email: `${username}@example.com`,
    password: 'correct horse',
  });
  expect(answer.status, answer.text).toBe(201);
  const userId = (answer.body as { user: { id: string } }).user.id;
  await server.deps.db.update(users).set({ plan }).where(eq(users.id, userId));
  return { client, userId };
}

const playlist = (name: string) => {
  const found = lists.find((item) => item.name === name);
  if (!found) throw new Error(`no demo playlist ${name}`);
  return found;
};

/** Rows of `table` whose `column` is `value` (the person's, mostly). */
async function rows(table: PgTable, column: string, value: string) {
  const [row] = await server.deps.db
    .select({ n: sql<number>`count(*)::int` })
    .from(table)
    .where(sql`${sql.identifier(column)} = ${value}`);
  return row?.n ?? 0;
}
const own = (table: PgTable) => () => rows(table, 'user_id', person.userId);

/** The person's Spotify playlists called `name` (the emulator's, read through Crossfade). */
const spotifyPlaylistsNamed = (name: string) => async () =>
  ((await person.client.get('/api/playlists/spotify')).body as PlaylistSummary[]).filter(
    (item) => item.name === name,
  ).length;

async function readyMatchSet(playlistId: string) {
  const started = await person.client.post('/api/match', {
    sourceService: 'spotify',
    destinationService: 'apple',
    playlistId,
  });
  expect(started.status, started.text).toBeLessThan(300);
  const view = await waitUntil(
    async () =>
      (await person.client.get(`/api/match/${(started.body as MatchSetView).matchSetId}`))
        .body as MatchSetView,
    (current) => current.status !== 'matching',
  );
  expect(view.status).toBe('ready');
  return view;
}

async function finishedJob(jobId: string) {
  return waitUntil(
    async () => (await person.client.get(`/api/jobs/${jobId}`)).body as { status: string },
    (job) => ['succeeded', 'failed', 'cancelled'].includes(job.status),
  );
}

interface CreateRequest {
  /** The request's path (with its query and ids filled in). */
  url: string;
  body?: unknown;
  /** A body sent as it is (a file), with its content type. */
  raw?: { text: string; contentType: string };
  /** Counts what the endpoint creates. */
  count: () => Promise<number>;
  /** How many things one run creates (0: the answer itself, e.g. a checkout session or a retry). */
  creates?: number;
}

/** How to call each create endpoint, preparing what it needs first (without a key). */
const CASES: Record<string, () => Promise<CreateRequest>> = {
  '/api/match': async () => ({
    url: '/api/match',
    body: { sourceService: 'spotify', destinationService: 'apple', playlistId: playlist('Road Trip').id },
    count: own(matchSets),
  }),
  '/api/transfer': async () => {
    const view = await readyMatchSet(playlist('Gym Rotation').id);
    return {
      url: '/api/transfer',
      body: {
        sourceService: 'spotify',
        destinationService: 'apple',
        playlistId: playlist('Gym Rotation').id,
        matchSetId: view.matchSetId,
      },
      count: own(transfers),
    };
  },
  '/api/transfers/:transferId/retry': async () => {
    const view = await readyMatchSet(playlist('Road Trip').id);
    const started = await person.client.post('/api/transfer', {
      sourceService: 'spotify',
      destinationService: 'apple',
      playlistId: playlist('Road Trip').id,
      matchSetId: view.matchSetId,
    });
    const { transferId } = started.body as TransferResult;
    const done = await waitUntil(
      async () => (await person.client.get(`/api/transfers/${transferId}`)).body as TransferResult,
      (current) => current.status === 'succeeded' || current.status === 'failed',
    );
    // A retry needs a failed transfer: the way one is stored after its job gave up.
    if (done.status !== 'failed')
      await server.deps.db
        .update(transfers)
        .set({ status: 'failed', error: 'gave up' })
        .where(eq(transfers.id, transferId));
    return { url: `/api/transfers/${transferId}/retry`, count: own(transfers), creates: 0 };
  },
  '/api/batches': async () => ({
    url: '/api/batches',
    body: {
      sourceService: 'spotify',
      destinationService: 'apple',
      playlistIds: [playlist('Gym Rotation').id],
    },
    count: own(batches),
  }),
  '/api/batches/:batchId/transfer': async () => {
    const created = await person.client.post('/api/batches', {
      sourceService: 'spotify',
      destinationService: 'apple',
      playlistIds: [playlist('Road Trip').id],
    });
    const { batchId } = created.body as { batchId: string };
    await waitUntil(
      async () => (await person.client.get(`/api/batches/${batchId}`)).body as { status: string },
      (batch) => batch.status !== 'matching',
    );
    // The batch's one playlist becomes one transfer.
    return { url: `/api/batches/${batchId}/transfer`, count: own(transfers) };
  },
  '/api/syncs': async () => ({
    url: '/api/syncs',
    body: {
      sourceService: 'spotify',
      sourcePlaylistId: playlist('Road Trip').id,
      destinationService: 'apple',
      schedule: 'manual',
      removals: false,
    },
    count: own(syncs),
  }),
  '/api/syncs/:id/run': async () => {
    const created = await person.client.post('/api/syncs', {
      sourceService: 'spotify',
      sourcePlaylistId: playlist('Gym Rotation').id,
      destinationService: 'apple',
      schedule: 'manual',
      removals: false,
    });
    expect(created.status, created.text).toBe(201);
    const { sync } = created.body as { sync: { id: string } };
    await waitUntil(
      async () =>
        (await person.client.get(`/api/syncs/${sync.id}/runs`)).body as { runs: { status: string }[] },
      ({ runs }) => runs.every((run) => run.status !== 'queued' && run.status !== 'running'),
    );
    return { url: `/api/syncs/${sync.id}/run`, body: {}, count: own(syncRuns) };
  },
  '/api/syncs/:id/rebuild': async () => {
    const created = await person.client.post('/api/syncs', {
      sourceService: 'spotify',
      sourcePlaylistId: playlist('Gym Rotation').id,
      destinationService: 'apple',
      schedule: 'manual',
      removals: false,
      direction: 'two-way',
    });
    expect(created.status, created.text).toBe(201);
    const { sync } = created.body as { sync: { id: string } };
    const stopped = () =>
      waitUntil(
        async () =>
          (await person.client.get(`/api/syncs/${sync.id}/runs`)).body as { runs: { status: string }[] },
        ({ runs }) => runs.every((run) => run.status !== 'queued' && run.status !== 'running'),
      );
    await stopped();
    // A rebuild needs a merged state: one real run first.
    expect((await person.client.post(`/api/syncs/${sync.id}/run`, {})).status).toBe(202);
    await stopped();
    return { url: `/api/syncs/${sync.id}/rebuild`, count: own(syncRuns) };
  },
  '/api/links': async () => ({ url: '/api/links', body: { name: unique('link') }, count: own(links) }),
  '/api/claude/merge-playlists': async () => ({
    url: '/api/claude/merge-playlists',
    body: {
      userPlaylistId: `spotify:${playlist('Road Trip').id}`,
      friendPlaylistId: `spotify:${playlist('K-Pop Favourites').id}`,
    },
    count: own(mergedPlaylists),
  }),
  '/api/save-playlist': async () => {
    const merged = await person.client.post('/api/claude/merge-playlists', {
      userPlaylistId: `spotify:${playlist('Road Trip').id}`,
      friendPlaylistId: `spotify:${playlist('Gym Rotation').id}`,
    });
    const { tracks, newPlaylistId } = merged.body as { tracks: { id: string }[]; newPlaylistId: string };
    const name = unique('Our Mix ');
    return {
      url: '/api/save-playlist',
      body: {
        playlistName: name,
        tracks: tracks.map((track) => track.id),
        newPlaylistId,
        service: 'spotify',
      },
      count: spotifyPlaylistsNamed(name),
    };
  },
  '/api/merge/invitations': async () => ({
    url: '/api/merge/invitations',
    body: {
      playlistId: playlist('Road Trip').id,
      service: 'spotify',
      friendEmail: `${unique('kim')}@example.com`,
    },
    count: async () => rows(mergeInvitations, 'inviter_id', person.userId),
  }),
  '/api/merge/invitations/:token/accept': async () => {
    // Someone else invites the person, who answers signed in with a share URL.
    const inviter = await signUp('free');
    await connectService(inviter.client, 'spotify');
    const invited = await inviter.client.post('/api/merge/invitations', {
      playlistId: playlist('Road Trip').id,
      service: 'spotify',
      friendEmail: `${unique('friend')}@example.com`,
    });
    expect(invited.status, invited.text).toBe(201);
    const token = (invited.body as { inviteUrl: string }).inviteUrl.split('/').at(-1) ?? '';
    return {
      url: `/api/merge/invitations/${token}/accept`,
      body: { shareUrl: spotifyLink(playlist('Gym Rotation').id) },
      count: async () => rows(mergedPlaylists, 'user_id', inviter.userId),
    };
  },
  '/api/create-region-optimized-playlist': async () => ({
    url: '/api/create-region-optimized-playlist',
    body: { playlistUrl: spotifyLink(playlist('Around the World').id), targetRegion: 'JP', replacements: [] },
    count: spotifyPlaylistsNamed('Around the World (JP)'),
  }),
  '/api/vault/backups': async () => ({
    url: '/api/vault/backups',
    count: async () =>
      (
        await server.deps.db.select({ kind: jobs.kind }).from(jobs).where(eq(jobs.userId, person.userId))
      ).filter((job) => job.kind === 'backup').length,
  }),
  '/api/vault/backups/:id/restore': async () => {
    const started = await person.client.post('/api/vault/backups');
    expect((await finishedJob((started.body as { jobId: string }).jobId)).status).toBe('succeeded');
    const backups = (await person.client.get('/api/vault/backups')).body as BackupSummary[];
    const spotify = backups.find((backup) => backup.service === 'spotify');
    const detail = (await person.client.get(`/api/vault/backups/${spotify?.id}`)).body as BackupDetail;
    return {
      url: `/api/vault/backups/${spotify?.id}/restore`,
      body: { playlistId: detail.playlists[0]?.id, destinationService: 'apple' },
      count: own(importedPlaylists),
    };
  },
  '/api/export/cloud': async () => ({
    url: '/api/export/cloud',
    body: { service: 'spotify', playlistId: playlist('Road Trip').id, format: 'csv', target: 'crossfade' },
    count: own(savedExports),
  }),
  '/api/recreate': async () => ({
    url: '/api/recreate',
    body: { name: unique('Lost mix '), text: '1. Daft Punk - One More Time\nHey Jude by The Beatles' },
    count: own(importedPlaylists),
  }),
  '/api/recreate/from-link': async () => ({
    url: '/api/recreate/from-link',
    body: { playlistUrl: spotifyLink(playlist('Road Trip').id) },
    count: own(importedPlaylists),
  }),
  '/api/import/csv': async () => ({
    url: '/api/import/csv?fileName=once.csv',
    raw: {
      text: 'Track Name,Artist,Album,Duration\nOne More Time,Daft Punk,Discovery,5:20\n',
      contentType: 'text/csv',
    },
    count: own(importedPlaylists),
  }),
  // A Checkout or portal session lives at the payments emulator: the answer (its URL, one per session)
  // is what repeats, so a second session would show as another URL.
  '/api/billing/checkout': async () => ({
    url: '/api/billing/checkout',
    body: { plan: 'pro' },
    count: async () => 0,
    creates: 0,
  }),
  '/api/billing/portal': async () => ({
    url: '/api/billing/portal',
    body: {},
    count: async () => 0,
    creates: 0,
  }),
  // A restore or an undo creates one restore job.
  '/api/history/:service/:playlistId/restore': async () => {
    const playlistId = playlist('Road Trip').id;
    await readyMatchSet(playlistId);
    const page = (await person.client.get(`/api/history/spotify/${playlistId}`)).body as HistoryPage;
    return {
      url: `/api/history/spotify/${playlistId}/restore`,
      body: { versionId: page.versions[0]?.id },
      count: restoreJobs,
    };
  },
  '/api/transfers/:id/undo': async () => {
    const { transferId } = await finishedTransfer(playlist('Road Trip').id);
    return { url: `/api/transfers/${transferId}/undo`, body: {}, count: restoreJobs };
  },
  '/api/syncs/:id/runs/:runId/undo': async () => {
    const created = await person.client.post('/api/syncs', {
      sourceService: 'apple',
      sourcePlaylistId: (await applePlaylists())[0]?.id,
      destinationService: 'spotify',
      schedule: 'manual',
      removals: false,
    });
    expect(created.status, created.text).toBe(201);
    const { sync } = created.body as { sync: { id: string } };
    const settled = () =>
      waitUntil(
        async () =>
          (await person.client.get(`/api/syncs/${sync.id}/runs`)).body as {
            runs: { id: string; status: string; dryRun: boolean }[];
          },
        ({ runs }) => runs.every((run) => run.status !== 'queued' && run.status !== 'running'),
      );
    await settled();
    expect((await person.client.post(`/api/syncs/${sync.id}/run`, {})).status).toBe(202);
    const { runs } = await settled();
    const run = runs.find((candidate) => !candidate.dryRun && candidate.status === 'succeeded');
    return { url: `/api/syncs/${sync.id}/runs/${run?.id}/undo`, body: {}, count: restoreJobs };
  },
};

const restoreJobs = async () =>
  (await server.deps.db.select({ kind: jobs.kind }).from(jobs).where(eq(jobs.userId, person.userId))).filter(
    (job) => job.kind === 'history-restore',
  ).length;

const applePlaylists = async () =>
  (await person.client.get('/api/playlists/apple')).body as PlaylistSummary[];

async function finishedTransfer(playlistId: string) {
  const view = await readyMatchSet(playlistId);
  const started = await person.client.post('/api/transfer', {
    sourceService: 'spotify',
    destinationService: 'apple',
    playlistId,
    matchSetId: view.matchSetId,
  });
  const { transferId } = started.body as TransferResult;
  const done = await waitUntil(
    async () => (await person.client.get(`/api/transfers/${transferId}`)).body as TransferResult,
    (current) => current.status === 'succeeded' || current.status === 'failed',
  );
  expect(done.status).toBe('succeeded');
  return done;
}

function send(request: CreateRequest, key: string | undefined, client = person.client) {
  const headers: Record<string, string> = key === undefined ? {} : { 'idempotency-key': key };
  if (request.raw) headers['content-type'] = request.raw.contentType;
  return client.send('POST', request.url, request.body, {
    headers,
    ...(request.raw ? { raw: request.raw.text } : {}),
  });
}

beforeAll(async () => {
  server = await startTestServer();
  person = await signUp('vault');
  await connectService(person.client, 'spotify');
  await connectService(person.client, 'apple');
  lists = (await person.client.get('/api/playlists/spotify')).body as PlaylistSummary[];
}, 60_000);
afterAll(() => server.close());

describe('the list of create endpoints', () => {
  /** Every POST that creates nothing, and why a repeat is harmless. */
  const CREATES_NOTHING: Record<string, string> = {
    '/api/auth/register': 'signed out; a second sign-up with the same username or e-mail is refused (409)',
    '/api/auth/login': 'a session per sign-in is what signing in means',
    '/api/auth/logout': 'ends the session; twice is once',
    '/api/auth/apple/init': 'stores the one Apple connection (an upsert)',
    '/api/auth/:service{spotify|apple}/disconnect': 'removes the connection; twice is once',
    '/api/events': 'analytics events, limited per person or address',
    '/api/fetch-playlist-tracks': 'reads a playlist',
    '/api/fetch-friend-playlist': 'reads a playlist',
    '/api/claude/geo-locked-alternatives': 'an analysis; nothing is stored',
    '/api/claude/onboarding-chat': 'a reply; nothing is stored',
    '/api/match/:matchSetId/accept-review': 'sets rows to accepted; twice is once',
    '/api/syncs/:id/runs/:runId/confirm': 'confirms one run; the second is refused (409)',
    '/api/syncs/:id/pause': 'sets a state',
    '/api/syncs/:id/resume': 'sets a state',
    '/api/public/links/:slug/signup': 'signed out; one signup per e-mail address',
    '/api/export/playlist': 'a download; nothing is stored',
    '/api/cloud-drives/:drive/disconnect': 'forgets the drive connection; twice is once',
    '/api/billing/webhook': "Stripe's signed events, each acted on once by its event id",
  };

  it('names every POST route of the API, as a create or as one that creates nothing', () => {
    const posts = [
      ...new Set(
        createApp(server.deps)
          .routes.filter((route) => route.method === 'POST' && route.path.startsWith('/api/'))
          .map((route) => route.path),
      ),
    ];
    const unnamed = posts.filter((path) => !IDEMPOTENT_CREATES.includes(path) && !(path in CREATES_NOTHING));
    expect(unnamed, 'add each to IDEMPOTENT_CREATES (shared/idempotency.ts) or CREATES_NOTHING').toEqual([]);
    expect(
      IDEMPOTENT_CREATES.filter((path) => !posts.includes(path)),
      'listed creates with no route',
    ).toEqual([]);
    expect(Object.keys(CREATES_NOTHING).filter((path) => !posts.includes(path))).toEqual([]);
    // Each create is tried below.
    expect(Object.keys(CASES).sort()).toEqual([...IDEMPOTENT_CREATES].sort());
  });
});

describe('two posts with the same Idempotency-Key', () => {
  it.each(IDEMPOTENT_CREATES.map((path) => [path]))(
    'create once: %s',
    async (path) => {
      const request = await (CASES[path] as () => Promise<CreateRequest>)();
      const before = await request.count();
      const key = randomUUID();
      const first = await send(request, key);
      expect(first.status < 400 || first.status >= 500, first.text).toBe(true);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const second = await send(request, key);
      expect(second.status).toBe(first.status);
      expect(second.text).toBe(first.text);
      expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(await request.count()).toBe(before + (request.creates ?? 1));
    },
    90_000,
  );

  it('create twice without a key (what the key prevents)', async () => {
    const request = await (CASES['/api/links'] as () => Promise<CreateRequest>)();
    const before = await request.count();
    expect((await send(request, undefined)).status).toBe(201);
    expect((await send(request, undefined)).status).toBe(201);
    expect(await request.count()).toBe(before + 2);
  });

  it('sent at once create once: the others are told it is still running', async () => {
    const url = spotifyLink(playlist('Road Trip').id);
    const request: CreateRequest = {
      url: '/api/links',
      body: { name: unique('race'), url },
      count: own(links),
    };
    const before = await request.count();
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 6 }, () => send(request, key)));
    expect(await request.count()).toBe(before + 1);
    const created = answers.filter((answer) => answer.status === 201);
    const running = answers.filter((answer) => answer.status === 409);
    expect(created.length + running.length).toBe(answers.length);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((answer) => answer.text)).size).toBe(1);
    for (const answer of running) {
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(message(answer)).toBe(
        'A request with this Idempotency-Key is still running. Try again in a moment to get its answer.',
      );
    }
    // Once it is done, every repeat gets its answer.
    const after = await send(request, key);
    expect(after.status).toBe(201);
    expect(after.text).toBe(created[0]?.text);
  });
});

describe('refusals', () => {
  it('refuses the same key with another body or another endpoint (422), and creates nothing', async () => {
    const key = randomUUID();
    const first = await send({ url: '/api/links', body: { name: 'Mine' }, count: own(links) }, key);
    expect(first.status).toBe(201);
    const before = await own(links)();
    const otherBody = await send({ url: '/api/links', body: { name: 'Other' }, count: own(links) }, key);
    expect(otherBody.status).toBe(422);
    expect(message(otherBody)).toBe(
      'This Idempotency-Key was already used for a different request (the first was POST /api/links). ' +
        'Send a new key for a new request.',
    );
    const otherPath = await send(
      { url: '/api/recreate', body: { name: 'Mine', text: 'A - B' }, count: own(importedPlaylists) },
      key,
    );
    expect(otherPath.status).toBe(422);
    expect(message(otherPath)).toMatch(/\(the first was POST \/api\/links\)/);
    expect(await own(links)()).toBe(before);
  });

  it('keeps keys apart per person: another person with the same key gets their own create', async () => {
    const key = randomUUID();
    const request = { url: '/api/links', body: { name: 'Same' }, count: own(links) };
    const mine = await send(request, key);
    const other = await signUp('free');
    const theirs = await send(request, key, other.client);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect((theirs.body as { id: string }).id).not.toBe((mine.body as { id: string }).id);
  });

  it('keeps no refusal: after a 4xx the same key runs again', async () => {
    const key = randomUUID();
    const request = { url: '/api/links', body: { name: '' }, count: own(links) };
    const refused = await send(request, key);
    expect(refused.status).toBe(400);
    const again = await send(request, key);
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    // Fixed, under the same key: it runs (nothing was stored for the refusal).
    expect((await send({ ...request, body: { name: 'Fixed' } }, key)).status).toBe(201);
  });

  it('refuses a key that is not 1 to 255 visible characters, and ignores keys of signed-out requests', async () => {
    const request = { url: '/api/links', body: { name: 'x' }, count: own(links) };
    const long = await send(request, 'k'.repeat(256));
    expect(long.status).toBe(400);
    expect(message(long)).toBe('The Idempotency-Key header must be 1 to 255 visible ASCII characters.');
    expect((await send(request, 'two words')).status).toBe(400);
    expect((await send(request, randomUUID(), server.newClient())).status).toBe(401);
  });

  it('forgets a key after 24 hours: the same request then creates again', async () => {
    const key = randomUUID();
    const request = { url: '/api/links', body: { name: unique('old') }, count: own(links) };
    const before = await request.count();
    expect((await send(request, key)).status).toBe(201);
    await server.deps.db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - 25 * 60 * 60_000) })
      .where(eq(idempotencyKeys.key, key));
    const later = await send(request, key);
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(await request.count()).toBe(before + 2);
  });
});
