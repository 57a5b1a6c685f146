import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINK_MESSAGES, type LinkDto, type LinkStats, type PublicLink } from '../../shared/api/links';
import { SHARE_URL_MESSAGES } from '../service-urls/parse';
import { connectService } from '../testing/connect-service';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';

let server: TestServer;
let counter = 0;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function signedIn(): Promise<TestClient> {
  const client = server.newClient();
  const username = `links${Date.now().toString(36)}${counter++}`;
  const response = await client.post('/api/auth/register', {
    username,
    email: `${username}@example.com`,
    password: 'secret12',
  });
  expect(response.status).toBe(201);
  return client;
}

const message = (body: unknown) => (body as { message?: string }).message;

async function createLink(client: TestClient, body: unknown): Promise<LinkDto> {
  const response = await client.post('/api/links', body);
  expect(response.status, response.text).toBe(201);
  return response.body as LinkDto;
}

async function ownLink(client: TestClient, id: string): Promise<LinkDto | undefined> {
  const list = await client.get('/api/links');
  expect(list.status).toBe(200);
  return (list.body as LinkDto[]).find((link) => link.id === id);
}

/** A Spotify track from the demo library, as its share URL. */
async function demoTrack(client: TestClient): Promise<{ url: string; name: string }> {
  const playlists = await client.get('/api/playlists/spotify');
  const first = (playlists.body as { id: string; kind?: string }[]).find((p) => p.kind === 'playlist');
  if (!first) throw new Error('the demo library has no playlist');
  const tracks = await client.post('/api/fetch-playlist-tracks', {
    playlistUrl: `https://open.spotify.com/playlist/${first.id}`,
  });
  const track = (tracks.body as { tracks: { id: string; name: string }[] }).tracks[0];
  if (!track) throw new Error('the demo playlist is empty');
  return { url: `https://open.spotify.com/track/${track.id}`, name: track.name };
}

describe('creating a link', () => {
  it('needs sign-in', async () => {
    const response = await server.newClient().post('/api/links', { name: 'Mine' });
    expect(response.status).toBe(401);
  });

  it.each([{}, { name: '' }, { name: '   ' }])(
    'refuses a blank name (%j) with the spec message',
    async (body) => {
      const client = await signedIn();
      const response = await client.post('/api/links', body);
      expect(response.status).toBe(400);
      expect(message(response.body)).toBe(LINK_MESSAGES.missingName);
    },
  );

  it.each([
    ['https://example.com/track/1', SHARE_URL_MESSAGES.notOurs],
    ['https://spotify.link/abc', SHARE_URL_MESSAGES.spotifyShortLink],
    ['https://open.spotify.com/artist/0OdUWJ0sBjDrqHygGUXeCF', 'a track or playlist'],
  ])('refuses %s with the parser message', async (url, expected) => {
    const client = await signedIn();
    const response = await client.post('/api/links', { name: 'Bad', url });
    expect(response.status).toBe(400);
    expect(message(response.body)).toContain(expected);
  });

  it('creates an active link without a target that starts at 0 followers and 0 views', async () => {
    const client = await signedIn();
    const link = await createLink(client, { name: '  Summer drop  ' });
    expect(link).toMatchObject({ name: 'Summer drop', active: true, followers: 0, views: 0, signupRate: 0 });
    expect(link.target).toBeNull();
    expect(link.slug).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(await ownLink(client, link.id)).toMatchObject({ slug: link.slug, followers: 0 });
  });

  it('asks to connect Spotify before a Spotify track can be read', async () => {
    const client = await signedIn();
    const response = await client.post('/api/links', {
      name: 'Track',
      url: 'https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC',
    });
    expect(response.status).toBe(409);
    expect(message(response.body)).toBe('Please connect to Spotify before continuing.');
  });

  it('a track that does not exist is a 404 saying so', async () => {
    const client = await signedIn();
    await connectService(client, 'spotify');
    const response = await client.post('/api/links', {
      name: 'Ghost',
      url: 'https://open.spotify.com/track/0000000000000000000000',
    });
    expect(response.status).toBe(404);
    expect(message(response.body)).toBe('Could not find that track. Please check the URL and try again.');
    expect((await client.get('/api/links')).body).toEqual([]);
  });

  it('resolves a Spotify track to both services when the owner is connected to both', async () => {
    const client = await signedIn();
    await connectService(client, 'spotify');
    await connectService(client, 'apple');
    const track = await demoTrack(client);
    const link = await createLink(client, { name: 'Single', url: track.url });
    expect(link.target).toMatchObject({ kind: 'track', title: track.name });
    expect(link.target?.artists.length).toBeGreaterThan(0);
    expect(link.target?.spotify?.url).toContain(track.url.split('/').pop());
    expect(link.target?.apple?.id).toBeTruthy();

    const landing = await server.newClient().get(`/api/public/links/${link.slug}`);
    const open = (landing.body as PublicLink).open;
    // In sandbox mode "Open in …" leads to the emulators' own pages for the same items.
    const sandboxPage = (url: string | undefined, real: string, page: string) =>
      url?.replace(real, `${server.url}/sandbox/${page}/`);
    expect(open.apple).toEqual({
      url: sandboxPage(link.target?.apple?.url, 'https://music.apple.com/', 'apple/web'),
      exact: true,
    });
    expect(open.spotify).toEqual({
      url: sandboxPage(link.target?.spotify?.url, 'https://open.spotify.com/', 'spotify/api/open'),
      exact: true,
    });
    for (const url of [open.apple.url, open.spotify.url]) {
      const page = await fetch(url);
      expect(page.status, url).toBe(200);
      expect(await page.text()).toContain(link.target?.title.replace(/[&<>"']/g, '') ?? '');
    }
  });

  it('without an Apple Music connection the song is still found through the Apple catalog', async () => {
    const client = await signedIn();
    await connectService(client, 'spotify');
    const track = await demoTrack(client);
    const link = await createLink(client, { name: 'Single', url: track.url });
    const landing = await server.newClient().get(`/api/public/links/${link.slug}`);
    const open = (landing.body as PublicLink).open;
    expect(open.apple).toMatchObject({ exact: true });
    expect(open.apple.url).toBe(
      link.target?.apple?.url.replace('https://music.apple.com/', `${server.url}/sandbox/apple/web/`),
    );
  });

  it('an Apple Music song link works with no connection at all; Spotify gets a search link', async () => {
    const connected = await signedIn();
    await connectService(connected, 'spotify');
    const track = await demoTrack(connected);
    const first = await createLink(connected, { name: 'Single', url: track.url });
    const appleUrl = first.target?.apple?.url;
    expect(appleUrl).toMatch(/^https:\/\/music\.apple\.com\//);

    const stranger = await signedIn();
    const link = await createLink(stranger, { name: 'Apple only', url: appleUrl });
    expect(link.target).toMatchObject({ kind: 'track', title: track.name, apple: first.target?.apple });
    expect(link.target?.spotify).toBeUndefined();
    const landing = await server.newClient().get(`/api/public/links/${link.slug}`);
    const { open } = landing.body as PublicLink;
    expect(open.spotify.exact).toBe(false);
    // In sandbox mode the search is the emulator's own page (issue 23).
    expect(open.spotify.url).toContain(`${server.url}/sandbox/spotify/api/open/search/`);
    expect(decodeURIComponent(open.spotify.url)).toContain(track.name);
  });

  it('resolves a playlist link with its name and artists', async () => {
    const client = await signedIn();
    await connectService(client, 'spotify');
    const playlists = await client.get('/api/playlists/spotify');
    const first = (playlists.body as { id: string; name: string; kind?: string }[]).find(
      (p) => p.kind === 'playlist',
    );
    const link = await createLink(client, {
      name: 'My list',
      url: `https://open.spotify.com/playlist/${first?.id}`,
    });
    expect(link.target).toMatchObject({ kind: 'playlist', title: first?.name });
    expect(link.target?.artists.length).toBeGreaterThan(0);
    const landing = await server.newClient().get(`/api/public/links/${link.slug}`);
    // No playlist twin exists on Apple Music: the button searches there instead.
    expect((landing.body as PublicLink).open.apple).toMatchObject({ exact: false });
  });
});

describe('the public landing page and its counts', () => {
  it('a view and a signup change the owner numbers: followers 1, views 1, rate 100%', async () => {
    const owner = await signedIn();
    const link = await createLink(owner, { name: 'Counted' });
    const visitor = server.newClient();

    const landing = await visitor.get(`/api/public/links/${link.slug}`);
    expect(landing.status).toBe(200);
    expect(landing.body).toMatchObject({ slug: link.slug, name: 'Counted', target: null });
    expect(visitor.cookies.get('cf_visitor')).toBeTruthy();
    expect(await ownLink(owner, link.id)).toMatchObject({ views: 1, followers: 0, signupRate: 0 });

    const signup = await visitor.post(`/api/public/links/${link.slug}/signup`, { email: 'fan@example.com' });
    expect(signup.status).toBe(201);
    expect(signup.body).toMatchObject({ alreadySignedUp: false });
    expect(await ownLink(owner, link.id)).toMatchObject({ views: 1, followers: 1, signupRate: 1 });
  });

  it('the same visitor within the hour counts once; another visitor counts again', async () => {
    const owner = await signedIn();
    const link = await createLink(owner, { name: 'Views' });
    const visitor = server.newClient();
    await visitor.get(`/api/public/links/${link.slug}`);
    await visitor.get(`/api/public/links/${link.slug}`);
    expect((await ownLink(owner, link.id))?.views).toBe(1);
    await server.newClient().get(`/api/public/links/${link.slug}`);
    const after = await ownLink(owner, link.id);
    expect(after?.views).toBe(2);
    await server.newClient().post(`/api/public/links/${link.slug}/signup`, { email: 'one@example.com' });
    expect((await ownLink(owner, link.id))?.signupRate).toBe(0.5);
  });

  it('the same e-mail twice (any case) counts once and answers "You\'re already signed up"', async () => {
    const owner = await signedIn();
    const link = await createLink(owner, { name: 'Dup' });
    const first = await server.newClient().post(`/api/public/links/${link.slug}/signup`, { email: 'a@b.co' });
    expect(first.status).toBe(201);
    const again = await server
      .newClient()
      .post(`/api/public/links/${link.slug}/signup`, { email: ' A@B.CO ' });
    expect(again.status).toBe(200);
    expect(message(again.body)).toBe(LINK_MESSAGES.alreadySignedUp);
    expect((await ownLink(owner, link.id))?.followers).toBe(1);
  });

  it.each([
    [{ email: '' }, LINK_MESSAGES.emailRequired],
    [{ email: '   ' }, LINK_MESSAGES.emailRequired],
    [{}, LINK_MESSAGES.emailRequired],
    [{ email: 'not-an-address' }, LINK_MESSAGES.invalidEmail],
  ])('refuses signup %j', async (body, expected) => {
    const owner = await signedIn();
    const link = await createLink(owner, { name: 'Mail' });
    const response = await server.newClient().post(`/api/public/links/${link.slug}/signup`, body);
    expect(response.status).toBe(400);
    expect(message(response.body)).toBe(expected);
    expect((await ownLink(owner, link.id))?.followers).toBe(0);
  });

  it('an unknown slug is a 404', async () => {
    const response = await server.newClient().get('/api/public/links/nosuchlink');
    expect(response.status).toBe(404);
  });

  it('switching a link off makes its page a 404 "This link is no longer active." and stops counting', async () => {
    const owner = await signedIn();
    const link = await createLink(owner, { name: 'Off' });
    const off = await owner.send('PATCH', `/api/links/${link.id}`, { active: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ active: false });

    const visitor = server.newClient();
    const landing = await visitor.get(`/api/public/links/${link.slug}`);
    expect(landing.status).toBe(404);
    expect(message(landing.body)).toBe(LINK_MESSAGES.inactive);
    const signup = await visitor.post(`/api/public/links/${link.slug}/signup`, { email: 'x@example.com' });
    expect(signup.status).toBe(404);
    expect(await ownLink(owner, link.id)).toMatchObject({ views: 0, followers: 0, active: false });

    await owner.send('PATCH', `/api/links/${link.id}`, { active: true });
    expect((await visitor.get(`/api/public/links/${link.slug}`)).status).toBe(200);
  });

  it("another person cannot switch off or read the stats of someone's link", async () => {
    const owner = await signedIn();
    const link = await createLink(owner, { name: 'Private' });
    const stranger = await signedIn();
    expect((await stranger.send('PATCH', `/api/links/${link.id}`, { active: false })).status).toBe(404);
    expect((await stranger.get(`/api/links/${link.id}/stats`)).status).toBe(404);
    expect((await stranger.get('/api/links')).body).toEqual([]);
    expect((await owner.send('PATCH', `/api/links/${link.id}`, { active: 'no' })).status).toBe(400);
  });

  it('stats cover 30 days and put today’s view and signup on today', async () => {
    const owner = await signedIn();
    const link = await createLink(owner, { name: 'Chart' });
    await server.newClient().get(`/api/public/links/${link.slug}`);
    await server.newClient().post(`/api/public/links/${link.slug}/signup`, { email: 'c@example.com' });
    const response = await owner.get(`/api/links/${link.id}/stats`);
    expect(response.status).toBe(200);
    const { days } = response.body as LinkStats;
    expect(days).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(days.at(-1)).toEqual({ date: today, views: 1, signups: 1 });
    expect(days.slice(0, -1).every((day) => day.views === 0 && day.signups === 0)).toBe(true);
  });
});
