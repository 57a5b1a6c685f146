import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectService } from '../server/testing/connect-service';
import { entryCommand, startServerProcess } from '../server/testing/server-process';
import { TestClient } from '../server/testing/test-server';
import { sandboxAccountKey, signAccountClaim } from './accounts';

const running: ChildProcess[] = [];

afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGTERM');
});

/** Starts `npm run sandbox`'s entry point and resolves with its printed index URL. */
function startSandbox(env: Record<string, string>): Promise<{ indexUrl: string; output: () => string }> {
  const child = spawn(process.execPath, entryCommand('src/sandbox/main.ts'), {
    cwd: join(import.meta.dirname, '..', '..'),
    // The smallest generated catalog (3,000 tracks) unless a test says otherwise: quicker to start.
    env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_CATALOG_TRACKS: '3000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Index\s+(http:\/\/127\.0\.0\.1:\d+\/sandbox)/.exec(output);
      // The developer key is the last line printed: once it is there, the server is listening.
      if (match?.[1] && /Apple dev key .*\n/.test(output))
        resolve({ indexUrl: match[1], output: () => output });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${output}`)));
  });
}

describe('npm run sandbox', () => {
  it('serves both emulators on 127.0.0.1 and keeps its Apple developer key across restarts', {
    timeout: 180_000,
  }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'crossfade-sandbox-main-'));
    const first = await startSandbox({ DATA_DIR: dataDir, SANDBOX_RATE_LIMIT: '0' });
    const index = await fetch(first.indexUrl);
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('Crossfade sandbox');
    const me = await fetch(first.indexUrl.replace('/sandbox', '/sandbox/spotify/api/v1/me'));
    expect(me.status).toBe(401);
    const keyFile = join(dataDir, 'sandbox', 'apple-dev-key.json');
    const key = JSON.parse(readFileSync(keyFile, 'utf8')) as { teamId: string; keyId: string };
    expect(first.output()).toContain(`team ${key.teamId}, key ${key.keyId}`);

    for (const child of running.splice(0)) child.kill('SIGTERM');
    const second = await startSandbox({ DATA_DIR: dataDir });
    expect(second.output()).toContain(`team ${key.teamId}, key ${key.keyId}`);
  });

  it('honours every SANDBOX_* setting, and serves Apple at the root of its own port on request', {
    timeout: 180_000,
  }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'crossfade-sandbox-main-'));
    const started = await startSandbox({
      DATA_DIR: dataDir,
      SANDBOX_RATE_LIMIT: '7',
      SANDBOX_RATE_WINDOW_SECONDS: '5',
      SANDBOX_FAULTS: 'error-rate=1',
      SANDBOX_APPLE_ROOT: '1',
      SANDBOX_APPLE_PORT: '0',
    });
    expect(await (await fetch(started.indexUrl)).text()).toContain('7 calls per 5 s');
    const me = await fetch(started.indexUrl.replace('/sandbox', '/sandbox/spotify/api/v1/me'));
    expect([500, 502, 503]).toContain(me.status);
    expect(await me.json()).toMatchObject({ error: { status: me.status } });

    let appleRoot: string | undefined;
    for (let tries = 0; !appleRoot && tries < 100; tries++) {
      appleRoot = /Apple at root\s+(http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(started.output())?.[1];
      if (!appleRoot) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const storefront = await fetch(`${appleRoot}/v1/storefronts/us`);
    expect([500, 502, 503]).toContain(storefront.status);
    expect(await storefront.json()).toMatchObject({ errors: [{ status: String(storefront.status) }] });
  });

  it('refuses a bad SANDBOX_FAULTS with the item at fault', { timeout: 120_000 }, async () => {
    const failure = await startSandbox({ SANDBOX_FAULTS: 'error-rate=5' }).then(
      () => '',
      (error: Error) => error.message,
    );
    expect(failure).toContain('SANDBOX_FAULTS: "error-rate=5": a rate is between 0 and 1');
  });

  it('refuses a broken catalog file with the line at fault', { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'crossfade-sandbox-main-'));
    const catalog = join(dataDir, 'broken.jsonl');
    writeFileSync(catalog, '{"id":"a","name":"A","artists":["B"],"album":"C","durationMs":1000}\nnot json\n');
    const failure = await startSandbox({ DATA_DIR: dataDir, SANDBOX_CATALOG: catalog }).then(
      () => '',
      (error: Error) => error.message,
    );
    expect(failure).toContain('broken.jsonl line 2: not valid JSON');
    expect(failure).not.toContain('    at ');
  });
});

describe('npm run sandbox and the app agree on the account secret (decision 0022)', () => {
  it('creates it 0600 in DATA_DIR, or takes SANDBOX_ACCOUNT_SECRET, and accepts only claims made with it', {
    timeout: 180_000,
  }, async () => {
    const claimPage = async (indexUrl: string, secret: Buffer) => {
      const redirectUri = 'http://127.0.0.1:3000/api/auth/spotify/callback';
      const challenge = 'a'.repeat(43);
      const claim = await signAccountClaim(secret, {
        account: sandboxAccountKey(secret, 'someone'),
        service: 'spotify',
        clientId: 'crossfade-sandbox',
        redirectUri,
        state: 's',
        codeChallenge: challenge,
      });
      const query = new URLSearchParams({
        client_id: 'crossfade-sandbox',
        response_type: 'code',
        redirect_uri: redirectUri,
        code_challenge_method: 'S256',
        code_challenge: challenge,
        state: 's',
        sandbox_account: claim,
      });
      return fetch(`${indexUrl}/spotify/accounts/authorize?${query}`);
    };
    const dataDir = mkdtempSync(join(tmpdir(), 'crossfade-sandbox-main-'));
    const fromFile = await startSandbox({ DATA_DIR: dataDir });
    const secretFile = join(dataDir, 'sandbox', 'account-secret');
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    const secret = Buffer.from(readFileSync(secretFile, 'utf8').trim(), 'base64');
    const accepted = await claimPage(fromFile.indexUrl, secret);
    expect(accepted.status).toBe(200);
    expect(await accepted.text()).toContain('(your own sandbox account)');
    expect((await claimPage(fromFile.indexUrl, Buffer.alloc(32, 1))).status).toBe(403);
    for (const child of running.splice(0)) child.kill('SIGTERM');

    const configured = Buffer.alloc(32, 9);
    const fromSetting = await startSandbox({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'crossfade-sandbox-main-')),
      SANDBOX_ACCOUNT_SECRET: configured.toString('base64'),
    });
    expect((await claimPage(fromSetting.indexUrl, configured)).status).toBe(200);
    expect((await claimPage(fromSetting.indexUrl, secret)).status).toBe(403);
  });

  it('lets the app behind SANDBOX_URL, on the same DATA_DIR, connect people to their own accounts', {
    timeout: 240_000,
  }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'crossfade-sandbox-main-'));
    // One address people use for both (a proxy's): the sandbox registers its Spotify callback.
    const publicUrl = 'http://127.0.0.1:1';
    const sandbox = await startSandbox({ DATA_DIR: dataDir, PUBLIC_URL: publicUrl, SANDBOX_RATE_LIMIT: '0' });
    const app = await startServerProcess({
      DATA_DIR: dataDir,
      PUBLIC_URL: publicUrl,
      SANDBOX_URL: sandbox.indexUrl.replace(/\/sandbox$/, ''),
      DATABASE_URL: '',
    });
    try {
      const client = new TestClient(app.url);
      await client.post('/api/auth/register', {
        username: 'standalone',
        email: 'standalone@example.com',
        password: 'secret-words',
      });
      for (const service of ['spotify', 'apple'] as const) {
        expect(await connectService(client, service, { account: 'own', scenario: 'standalone' })).toBe(
          `/transfer?connected=${service}`,
        );
      }
      const listing = (await client.get('/api/playlists/apple')).body as { name: string }[];
      expect(listing.map((playlist) => playlist.name)).toContain('Road Trip');
    } finally {
      await app.stop();
    }
  });
});
