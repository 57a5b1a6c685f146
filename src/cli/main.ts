import { loadConfig } from '../server/config';
import type { DatabaseHandle } from '../server/db/client';
import { openDatabase } from '../server/db/open';
import { MATCH_FILES_USAGE, runMatchFiles } from './match-files';
import { CommandError, PLAN_USAGE, parsePlanArgs, setPlan } from './plan-command';

/**
 * Operator commands: `npm run --silent crossfade -- <command> …`. They open the same database the server
 * uses (DATABASE_URL, or PGlite in DATA_DIR). PGlite allows one process at a time, so stop the server
 * before running a command against a PGlite data directory.
 */
type Command = (args: string[]) => Promise<number>;

const USAGE = [
  'Usage: npm run --silent crossfade -- <command>',
  '',
  'Commands:',
  `  ${PLAN_USAGE}`,
  `  ${MATCH_FILES_USAGE}`,
].join('\n');

async function withDatabase<T>(use: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const handle = await openDatabase(
    config.DATABASE_URL ? { url: config.DATABASE_URL } : { dataDir: config.DATA_DIR },
  );
  try {
    return await use(handle);
  } finally {
    await handle.close();
  }
}

const commands: Record<string, Command> = {
  plan: async (args) => {
    const { username, plan } = parsePlanArgs(args);
    const message = await withDatabase(({ db }) => setPlan(db, username, plan));
    process.stdout.write(`${message}\n`);
    return 0;
  },
  'match-files': runMatchFiles,
};

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === 'help' || name === '--help' || name === '-h') {
    console.log(USAGE);
    return 0;
  }
  const command = name ? commands[name] : undefined;
  if (!command) {
    console.error(name ? `Unknown command "${name}".\n\n${USAGE}` : USAGE);
    return 1;
  }
  try {
    return await command(args);
  } catch (error) {
    if (error instanceof CommandError) {
      console.error(error.message);
      return 1;
    }
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
