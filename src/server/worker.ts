import { startBillingScheduler } from './billing/billing-deadlines';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/open';
import { createLogger } from './logger';
import { createRuntime } from './runtime';
import { checkDataDirPrivate, makeDataDirPrivate } from './security/private-data';
import { startSyncScheduler } from './syncs/sync-schedule';
import { startBackupScheduler } from './vault/backup-scheduler';

/**
 * Entry point of `npm run worker`: the job runner (transfers, matches, backups) without HTTP, for
 * deployments that scale API processes (`JOB_WORKERS=0 npm start`) and workers apart on one PostgreSQL.
 * Jobs are claimed with row locks and leases, so any number of workers may run. In sandbox mode it calls
 * the emulators at SANDBOX_URL (or an API process on PORT) and mounts none of its own.
 */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  if (config.JOB_WORKERS === 0) {
    console.error(
      'JOB_WORKERS is 0: a worker with no job slots would do nothing. Set JOB_WORKERS=1 or more.',
    );
    process.exit(1);
  }
  if (!config.DATABASE_URL) {
    // PGlite allows one process per data directory, so a worker beside `npm start` cannot share it.
    console.error(
      'npm run worker needs DATABASE_URL (PostgreSQL): the embedded database serves one process.',
    );
    process.exit(1);
  }
  const logger = createLogger(config.LOG_LEVEL);
  makeDataDirPrivate(config.DATA_DIR); // keys and sandbox state live there
  const database = await openDatabase({ url: config.DATABASE_URL });
  const { deps, jobRunner } = await createRuntime(config, database.db, logger, { mountEmulators: false });
  if (!jobRunner) throw new Error('no job runner although JOB_WORKERS > 0');
  // The same start-up check as the server's: tighten what is open, warn about what stays open.
  checkDataDirPrivate(config.DATA_DIR, logger);
  jobRunner.start();
  const stopBackupScheduler = startBackupScheduler(deps);
  const stopSyncScheduler = startSyncScheduler(deps);
  const stopBillingScheduler = startBillingScheduler(deps);
  logger.info({ workers: config.JOB_WORKERS, database: database.kind }, 'Crossfade worker is running');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker shutting down');
    // Jobs in flight checkpoint and are released; a forced exit leaves their leases to expire instead.
    const forceExit = setTimeout(() => process.exit(1), 10_000);
    forceExit.unref();
    stopBackupScheduler();
    stopSyncScheduler();
    stopBillingScheduler();
    await jobRunner.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

void main();
