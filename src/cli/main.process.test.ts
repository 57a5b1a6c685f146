import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../server/auth/passwords';
import { openDatabase } from '../server/db/open';
import { users } from '../server/db/schema';
import { seedDataDir } from '../server/testing/pglite-template';
import { entryCommand } from '../server/testing/server-process';

const run = promisify(execFile);
let dataDir: string;

/** Runs the CLI as an operator would, against a PGlite data directory. */
async function crossfade(...args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  delete env.DATABASE_URL;
  try {
    const { stdout, stderr } = await run(process.execPath, [...entryCommand('src/cli/main.ts'), ...args], {
      env,
      cwd: process.cwd(),
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    // The CLI exited non-zero (its exit code is the error's code); a failure to run it at all is rethrown.
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

async function planOf(username: string) {
  const handle = await openDatabase({ dataDir });
  try {
    const [row] = await handle.db
      .select({ plan: users.plan })
      .from(users)
      .where(eq(users.username, username));
    return row?.plan;
  } finally {
    await handle.close();
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'crossfade-cli-'));
  // The run's migrated database: no initdb child and migrations here (the subject is the command).
  seedDataDir(dataDir);
  const handle = await openDatabase({ dataDir });
  await handle.db.insert(users).values({
    username: 'alice',
    email: 'alice@example.com',
    passwordHash: await hashPassword('correct horse'),
  });
  await handle.close();
}, 120_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('crossfade plan set', () => {
  it('changes the plan and says so in one line', async () => {
    const result = await crossfade('plan', 'set', 'alice', 'vault');
    expect(result).toMatchObject({ code: 0, stdout: 'alice is now on Vault+\n' });
    expect(await planOf('alice')).toBe('vault');

    // Leaving Vault+ keeps the backups 30 days, as any downgrade does, and the line says until when.
    const in30Days = () => new Date(Date.now() + 30 * 24 * 60 * 60_000).toISOString().slice(0, 10);
    const before = in30Days();
    const back = await crossfade('plan', 'set', 'ALICE', 'pro');
    const lines = [before, in30Days()].map((day) => `alice is now on Pro (backups kept until ${day})\n`);
    expect(lines).toContain(back.stdout);
    expect(await planOf('alice')).toBe('pro');
  }, 120_000);

  it('exits 1 with a clear error for an unknown user, plan or command', async () => {
    const unknownUser = await crossfade('plan', 'set', 'bob', 'pro');
    expect(unknownUser).toMatchObject({ code: 1, stdout: '' });
    expect(unknownUser.stderr).toContain('No user named "bob".');

    const unknownPlan = await crossfade('plan', 'set', 'alice', 'gold');
    expect(unknownPlan.code).toBe(1);
    expect(unknownPlan.stderr).toContain('Unknown plan "gold". Use free, pro or vault.');

    const unknownCommand = await crossfade('launch');
    expect(unknownCommand.code).toBe(1);
    expect(unknownCommand.stderr).toContain('Unknown command "launch".');
    expect(unknownCommand.stderr).toContain('plan set <username> free|pro|vault');

    const help = await crossfade('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('match-files --to apple|spotify');

    const missing = await crossfade('plan', 'set', 'alice');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Usage: plan set <username> free|pro|vault');
    expect(await planOf('alice')).not.toBe('gold');
  }, 120_000);
});
