import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { startBillingScheduler } from './billing/billing-deadlines';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/open';
import { createLogger } from './logger';
import { createRuntime } from './runtime';
import { checkDataDirPrivate, makeDataDirPrivate } from './security/private-data';
import { startSyncScheduler } from './syncs/sync-schedule';
import { startBackupScheduler } from './vault/backup-scheduler';

/** Entry point of `npm start` and `npm run dev`: settings, database, app, and a graceful shutdown. */
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
  const logger = createLogger(config.LOG_LEVEL);
  // Before the embedded database starts: everything under DATA_DIR is created 0700/0600.
  makeDataDirPrivate(config.DATA_DIR);
  const database = await openDatabase(
    config.DATABASE_URL ? { url: config.DATABASE_URL } : { dataDir: config.DATA_DIR },
  );
  const { deps, mounts, jobRunner } = await createRuntime(config, database.db, logger);
  // PGlite writes its files with explicit modes: take group/other access off them, warn about the rest.
  checkDataDirPrivate(config.DATA_DIR, logger);

  const app = createApp(deps, { webRoot: fileURLToPath(new URL('../../dist/web', import.meta.url)), mounts });
  const server = serve({ fetch: app.fetch, hostname: config.HOST, port: config.PORT }, (info) => {
    jobRunner?.start();
    if (jobRunner) stopBackupScheduler = startBackupScheduler(deps);
    if (jobRunner) stopSyncScheduler = startSyncScheduler(deps);
    if (jobRunner) stopBillingScheduler = startBillingScheduler(deps);
    logger.info(
      {
        url: config.publicUrl,
        database: database.kind,
        sandbox: config.sandbox,
        port: info.port,
        // Whose word on the client's address is taken (TRUST_PROXY): a wrong value is a hole in every limit.
        trustedProxies: config.TRUST_PROXY?.description ?? 'none',
      },
      `Crossfade is running at ${config.publicUrl}`,
    );
    // A parent that started this process with an IPC channel (the process tests) learns that this very
    // process listens, not another one that took the port first.
    process.send?.({ listening: info.port });
    if (config.sandbox.stripe && !(config.sandbox.spotify && config.sandbox.apple)) {
      logger.warn(
        'Payments run against the sandbox Stripe emulator (no STRIPE_SECRET_KEY): plans are bought with test cards. See README, Payments.',
      );
    }
  });

  let stopBackupScheduler: (() => void) | undefined;
  let stopSyncScheduler: (() => void) | undefined;
  let stopBillingScheduler: (() => void) | undefined;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Stop accepting connections, let requests in flight finish, then close the database.
    const forceExit = setTimeout(() => process.exit(1), 10_000);
    forceExit.unref();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    stopBackupScheduler?.();
    stopSyncScheduler?.();
    stopBillingScheduler?.();
    await jobRunner?.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

void main();
