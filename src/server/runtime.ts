import { type Context, Hono } from 'hono';
import { loadCatalog } from '../sandbox/catalog/load-file';
import type { Catalog } from '../sandbox/catalog/types';
import { createSandbox, SANDBOX_PATHS } from '../sandbox/index';
import { loadOrCreateSandboxAccountSecret, loadOrCreateSandboxAppleKey } from '../sandbox/sandbox-keys';
import { loadOrCreateSandboxStripeKey } from '../sandbox/stripe/sandbox-key';
import { CLIENT_ADDRESS_ENV } from '../sandbox/web-session';
import { createAiEngine } from './ai/index';
import type { AppDeps } from './app-context';
import { batchJob } from './batches/batch-job';
import { createBillingRuntime } from './billing/billing-runtime';
import { planChangeMailJob } from './billing/plan-change';
import type { Config } from './config';
import { ProviderRuntime } from './connections/provider-runtime';
import type { Database } from './db/client';
import { restoreJob } from './history/restore-job';
import type { ClientVariables } from './http/client-address';
import { jobRegistry } from './jobs/define-job';
import { JobRunner } from './jobs/job-runner';
import type { Logger } from './logger';
import { createEncryptor, resolveEncryptionKey } from './security/encryption';
import { syncRunJob } from './syncs/sync-run-job';
import { matchJob } from './transfers/match-job';
import { transferJob } from './transfers/transfer-job';
import { backupJob } from './vault/backup-job';

export interface Runtime {
  deps: AppDeps;
  /** The emulators, mounted on the app's own port in sandbox mode. */
  mounts: { path: string; app: Hono }[];
  /** Background jobs of this process (null with JOB_WORKERS=0); started once the server listens. */
  jobRunner: JobRunner | null;
}

/** Every kind of background job; the runner's registry is typed from this list. */
export const JOBS = [
  matchJob,
  transferJob,
  backupJob,
  batchJob,
  syncRunJob,
  planChangeMailJob,
  restoreJob,
] as const;
export type JobKind = (typeof JOBS)[number]['kind'];

/**
 * Wires settings, database and providers into the dependencies every route gets. In sandbox mode it also
 * builds the emulators; the server then calls them over loopback like any remote service.
 */
export async function createRuntime(
  config: Config,
  db: Database,
  logger: Logger,
  options: {
    encryptionKey?: Buffer;
    catalog?: Catalog;
    sandboxStateInMemory?: boolean;
    /** False for a process that serves no HTTP (the worker): it calls emulators elsewhere. */
    mountEmulators?: boolean;
  } = {},
): Promise<Runtime> {
  const encryptor = createEncryptor(
    options.encryptionKey ?? resolveEncryptionKey(config.TOKEN_ENCRYPTION_KEY, config.DATA_DIR),
  );
  const mounts: Runtime['mounts'] = [];
  let sandboxAppleKey: Awaited<ReturnType<typeof loadOrCreateSandboxAppleKey>> | undefined;

  const sandboxed = Object.values(config.sandbox).some(Boolean);
  // The sandbox Stripe account's key, shared through DATA_DIR like the MusicKit key.
  const sandboxStripeKey = config.sandbox.stripe ? loadOrCreateSandboxStripeKey(config.DATA_DIR) : undefined;
  // The app signs account claims with it and the emulators verify them (decision 0022): one secret.
  const sandboxAccountSecret = sandboxed
    ? loadOrCreateSandboxAccountSecret(config.DATA_DIR, config.SANDBOX_ACCOUNT_SECRET)
    : undefined;
  // Emulators elsewhere (SANDBOX_URL, or a worker's API processes) need only the shared sandbox keys here.
  if (sandboxed && (config.SANDBOX_URL || options.mountEmulators === false)) {
    sandboxAppleKey = await loadOrCreateSandboxAppleKey(config.DATA_DIR);
  } else if (sandboxed && sandboxAccountSecret) {
    // A catalog file is read now, so a bad one stops the start with its line number.
    const fileCatalog = config.SANDBOX_CATALOG ? loadCatalog({ path: config.SANDBOX_CATALOG }) : undefined;
    const key = await loadOrCreateSandboxAppleKey(config.DATA_DIR);
    sandboxAppleKey = key;
    const buildSandbox = () => {
      const catalog =
        options.catalog ?? fileCatalog ?? loadCatalog({ trackCount: config.SANDBOX_CATALOG_TRACKS });
      const sandbox = createSandbox({
        catalog,
        ...(options.sandboxStateInMemory ? {} : { dataDir: config.DATA_DIR }),
        rateLimit:
          config.SANDBOX_RATE_LIMIT > 0
            ? { budget: config.SANDBOX_RATE_LIMIT, windowMs: config.SANDBOX_RATE_WINDOW_SECONDS * 1000 }
            : null,
        spotifyMode: config.SPOTIFY_MODE,
        latencyMs: config.SANDBOX_LATENCY_MS,
        faults: config.SANDBOX_FAULTS,
        appleDeveloperKeys: [{ teamId: key.teamId, keyId: key.keyId, publicKey: key.publicKeyJwk }],
        appOrigin: config.publicUrl,
        publicOrigin: config.publicUrl,
        ...(sandboxStripeKey
          ? { stripe: { secretKey: sandboxStripeKey, publicOrigin: config.publicUrl } }
          : {}),
        accountSecret: sandboxAccountSecret,
        spotifyRedirectUris: [`${config.publicUrl}/api/auth/spotify/callback`],
        consentsPerHour: config.SANDBOX_CONSENTS_PER_HOUR,
      });
      logger.debug({ tracks: catalog.tracks.length }, 'sandbox emulators ready');
      return sandbox;
    };
    // The generated catalog and the emulators' state are built on the first call to /sandbox, not at
    // start-up: a process that never calls them (real credentials for one service, a health probe, an
    // API process in front of standalone emulators) does not hold them in memory.
    let sandbox: Hono | undefined;
    const emulators = () => {
      sandbox ??= buildSandbox();
      return sandbox;
    };
    // The emulators count consent posts per client: the address (an IPv6 client by its /64) this app's
    // first middleware works out, a trusted proxy's X-Forwarded-For included, handed over in the env.
    const withAddress = (c: Context) => ({
      ...(c.env as object),
      [CLIENT_ADDRESS_ENV]: (c.var as Partial<ClientVariables>).clientNetwork ?? 'unknown',
    });
    const lazy = new Hono();
    lazy.all(`${SANDBOX_PATHS.index}/*`, (c) => emulators().fetch(c.req.raw, withAddress(c)));
    lazy.all(SANDBOX_PATHS.index, (c) => emulators().fetch(c.req.raw, withAddress(c)));
    mounts.push({ path: '/', app: lazy });
  }

  const providers = new ProviderRuntime({
    config,
    db,
    encryptor,
    logger,
    ...(sandboxAppleKey ? { sandboxAppleKey } : {}),
    ...(sandboxAccountSecret ? { sandboxAccountSecret } : {}),
  });
  const ai = createAiEngine(
    {
      ...(config.ANTHROPIC_API_KEY ? { anthropicApiKey: config.ANTHROPIC_API_KEY } : {}),
      ...(config.ANTHROPIC_BASE_URL ? { anthropicBaseUrl: config.ANTHROPIC_BASE_URL } : {}),
      anthropicModel: config.ANTHROPIC_MODEL,
      timeoutMs: config.AI_TIMEOUT_MS,
    },
    logger,
  );
  const jobs = { poke: () => runner?.poke() };
  const billing = createBillingRuntime({
    config,
    db,
    logger,
    encryptor,
    internalOrigin: providers.internalOrigin,
    ...(sandboxStripeKey ? { sandboxSecretKey: sandboxStripeKey } : {}),
  });
  const deps: AppDeps = { config, db, logger, encryptor, providers, ai, jobs, billing };
  const runner =
    config.JOB_WORKERS > 0
      ? new JobRunner({
          db,
          logger,
          handlers: jobRegistry(JOBS, deps),
          concurrency: config.JOB_WORKERS,
          leaseMs: config.JOB_LEASE_SECONDS * 1000,
        })
      : null;
  return { deps, mounts, jobRunner: runner };
}
