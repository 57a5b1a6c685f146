import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaylistSummary } from '../../shared/api/playlists';
import type { ServiceId } from '../../shared/services';
import type { PlaylistEntry } from '../providers/types';
import { connectService } from '../testing/connect-service';
import { formsOf, type PageForm, playlistPagePath, submitForm } from '../testing/sandbox-page-edits';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';

/**
 * Issue 21 item 4 (decision 0022): the emulators' own playlist pages, the ones "Open in …" leads to, let
 * their owner add a song found by search, remove one and move one, as the services' apps do; Crossfade
 * then reads the change through the service's API. The forms carry the session's token.
 */
let server: TestServer;
let ada: { client: TestClient; id: string };
let eve: { client: TestClient; id: string };

async function person(name: string) {
  const client = server.newClient();
  const registered = await client.post('/api/auth/register', {
    username: name,
    email: `${name}@example.com`,
    password: 'secret-words',
  });
  const id = (registered.body as { user: { id: string } }).user.id;
  for (const service of ['spotify', 'apple'] as const)
    await connectService(client, service, { account: 'own', scenario: `sandbox-pages-${name}` });
  return { client, id };
}

beforeAll(async () => {
  server = await startTestServer();
  ada = await person('ada');
  eve = await person('eve');
}, 120_000);
afterAll(() => server?.close());

async function roadTrip(service: ServiceId) {
  const listing = (await ada.client.get(`/api/playlists/${service}`)).body as PlaylistSummary[];
  return listing.find((playlist) => playlist.name === 'Road Trip') as PlaylistSummary;
}

/** What Crossfade reads of the playlist through the service's API. */
async function titles(service: ServiceId, id: string): Promise<string[]> {
  const provider = await server.deps.providers.forUser(ada.id, service);
  const { entries } = await provider.getPlaylist(id);
  return entries.map((entry: PlaylistEntry) =>
    entry.kind === 'track' ? entry.track.name : `(${entry.kind})`,
  );
}

describe.each(['spotify', 'apple'] as const)('the %s playlist page of its owner', (service) => {
  it('adds a song found by search, removes one and moves one; Crossfade reads each change', async () => {
    const playlist = await roadTrip(service);
    const path = playlistPagePath(service, playlist.id);
    const before = await titles(service, playlist.id);
    const page = await ada.client.get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<input type="search" name="q" aria-label="Search for songs"');

    // Search, then Add the first result: it lands at the end.
    const word = (before[0] ?? '').split(' ')[0] ?? '';
    const results = await ada.client.get(`${path}?q=${encodeURIComponent(word)}`);
    const add = formsOf(results.text).find((form) => form.button === 'Add');
    expect(add).toBeDefined();
    const added = await submitForm(ada.client, add as PageForm);
    expect(added.status).toBe(303);
    expect(added.headers.get('location')).toContain('done=add');
    const afterAdd = await titles(service, playlist.id);
    expect(afterAdd).toEqual([...before, add?.subject]);

    // Remove the first song.
    const removeFirst = formsOf((await ada.client.get(path)).text).find((form) => form.button === 'Remove');
    expect(removeFirst?.subject).toBe(before[0]);
    expect((await submitForm(ada.client, removeFirst as PageForm)).status).toBe(303);
    expect(await titles(service, playlist.id)).toEqual(afterAdd.slice(1));

    // Move the (new) second song up.
    const moveUp = formsOf((await ada.client.get(path)).text).filter((form) => form.button === 'Move up')[1];
    expect(moveUp?.subject).toBe(afterAdd[2]);
    const moved = await submitForm(ada.client, moveUp as PageForm);
    expect(moved.status).toBe(303);
    // The keyboard stays with the song that moved: on top now, its "Move up" is off, so on "Move down".
    expect(moved.headers.get('location')).toContain('focus=down-0');
    const [first, second, ...rest] = afterAdd.slice(1);
    expect(await titles(service, playlist.id)).toEqual([second, first, ...rest]);
    const back = new URL(moved.headers.get('location') ?? '');
    const reloaded = await ada.client.get(`${back.pathname}${back.search}`);
    expect(reloaded.text).toContain('<p role="status">Moved up.</p>');
    expect(reloaded.text).toContain('aria-describedby="item-0" autofocus>Move down</button>');
  });

  it('refuses an edit without the page’s token, from another site, on a stale page, or by someone else', async () => {
    const playlist = await roadTrip(service);
    const path = playlistPagePath(service, playlist.id);
    const before = await titles(service, playlist.id);
    const remove = formsOf((await ada.client.get(path)).text).find(
      (form) => form.button === 'Remove',
    ) as PageForm;

    const noToken = { ...remove, fields: new URLSearchParams(remove.fields) };
    noToken.fields.delete('token');
    expect((await submitForm(ada.client, noToken)).status).toBe(403);
    expect((await submitForm(ada.client, remove, { origin: 'https://evil.example' })).status).toBe(403);
    const stale = { ...remove, fields: new URLSearchParams(remove.fields) };
    stale.fields.set('item', 'not-this-song');
    expect((await submitForm(ada.client, stale)).status).toBe(409);
    // Eve's browser, with Eve's session, posting Ada's form: not her playlist.
    expect((await submitForm(eve.client, remove)).status).toBe(401);
    expect((await submitForm(server.newClient(), remove)).status).toBe(401);
    expect(await titles(service, playlist.id)).toEqual(before);
  });
});

describe('the Spotify page writes as the API does', () => {
  it('gives the playlist a new snapshot_id with each edit', async () => {
    const playlist = await roadTrip('spotify');
    const connection = await server.deps.providers.connections.get(ada.id, 'spotify');
    const token = connection?.tokens.kind === 'spotify' ? connection.tokens.accessToken : '';
    const snapshot = async () => {
      const answer = await fetch(`${server.url}/sandbox/spotify/api/v1/playlists/${playlist.id}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return ((await answer.json()) as { snapshot_id: string }).snapshot_id;
    };
    const before = await snapshot();
    const remove = formsOf((await ada.client.get(playlistPagePath('spotify', playlist.id))).text).find(
      (form) => form.button === 'Remove',
    ) as PageForm;
    await submitForm(ada.client, remove);
    expect(await snapshot()).not.toBe(before);
  });
});
