import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentTo, type DriveEmulators, startDriveEmulators } from '../../testing/cloud-drive-emulators';
import { DriveFailure, type DriveTokens } from './drive-client';
import { DropboxClient, dropboxAuthorization, exchangeDropboxCode } from './dropbox-client';

/** The official Dropbox SDK against the sandbox's Dropbox (its three hosts under one mount). */

let emulators: DriveEmulators;

beforeAll(async () => {
  emulators = await startDriveEmulators();
});
afterAll(async () => {
  await emulators.close();
});

async function connect(account: string, options: { scopes?: string[] } = {}) {
  const { url, verifier } = await dropboxAuthorization(emulators.dropbox, {
    state: `state-${account}`,
  });
  const consent = await consentTo(await emulators.withClaim(url, account, 'dropbox'), options);
  expect(consent.redirect.searchParams.get('state')).toBe(`state-${account}`);
  const tokens = await exchangeDropboxCode(
    emulators.dropbox,
    consent.redirect.searchParams.get('code') ?? '',
    verifier,
  );
  return { tokens, cookie: consent.cookie };
}

function clientFor(tokens: DriveTokens) {
  const stored: DriveTokens[] = [];
  const client = new DropboxClient(emulators.dropbox, tokens, async (fresh) => {
    stored.push(fresh);
  });
  return { client, stored };
}

const json = (text: string, fileName = 'Road-Trip.json') => ({
  fileName,
  contentType: 'application/json; charset=utf-8',
  data: new TextEncoder().encode(text),
});

describe('Dropbox client against the emulator', () => {
  it('consents with PKCE and state, uploads into the app folder, and the files page shows it to its owner only', async () => {
    const { tokens, cookie } = await connect('dropboxowner01');
    expect(tokens.scope.split(' ')).toContain('files.content.write');
    const { client } = clientFor(tokens);
    expect(await client.accountName()).toMatch(/@sandbox\.example\)$/);

    const first = await client.upload(json('{"playlist":"Road Trip"}'));
    expect(first).toMatchObject({
      name: 'Road-Trip.json',
      sizeBytes: 24,
      location: 'Dropbox app folder › Road-Trip.json',
    });
    // The same name again is kept beside it, as Dropbox's autorename does.
    const second = await client.upload(json('{"again":true}'));
    expect(second.name).toBe('Road-Trip (1).json');

    const home = `${emulators.dropbox.wwwUrl}/home`;
    const page = await fetch(home, { headers: { cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/Apps/Crossfade/Road-Trip.json');
    expect(html).toContain('/Apps/Crossfade/Road-Trip (1).json');
    const stranger = await connect('dropboxstranger1');
    const theirs = await (await fetch(home, { headers: { cookie: stranger.cookie } })).text();
    expect(theirs).not.toContain('Road-Trip');
    expect((await fetch(home)).status).toBe(401);
  });

  it('lists what it saved across list_folder pages', async () => {
    const { tokens } = await connect('dropboxlister01');
    const { client } = clientFor(tokens);
    for (let index = 1; index <= 30; index++) {
      await client.upload(json(`{"n":${index}}`, `List-${String(index).padStart(2, '0')}.json`));
    }
    const files = await client.listFiles();
    expect(files).toHaveLength(30);
    expect(new Set(files.map((file) => file.name)).size).toBe(30);
  });

  it('refreshes a token Dropbox calls expired, stores the new one and carries on', async () => {
    const { tokens } = await connect('dropboxrefresh1');
    const { client, stored } = clientFor(tokens);
    emulators.advance(5 * 60 * 60_000);
    const saved = await client.upload(json('{}'));
    expect(saved.sizeBytes).toBe(2);
    expect(stored).toHaveLength(1);
    expect(stored[0]?.accessToken).not.toBe(tokens.accessToken);
    expect(stored[0]?.refreshToken).toBe(tokens.refreshToken);
  });

  it('turns an access token Dropbox does not know into "connect again"', async () => {
    const { tokens } = await connect('dropboxbadtoken');
    const { client } = clientFor({ ...tokens, accessToken: 'forged' });
    const failure = await client.upload(json('{}')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DriveFailure);
    expect(failure).toMatchObject({
      kind: 'reconnect',
      message: expect.stringContaining('connect Dropbox again'),
    });
  });

  it('refuses an upload when the person did not grant files.content.write (missing_scope)', async () => {
    const { tokens } = await connect('dropboxscope001', {
      scopes: ['account_info.read', 'files.metadata.read'],
    });
    const { client } = clientFor(tokens);
    await expect(client.upload(json('{}'))).rejects.toMatchObject({ kind: 'reconnect' });
    expect(await client.listFiles()).toEqual([]);
  });

  it('checks the PKCE verifier', async () => {
    const { url } = await dropboxAuthorization(emulators.dropbox, { state: 's' });
    const consent = await consentTo(await emulators.withClaim(url, 'dropboxpkce001', 'dropbox'));
    const other = await dropboxAuthorization(emulators.dropbox, { state: 's2' });
    await expect(
      exchangeDropboxCode(emulators.dropbox, consent.redirect.searchParams.get('code') ?? '', other.verifier),
    ).rejects.toMatchObject({ message: expect.stringContaining('invalid code verifier') });
  });
});

describe('Dropbox emulator wire format', () => {
  it('answers route errors with error_summary and .tag, and bad input as plain text', async () => {
    const { tokens } = await connect('dropboxwire0001');
    const auth = { authorization: `Bearer ${tokens.accessToken}` };
    const upload = (path: string) =>
      fetch(`${emulators.dropbox.contentUrl}/2/files/upload`, {
        method: 'POST',
        headers: {
          ...auth,
          'content-type': 'application/octet-stream',
          'dropbox-api-arg': JSON.stringify({ path }),
        },
        body: 'x',
      });
    const malformed = await upload('/a//b.csv');
    expect(malformed.status).toBe(409);
    expect(await malformed.json()).toMatchObject({
      error_summary: expect.stringMatching(/^path\/malformed_path\//),
      error: { '.tag': 'path', reason: { '.tag': 'malformed_path' } },
    });
    const relative = await upload('b.csv');
    expect(relative.status).toBe(400);
    expect(await relative.text()).toContain('did not match pattern');

    const root = await fetch(`${emulators.dropbox.apiUrl}/2/files/list_folder`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/' }),
    });
    expect(root.status).toBe(400);
    expect(await root.text()).toContain('Specify the root folder as an empty string');

    const missing = await fetch(`${emulators.dropbox.apiUrl}/2/files/list_folder`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/nowhere' }),
    });
    expect(missing.status).toBe(409);
    expect(await missing.json()).toMatchObject({ error: { '.tag': 'path', path: { '.tag': 'not_found' } } });

    const bad = await fetch(`${emulators.dropbox.apiUrl}/2/files/list_folder`, {
      method: 'POST',
      headers: { authorization: 'Bearer nope', 'content-type': 'application/json' },
      body: JSON.stringify({ path: '' }),
    });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ error: { '.tag': 'invalid_access_token' } });
  });
});
