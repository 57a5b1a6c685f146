import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentTo, type DriveEmulators, startDriveEmulators } from '../../testing/cloud-drive-emulators';
import { DriveFailure, type DriveTokens } from './drive-client';
import {
  exchangeGoogleCode,
  GOOGLE_DRIVE_SCOPE,
  GoogleDriveClient,
  googleAuthorization,
} from './google-drive-client';

/** The official Google clients (google-auth-library, @googleapis/drive) against the sandbox's Google. */

let emulators: DriveEmulators;

beforeAll(async () => {
  emulators = await startDriveEmulators();
});
afterAll(async () => {
  await emulators.close();
});

/** Consent as the person with this sandbox key, and the tokens Google then hands out. */
async function connect(account: string, options: { scopes?: string[] } = {}) {
  const { url, verifier } = await googleAuthorization(emulators.google, {
    state: `state-${account}`,
  });
  const consent = await consentTo(await emulators.withClaim(url, account, 'google-drive'), options);
  expect(consent.redirect.searchParams.get('state')).toBe(`state-${account}`);
  const tokens = await exchangeGoogleCode(
    emulators.google,
    consent.redirect.searchParams.get('code') ?? '',
    verifier,
  );
  return { tokens, cookie: consent.cookie };
}

function clientFor(tokens: DriveTokens) {
  const stored: DriveTokens[] = [];
  const client = new GoogleDriveClient(emulators.google, tokens, async (fresh) => {
    stored.push(fresh);
  });
  return { client, stored };
}

const csv = (text: string) => ({
  fileName: 'Road-Trip.csv',
  contentType: 'text/csv; charset=utf-8',
  data: new TextEncoder().encode(text),
});

describe('Google Drive client against the emulator', () => {
  it('consents with PKCE and state, then uploads a file into the Crossfade folder that its page shows only to its owner', async () => {
    const { tokens, cookie } = await connect('gdriveowner01');
    expect(tokens.scope).toBe(GOOGLE_DRIVE_SCOPE);
    const { client } = clientFor(tokens);
    expect(await client.accountName()).toMatch(/@sandbox\.example\)$/);

    const saved = await client.upload(csv('Track Name,Artist\r\nSong,Band\r\n'));
    expect(saved).toMatchObject({ name: 'Road-Trip.csv', sizeBytes: 30, location: 'My Drive › Crossfade' });
    expect(saved.webUrl).toMatch(/\/sandbox\/google-drive\/file\/d\/[\w-]+\/view/);

    const page = await fetch(saved.webUrl ?? '', { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Song,Band');
    const stranger = await connect('gdrivestranger01');
    const theirs = await fetch(saved.webUrl ?? '', { headers: { cookie: stranger.cookie } });
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).not.toContain('Song,Band');
    const signedOut = await fetch(saved.webUrl ?? '');
    expect(signedOut.status).toBe(401);
  });

  it('lists what it saved, newest first, across pages', async () => {
    const { tokens } = await connect('gdrivelister01');
    const { client } = clientFor(tokens);
    for (let index = 1; index <= 30; index++) {
      await client.upload({ ...csv(`row ${index}`), fileName: `List-${String(index).padStart(2, '0')}.csv` });
    }
    const files = await client.listFiles();
    expect(files).toHaveLength(30);
    // One folder, and every file in it (more than one page of 25).
    expect(new Set(files.map((file) => file.name)).size).toBe(30);
    expect(files.map((file) => file.createdAt)).toEqual(
      [...files.map((file) => file.createdAt)].sort().reverse(),
    );
  });

  it('refreshes an access token Google says has expired, stores the new one and carries on', async () => {
    const { tokens } = await connect('gdriverefresh01');
    const { client, stored } = clientFor(tokens);
    emulators.advance(2 * 60 * 60_000);
    const saved = await client.upload(csv('after an hour'));
    expect(saved.sizeBytes).toBe(13);
    expect(stored).toHaveLength(1);
    expect(stored[0]?.accessToken).not.toBe(tokens.accessToken);
    expect(stored[0]?.refreshToken).toBe(tokens.refreshToken);
  });

  it('refreshes before the call when our own clock says the token is about to expire', async () => {
    const { tokens } = await connect('gdriveearly01');
    const { client, stored } = clientFor({ ...tokens, expiresAt: Date.now() - 1000 });
    await client.listFiles();
    expect(stored).toHaveLength(1);
  });

  it('turns a token Google does not know into "connect again"', async () => {
    const { tokens } = await connect('gdrivebadtoken01');
    const { client } = clientFor({ ...tokens, accessToken: 'forged', refreshToken: 'forged-too' });
    const failure = await client.upload(csv('x')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DriveFailure);
    expect(failure).toMatchObject({
      kind: 'reconnect',
      message: expect.stringContaining('connect Google Drive again'),
    });
  });

  it('refuses a token without a Drive scope with Google’s 403, which asks the person to connect again', async () => {
    const { tokens } = await connect('gdrivescope01', { scopes: ['openid', 'email'] });
    const { client } = clientFor(tokens);
    await expect(client.upload(csv('x'))).rejects.toMatchObject({ kind: 'reconnect' });
  });

  it('checks the PKCE verifier: a code exchanged with another verifier is refused', async () => {
    const { url } = await googleAuthorization(emulators.google, { state: 's' });
    const consent = await consentTo(await emulators.withClaim(url, 'gdrivepkce0001', 'google-drive'));
    const other = await googleAuthorization(emulators.google, { state: 's2' });
    await expect(
      exchangeGoogleCode(emulators.google, consent.redirect.searchParams.get('code') ?? '', other.verifier),
    ).rejects.toMatchObject({ message: expect.stringContaining('Invalid code verifier') });
  });
});

describe('the sandbox account a consent signs in to (decision 0022)', () => {
  const refusal = async (url: string) => {
    const page = await fetch(url);
    return { status: page.status, text: await page.text() };
  };

  it('refuses an account claim that was edited, guessed or issued for another sign-in, and one used before', async () => {
    const { url } = await googleAuthorization(emulators.google, { state: 'claim-1' });
    const signed = new URL(await emulators.withClaim(url, 'gdriveclaim01', 'google-drive'));
    const claim = signed.searchParams.get('sandbox_account') ?? '';

    const edited = new URL(signed);
    edited.searchParams.set('sandbox_account', `${claim.slice(0, -4)}AAAA`);
    expect(await refusal(edited.toString())).toMatchObject({
      status: 403,
      text: expect.stringContaining('was changed'),
    });

    // A bare account key (what anyone could type) is no claim at all.
    const guessed = new URL(signed);
    guessed.searchParams.set('sandbox_account', 'a'.repeat(64));
    expect((await refusal(guessed.toString())).status).toBe(403);

    // The same claim on another sign-in request (another state) is refused.
    const other = new URL((await googleAuthorization(emulators.google, { state: 'claim-2' })).url);
    other.searchParams.set('sandbox_account', claim);
    expect(await refusal(other.toString())).toMatchObject({
      status: 403,
      text: expect.stringContaining('another app or sign-in request'),
    });

    await consentTo(signed.toString());
    await expect(consentTo(signed.toString())).rejects.toThrow(/already used/);
  });
});

describe('Google emulator wire format', () => {
  it('answers Google’s error body and WWW-Authenticate for a bad token', async () => {
    const response = await fetch(`${emulators.google.apiRoot}/drive/v3/files`, {
      headers: { authorization: 'Bearer nope' },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('invalid_token');
    expect(await response.json()).toMatchObject({
      error: { code: 401, status: 'UNAUTHENTICATED', errors: [{ reason: 'authError', domain: 'global' }] },
    });
  });

  it('refuses an unknown redirect URI on its consent page and a query it cannot parse', async () => {
    const { url } = await googleAuthorization(
      { ...emulators.google, redirectUri: 'https://evil.example/callback' },
      { state: 's' },
    );
    const page = await fetch(url);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('redirect_uri_mismatch');

    const { tokens } = await connect('gdrivewire0002');
    const list = await fetch(
      `${emulators.google.apiRoot}/drive/v3/files?q=${encodeURIComponent("name = 'x' or")}`,
      {
        headers: { authorization: `Bearer ${tokens.accessToken}` },
      },
    );
    expect(list.status).toBe(400);
    expect(await list.json()).toMatchObject({ error: { errors: [{ reason: 'invalid', location: 'q' }] } });
  });
});
