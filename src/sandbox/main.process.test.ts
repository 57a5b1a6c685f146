import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { entryCommand } from '../server/testing/server-process';

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
