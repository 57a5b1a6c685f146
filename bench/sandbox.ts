import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectService, openConsentPage } from '../src/server/testing/connect-service';
import { startServerProcess } from '../src/server/testing/server-process';
import { TestClient } from '../src/server/testing/test-server';

/**
 * `npm run bench:sandbox` (issue 20 item 5, decision 0022): what consent posts cost the server. The app runs
 * as its own process (embedded database, the generated 24,000-track catalog); this process posts 40
 * consents with made-up account keys (refused), then 40 people's first consents (40 new accounts), and all
 * along measures `/api/health` one request at a time, against the same measure at rest. It prints the bytes
 * the emulators wrote and the health latencies side by side. Goals: under 2 MB for the 40 refused posts, and
 * health within 1 s meanwhile.
 */
const POSTS = 40;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

function bytesUnder(folder: string): number {
  return readdirSync(folder, { withFileTypes: true }).reduce((sum, entry) => {
    const path = join(folder, entry.name);
    return sum + (entry.isDirectory() ? bytesUnder(path) : statSync(path).size);
  }, 0);
}

/** Health latencies (ms) measured one after another while `work` runs. */
async function healthDuring(url: string, work: () => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  let running = true;
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      const answer = await fetch(`${url}/api/health`);
      await answer.arrayBuffer();
      if (answer.status !== 200) throw new Error(`/api/health answered ${answer.status}`);
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  try {
    await work();
  } finally {
    running = false;
    await probe;
  }
  return latencies;
}

async function signedUp(url: string, name: string): Promise<TestClient> {
  const client = new TestClient(url);
  const answer = await client.post('/api/auth/register', {
    username: name,
    email: `${name}@example.com`,
    password: 'secret-words',
  });
  if (answer.status !== 201) throw new Error(`sign-up answered ${answer.status}: ${answer.text}`);
  return client;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crossfade-bench-sandbox-'));
  const app = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  try {
    const sandboxDir = join(dataDir, 'sandbox');
    // Warm-up: the catalog and both emulators are built on the first call, and one account exists.
    const first = await signedUp(app.url, 'bench-first');
    await connectService(first, 'spotify', { account: 'own', scenario: 'bench-first' });
    const idle = await healthDuring(app.url, () => new Promise((resolve) => setTimeout(resolve, 2_000)));

    const attacker = await signedUp(app.url, 'bench-attacker');
    const page = await openConsentPage(attacker, 'spotify', { account: 'own', scenario: 'bench-attacker' });
    const beforeRefused = bytesUnder(sandboxDir);
    const statuses: number[] = [];
    const refused = await healthDuring(app.url, async () => {
      await Promise.all(
        Array.from({ length: POSTS }, async () => {
          const form = new URLSearchParams(page.form);
          form.set('sandbox_account', randomBytes(32).toString('hex'));
          form.set('account', 'own');
          form.set('decision', 'agree');
          const answer = await fetch(page.authUrl.origin + page.authUrl.pathname, {
            method: 'POST',
            body: form,
            redirect: 'manual',
          });
          statuses.push(answer.status);
        }),
      );
    });
    const refusedBytes = bytesUnder(sandboxDir) - beforeRefused;

    const people = await Promise.all(
      Array.from({ length: POSTS }, (_, i) => signedUp(app.url, `bench-${i}`)),
    );
    const beforeAccounts = bytesUnder(sandboxDir);
    const accounts = await healthDuring(app.url, async () => {
      await Promise.all(
        people.map((client, i) =>
          connectService(client, 'spotify', { account: 'own', scenario: `bench-person-${i}` }),
        ),
      );
    });
    const accountBytes = bytesUnder(sandboxDir) - beforeAccounts;

    const row = (label: string, values: number[]) =>
      `${label.padEnd(34)} n=${String(values.length).padStart(4)}  p50 ${percentile(values, 50).toFixed(1).padStart(7)} ms  p99 ${percentile(values, 99).toFixed(1).padStart(7)} ms  max ${Math.max(
        ...values,
      )
        .toFixed(1)
        .padStart(7)} ms`;
    console.log(`/api/health, one request at a time (app process: embedded database, 24,000-track catalog)`);
    console.log(row('at rest', idle));
    console.log(row(`during ${POSTS} refused consent posts`, refused));
    console.log(row(`during ${POSTS} new accounts`, accounts));
    console.log(
      `${POSTS} refused posts (answers ${[...new Set(statuses)].join(', ')}): ${refusedBytes} bytes written (goal < 2 MB)`,
    );
    console.log(
      `${POSTS} new accounts: ${accountBytes} bytes written, ${Math.round(accountBytes / POSTS)} per account`,
    );
    const worst = Math.max(...refused);
    console.log(
      `bench:sandbox: refused_posts=${POSTS} refused_bytes=${refusedBytes} account_bytes_each=${Math.round(accountBytes / POSTS)} health_p99_rest_ms=${percentile(idle, 99).toFixed(1)} health_p99_refused_ms=${percentile(refused, 99).toFixed(1)} health_max_refused_ms=${worst.toFixed(1)} health_p99_accounts_ms=${percentile(accounts, 99).toFixed(1)}`,
    );
    if (refusedBytes >= 2 * 1024 * 1024 || worst >= 1000) process.exitCode = 1;
  } finally {
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
