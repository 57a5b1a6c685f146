import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stableLibraryId } from '../../sandbox/apple/apple-style';
import type {
  CreateInvitationResponse,
  InvitationSummary,
  InvitationView,
  MergedPlaylist,
  MergePlaylistsResponse,
  SavePlaylistResponse,
} from '../../shared/api/merge';
import type { FetchPlaylistTracksResponse, PlaylistSummary } from '../../shared/api/playlists';
import { mergeInvitations, outboxMessages } from '../db/schema';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer, testCatalog } from '../testing/test-server';

let server: TestServer;
let sam: TestClient;
let samPlaylists: PlaylistSummary[];
const spotifyLink = (id: string) => `https://open.spotify.com/playlist/${id}`;
const byName = (name: string) => {
  const found = samPlaylists.find((playlist) => playlist.name === name);
  if (!found) throw new Error(`no demo playlist ${name}`);
  return found;
};

async function signUp(name: string) {
  const client = server.newClient();
  const answer = await client.post('/api/auth/register', {
    username: name,
    email: `${name}@example.com`,
    password: 'secret123',
  });
  expect(answer.status).toBeLessThan(300);
  return client;
}

beforeAll(async () => {
  server = await startTestServer();
  sam = await signUp('sam');
  await connectService(sam, 'spotify');
  await connectService(sam, 'apple');
  samPlaylists = (await sam.get('/api/playlists/spotify')).body as PlaylistSummary[];
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const sameSongKey = (track: { name: string; artists: string[] }) =>
  `${track.name.toLowerCase()}|${track.artists[0]?.toLowerCase()}`;

describe('POST /api/claude/merge-playlists', () => {
  it('asks for sign-in, both playlists, and a mix ratio within 0-100', async () => {
    const anonymous = server.newClient();
    expect((await anonymous.post('/api/claude/merge-playlists', {})).status).toBe(401);

    const missing = await sam.post('/api/claude/merge-playlists', {
      userPlaylistId: '',
      friendPlaylistId: '',
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ message: "Please select both your playlist and your friend's playlist" });
    const onlyMine = await sam.post('/api/claude/merge-playlists', {
      userPlaylistId: `spotify:${byName('Road Trip').id}`,
    });
    expect(onlyMine.body).toEqual({ message: "Please select both your playlist and your friend's playlist" });

    for (const mixRatio of [[120, -20], [-10, 110], [50, 60], [50], 'half']) {
      const answer = await sam.post('/api/claude/merge-playlists', {
        userPlaylistId: `spotify:${byName('Road Trip').id}`,
        friendPlaylistId: spotifyLink(byName('K-Pop Favourites').id),
        mixRatio,
        includeBridgeTracks: false,
      });
      expect(answer.status, JSON.stringify(mixRatio)).toBe(400);
      expect((answer.body as { message: string }).message).toMatch(/mix ratio/i);
    }
  });

  it('rejects links that are not playlists of a known service', async () => {
    const answer = await sam.post('/api/claude/merge-playlists', {
      userPlaylistId: `spotify:${byName('Road Trip').id}`,
      friendPlaylistId: 'https://example.com/playlist/abc',
    });
    expect(answer.status).toBe(400);
  });

  it('mixes two playlists in the ratio, without duplicates, with bridge tracks, and stores the result', async () => {
    const road = byName('Road Trip');
    const kpop = byName('K-Pop Favourites');
    const answer = await sam.post('/api/claude/merge-playlists', {
      userPlaylistId: `spotify:${road.id}`,
      friendPlaylistId: `spotify:${kpop.id}`,
      mixRatio: [70, 30],
      includeBridgeTracks: true,
    });
    expect(answer.status, answer.text).toBe(200);
    const merge = answer.body as MergePlaylistsResponse;
    expect(merge.playlistName.length).toBeGreaterThan(0);
    expect(merge.insightSummary.length).toBeGreaterThan(0);
    // No model runs in these tests: the server says the local rules wrote the insight (no "AI" on the page).
    expect(merge.insightWrittenBy).toBe('local');
    const shown = (await server.newClient().get(`/api/merged-playlists/${merge.newPlaylistId}`))
      .body as MergedPlaylist;
    expect(shown.insightWrittenBy).toBe('local');

    const mine = new Set(
      (
        (await sam.post('/api/fetch-playlist-tracks', { playlistUrl: spotifyLink(road.id) }))
          .body as FetchPlaylistTracksResponse
      ).tracks.map((t) => t.id),
    );
    const theirs = new Set(
      (
        (await sam.post('/api/fetch-playlist-tracks', { playlistUrl: spotifyLink(kpop.id) }))
          .body as FetchPlaylistTracksResponse
      ).tracks.map((t) => t.id),
    );
    const regular = merge.tracks.filter((t) => !t.id.startsWith('bt-'));
    const fromMe = regular.filter((t) => mine.has(t.id)).length;
    const fromFriend = regular.filter((t) => !mine.has(t.id) && theirs.has(t.id)).length;
    expect(fromMe + fromFriend).toBe(regular.length);
    expect(Math.abs(fromMe - (regular.length * 70) / 100)).toBeLessThanOrEqual(1);
    expect(new Set(merge.tracks.map(sameSongKey)).size).toBe(merge.tracks.length);
    const bridges = merge.tracks.filter((t) => t.id.startsWith('bt-'));
    expect(bridges.length).toBeGreaterThan(0);
    for (const bridge of bridges) {
      expect(bridge.source).toBe('bridge');
      expect(mine.has(bridge.id.slice(3)) || theirs.has(bridge.id.slice(3))).toBe(false);
    }

    // The public page shows the same playlist to anyone with the link.
    const page = await server.newClient().get(`/api/merged-playlists/${merge.newPlaylistId}`);
    expect(page.status).toBe(200);
    const stored = page.body as MergedPlaylist;
    expect(stored.name).toBe(merge.playlistName);
    expect(stored.tracks.map((t) => t.id)).toEqual(merge.tracks.map((t) => t.id));
    expect(stored.mixRatio).toEqual([70, 30]);
  });

  it('merges overlapping playlists with true counts: the same playlist twice is every track, 100% shared', async () => {
    const road = byName('Road Trip');
    // The spec's body and nothing more: the friend's id as /api/fetch-friend-playlist answered it.
    const friend = (await sam.post('/api/fetch-friend-playlist', { shareUrl: spotifyLink(road.id) }))
      .body as { id: string };
    const answer = await sam.post('/api/claude/merge-playlists', {
      userPlaylistId: road.id,
      friendPlaylistId: friend.id,
      mixRatio: [50, 50],
      includeBridgeTracks: false,
    });
    expect(answer.status, answer.text).toBe(200);
    const merge = answer.body as MergePlaylistsResponse;
    const tracks = (
      (await sam.post('/api/fetch-playlist-tracks', { playlistUrl: spotifyLink(road.id) }))
        .body as FetchPlaylistTracksResponse
    ).tracks;
    const songs = new Set(tracks.map(sameSongKey));
    expect(merge.tracks).toHaveLength(Math.min(songs.size, 100));
    expect(merge.tracks.every((t) => t.source === 'both')).toBe(true);
    const n = merge.tracks.length;
    expect(merge.insightSummary).toContain(`${n} of the ${n} tracks (100%) are on both playlists`);
  });

  it('says which side is empty instead of merging nothing', async () => {
    const answer = await sam.post('/api/claude/merge-playlists', {
      userPlaylistId: byName('New Playlist').id,
      friendPlaylistId: byName('Road Trip').id,
      mixRatio: [50, 50],
      includeBridgeTracks: false,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      message: '"New Playlist" has no tracks to merge. Pick a playlist with songs in it, or add some first.',
    });
  });

  it('leaves bridge tracks out when they are turned off', async () => {
    const answer = await sam.post('/api/claude/merge-playlists', {
      userPlaylistId: byName('Road Trip').id,
      userService: 'spotify',
      friendPlaylistId: byName('Late Night Jazz').id,
      friendService: 'spotify',
      mixRatio: [50, 50],
      includeBridgeTracks: false,
    });
    expect(answer.status, answer.text).toBe(200);
    expect((answer.body as MergePlaylistsResponse).tracks.some((t) => t.id.startsWith('bt-'))).toBe(false);
  });

  it('answers 404 for merged playlists that do not exist', async () => {
    expect((await sam.get('/api/merged-playlists/not-a-uuid')).status).toBe(404);
    expect((await sam.get('/api/merged-playlists/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('POST /api/save-playlist', () => {
  it('creates the merged playlist in the person’s service, matching tracks from the other service', async () => {
    const appleLists = (await sam.get('/api/playlists/apple')).body as PlaylistSummary[];
    const appleJazz = appleLists.find((p) => p.name === 'Late Night Jazz');
    if (!appleJazz) throw new Error('no Apple demo playlist');
    const answer = await sam.post('/api/claude/merge-playlists', {
      userPlaylistId: `spotify:${byName('Road Trip').id}`,
      friendPlaylistId: `https://music.apple.com/library/playlist/${appleJazz.id}`,
      mixRatio: [50, 50],
      includeBridgeTracks: true,
    });
    expect(answer.status, answer.text).toBe(200);
    const merge = answer.body as MergePlaylistsResponse;
    expect(merge.tracks.some((t) => t.service === 'apple')).toBe(true);

    const saved = await sam.post('/api/save-playlist', {
      playlistName: 'Our Mix',
      tracks: merge.tracks.map((t) => t.id),
      newPlaylistId: merge.newPlaylistId,
      service: 'spotify',
    });
    expect(saved.status, saved.text).toBe(200);
    const result = saved.body as SavePlaylistResponse;
    expect(result.url).toMatch(/^https?:\/\//);
    expect(result.saved + result.skipped).toBe(merge.tracks.length);
    expect(result.saved).toBeGreaterThan(merge.tracks.filter((t) => t.service === 'spotify').length);

    const created = await sam.post('/api/fetch-playlist-tracks', {
      playlistUrl: spotifyLink(result.playlistId),
    });
    const body = created.body as FetchPlaylistTracksResponse;
    expect(body.playlist.name).toBe('Our Mix');
    expect(body.tracks).toHaveLength(result.saved);
  });

  it('finds the merge from the track ids alone (spec payload) and validates input', async () => {
    const merge = (
      await sam.post('/api/claude/merge-playlists', {
        userPlaylistId: `spotify:${byName('Gym Rotation').id}`,
        friendPlaylistId: `spotify:${byName('Road Trip').id}`,
        includeBridgeTracks: false,
      })
    ).body as MergePlaylistsResponse;
    const saved = await sam.post('/api/save-playlist', {
      playlistName: 'Gym x Road',
      tracks: merge.tracks.map((t) => t.id),
    });
    expect(saved.status, saved.text).toBe(200);
    expect((saved.body as SavePlaylistResponse).saved).toBe(merge.tracks.length);

    expect((await sam.post('/api/save-playlist', { playlistName: 'x', tracks: [] })).status).toBe(400);
    expect(
      (await server.newClient().post('/api/save-playlist', { playlistName: 'x', tracks: ['a'] })).status,
    ).toBe(401);
  });
});

describe('save-playlist of another person’s merge (decision 0012)', () => {
  it('answers 404 while the merge is private, copies it once its owner makes it public', async () => {
    const merge = (
      await sam.post('/api/claude/merge-playlists', {
        userPlaylistId: `spotify:${byName('Road Trip').id}`,
        friendPlaylistId: `spotify:${byName('Gym Rotation').id}`,
        includeBridgeTracks: false,
      })
    ).body as MergePlaylistsResponse;
    const page = (await sam.get(`/api/merged-playlists/${merge.newPlaylistId}`)).body as MergedPlaylist;
    expect(page).toMatchObject({ public: false, yours: true, canCopy: true });
    const anonymousView = await server.newClient().get(`/api/merged-playlists/${merge.newPlaylistId}`);
    expect(anonymousView.body).toMatchObject({ public: false, yours: false, canCopy: false });

    const alex = await signUp('alex');
    await connectService(alex, 'spotify');
    const copy = () =>
      alex.post('/api/save-playlist', {
        playlistName: 'Borrowed',
        tracks: merge.tracks.map((t) => t.id),
        newPlaylistId: merge.newPlaylistId,
        service: 'spotify',
      });
    const missing = await alex.post('/api/save-playlist', {
      playlistName: 'Borrowed',
      tracks: merge.tracks.map((t) => t.id),
      newPlaylistId: '00000000-0000-4000-8000-000000000000',
      service: 'spotify',
    });
    expect(missing.status).toBe(404);
    const seen = (await alex.get(`/api/merged-playlists/${merge.newPlaylistId}`)).body as MergedPlaylist;
    expect(seen).toMatchObject({ public: false, yours: false, canCopy: false });
    const refused = await copy();
    expect(refused.status).toBe(404);
    // The same answer as for a merge that does not exist: private ids cannot be probed.
    expect(refused.body).toEqual(missing.body);
    // Ids alone (the spec payload) only ever find the person's own merges.
    const byIds = await alex.post('/api/save-playlist', {
      playlistName: 'Borrowed',
      tracks: merge.tracks.map((t) => t.id),
    });
    expect(byIds.status).toBe(404);

    // Only the owner changes it; to anyone else the merge is not there.
    expect(
      (await alex.send('PATCH', `/api/merged-playlists/${merge.newPlaylistId}`, { public: true })).status,
    ).toBe(404);
    expect(
      (
        await server
          .newClient()
          .send('PATCH', `/api/merged-playlists/${merge.newPlaylistId}`, { public: true })
      ).status,
    ).toBe(401);
    const badBody = await sam.send('PATCH', `/api/merged-playlists/${merge.newPlaylistId}`, {
      public: 'yes',
    });
    expect(badBody.status).toBe(400);
    expect((badBody.body as { message: string }).message).toMatch(/public/);

    const published = await sam.send('PATCH', `/api/merged-playlists/${merge.newPlaylistId}`, {
      public: true,
    });
    expect(published.status, published.text).toBe(200);
    expect((published.body as MergedPlaylist).public).toBe(true);
    expect((await alex.get(`/api/merged-playlists/${merge.newPlaylistId}`)).body).toMatchObject({
      public: true,
      yours: false,
      canCopy: true,
    });
    const copied = await copy();
    expect(copied.status, copied.text).toBe(200);
    expect((copied.body as SavePlaylistResponse).saved).toBe(merge.tracks.length);
    const created = await alex.post('/api/fetch-playlist-tracks', {
      playlistUrl: spotifyLink((copied.body as SavePlaylistResponse).playlistId),
    });
    expect((created.body as FetchPlaylistTracksResponse).playlist.name).toBe('Borrowed');

    const hidden = await sam.send('PATCH', `/api/merged-playlists/${merge.newPlaylistId}`, { public: false });
    expect((hidden.body as MergedPlaylist).public).toBe(false);
    expect((await copy()).status).toBe(404);
  });
});

describe('merge invitations', () => {
  it('validates the invitation request', async () => {
    const road = byName('Road Trip');
    const noEmail = await sam.post('/api/merge/invitations', {
      playlistId: road.id,
      service: 'spotify',
      friendEmail: ' ',
    });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body).toEqual({ message: "Please select a playlist and enter your friend's email" });
    const noPlaylist = await sam.post('/api/merge/invitations', {
      service: 'spotify',
      friendEmail: 'kim@example.com',
    });
    expect(noPlaylist.body).toEqual({ message: "Please select a playlist and enter your friend's email" });
    const badEmail = await sam.post('/api/merge/invitations', {
      playlistId: road.id,
      service: 'spotify',
      friendEmail: 'kim',
    });
    expect(badEmail.status).toBe(400);
    expect((await server.newClient().post('/api/merge/invitations', {})).status).toBe(401);
    expect((await sam.get('/api/merge/invitations/nope')).status).toBe(404);
  });

  it('invites by e-mail, lets the friend answer with their playlist, and shows the merge to both', async () => {
    const road = byName('Road Trip');
    const created = await sam.post('/api/merge/invitations', {
      playlistId: road.id,
      service: 'spotify',
      friendEmail: 'kim@example.com',
    });
    expect(created.status, created.text).toBe(201);
    const invitation = created.body as CreateInvitationResponse;
    expect(invitation.emailSent).toBe(true);
    expect(invitation.inviteUrl).toMatch(new RegExp(`^${server.url}/merge/invite/[A-Za-z0-9_-]{20,}$`));
    const token = invitation.inviteUrl.split('/').at(-1) ?? '';

    // The operator can read the mail in DATA_DIR/outbox, with the link replaced (the inviter copies it
    // from the screen): neither the file, the outbox row nor the invitation row holds a working token.
    const outbox = join(server.deps.config.DATA_DIR, 'outbox');
    const mails = readdirSync(outbox).map((file) => readFileSync(join(outbox, file), 'utf8'));
    const mail = mails.find((text) => text.includes('To: kim@example.com'));
    expect(mail).toContain('Road Trip');
    expect(mail).toContain('[link sent]');
    for (const text of mails) expect(text).not.toContain(token);
    const stored = await server.deps.db.select().from(outboxMessages);
    expect(stored.some((message) => message.recipient === 'kim@example.com')).toBe(true);
    for (const message of stored) expect(message.body).not.toContain(token);
    const [row] = await server.deps.db
      .select()
      .from(mergeInvitations)
      .where(eq(mergeInvitations.id, invitation.id));
    expect(row?.tokenHash).not.toContain(token);

    const kim = await signUp('kim');
    const view = await server.newClient().get(`/api/merge/invitations/${token}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      inviterName: 'sam',
      playlistName: 'Road Trip',
      status: 'pending',
      mergedPlaylistId: null,
    });

    expect((await kim.post(`/api/merge/invitations/${token}/accept`, {})).status).toBe(400);
    // Spotify links need a Spotify connection to read.
    const unsigned = await server
      .newClient()
      .post(`/api/merge/invitations/${token}/accept`, { shareUrl: spotifyLink(byName('Gym Rotation').id) });
    expect(unsigned.status).toBe(401);

    await connectService(kim, 'spotify');
    const kimLists = (await kim.get('/api/playlists/spotify')).body as PlaylistSummary[];
    const kimJazz = kimLists.find((p) => p.name === 'Late Night Jazz');
    const accepted = await kim.post(`/api/merge/invitations/${token}/accept`, {
      playlistId: kimJazz?.id,
      service: 'spotify',
    });
    expect(accepted.status, accepted.text).toBe(200);
    const merge = accepted.body as MergePlaylistsResponse;
    expect(merge.tracks.length).toBeGreaterThan(0);
    // Kim reads the answer: Kim is "you" in it and Sam is the friend, in the words and the labels.
    expect(merge.insightSummary).toContain('50% you / 50% sam');
    expect(merge.insightSummary).not.toContain('% kim');
    const kimOnly = merge.tracks.filter((t) => t.source === 'you').map((t) => t.id);
    const samPage = (await sam.get(`/api/merged-playlists/${merge.newPlaylistId}`)).body as MergedPlaylist;
    // The merged playlist's page is for anyone: both people by name, nobody called "you".
    expect(samPage.insightSummary).toContain('50% sam / 50% kim');
    expect(samPage.insightSummary).not.toMatch(/\byou(r)?\b/i);
    expect(samPage.tracks.filter((t) => t.source === 'friend').map((t) => t.id)).toEqual(kimOnly);

    const list = (await sam.get('/api/merge/invitations')).body as InvitationSummary[];
    expect(list.find((entry) => entry.id === invitation.id)).toMatchObject({
      status: 'merged',
      mergedPlaylistId: merge.newPlaylistId,
      friendEmail: 'kim@example.com',
      playlistName: 'Road Trip',
    });
    const page = (await server.newClient().get(`/api/merged-playlists/${merge.newPlaylistId}`))
      .body as MergedPlaylist;
    expect(page.yourPlaylist).toEqual({ name: 'Road Trip', owner: 'sam' });
    expect(page.friendPlaylist).toEqual({ name: 'Late Night Jazz', owner: 'kim' });
    // The friend who answered may copy the (private) merge into their own library.
    const kimSaved = await kim.post('/api/save-playlist', {
      playlistName: 'Sam x Kim',
      tracks: merge.tracks.map((t) => t.id),
      newPlaylistId: merge.newPlaylistId,
      service: 'spotify',
    });
    expect(kimSaved.status, kimSaved.text).toBe(200);
    expect(((await kim.get(`/api/merge/invitations/${token}`)).body as InvitationView).mergedPlaylistId).toBe(
      merge.newPlaylistId,
    );
    // The inviter hears back by mail too.
    const later = readdirSync(outbox).map((file) => readFileSync(join(outbox, file), 'utf8'));
    expect(
      later.some(
        (text) => text.includes('To: sam@example.com') && text.includes(`/m/${merge.newPlaylistId}`),
      ),
    ).toBe(true);

    const again = await kim.post(`/api/merge/invitations/${token}/accept`, {
      playlistId: kimJazz?.id,
      service: 'spotify',
    });
    expect(again.status).toBe(409);
    // Kim does not see Sam's invitations.
    expect((await kim.get('/api/merge/invitations')).body).toEqual([]);
  });

  it('accepts an Apple Music share URL from a friend who is not signed in', async () => {
    const created = (
      await sam.post('/api/merge/invitations', {
        playlistId: byName('Gym Rotation').id,
        service: 'spotify',
        friendEmail: 'lee@example.com',
      })
    ).body as CreateInvitationResponse;
    const token = created.inviteUrl.split('/').at(-1) ?? '';
    const shared = testCatalog().demoLibraries.apple.find((playlist) => playlist.followedOnly !== true);
    const link = `https://music.apple.com/us/playlist/x/${stableLibraryId('pl.u', `shared:${shared?.key}`)}`;
    const accepted = await server
      .newClient()
      .post(`/api/merge/invitations/${token}/accept`, { shareUrl: link });
    expect(accepted.status, accepted.text).toBe(200);
    const merge = accepted.body as MergePlaylistsResponse;
    expect(merge.tracks.some((t) => t.service === 'apple')).toBe(true);
    expect(merge.tracks.some((t) => t.service === 'spotify')).toBe(true);
  });

  it('refuses expired invitations', async () => {
    const created = (
      await sam.post('/api/merge/invitations', {
        playlistId: byName('Road Trip').id,
        service: 'spotify',
        friendEmail: 'old@example.com',
      })
    ).body as CreateInvitationResponse;
    const token = created.inviteUrl.split('/').at(-1) ?? '';
    await server.deps.db
      .update(mergeInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(mergeInvitations.id, created.id));
    expect(((await sam.get(`/api/merge/invitations/${token}`)).body as InvitationView).status).toBe(
      'expired',
    );
    const accepted = await sam.post(`/api/merge/invitations/${token}/accept`, {
      playlistId: byName('Gym Rotation').id,
      service: 'spotify',
    });
    expect(accepted.status).toBe(410);
  });
});
