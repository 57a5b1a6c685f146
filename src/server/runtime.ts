import type { Hono } from 'hono';
import { loadCatalog } from '../sandbox/catalog/load-file';
import type { Catalog } from '../sandbox/catalog/types';
import { createSandbox } from '../sandbox/index';
import { loadOrCreateSandboxAppleKey } from '../sandbox/sandbox-keys';
import { createAiEngine } from './ai/index';
import type { AppDeps } from './app-context';
import type { Config } from './config';
import { ProviderRuntime } from './connections/provider-runtime';
import type { Database } from './db/client';
import { jobHandlers } from './jobs/job-handlers';
import { JobRunner } from './jobs/job-runner';
import type { Logger } from './logger';
import { createEncryptor, resolveEncryptionKey } from './security/encryption';

export interface Runtime {
  deps: AppDeps;
  /** The emulators, mounted on the app's own port in sandbox mode. */
  mounts: { path: string; app: Hono }[];
  /** Background jobs of this process (null with JOB_WORKERS=0); started once the server listens. */
  jobRunner: JobRunner | null;
}

/**
 * Wires settings, database and providers into the dependencies every route gets. In sandbox mode it also
 * builds the emulators; the server then calls them over loopback like any remote service.
 */
export async function createRuntime(
  config: Config,
  db: Database,
  logger: Logger,
  options: { encryptionKey?: Buffer; catalog?: Catalog; sandboxStateInMemory?: boolean } = {},
): Promise<Runtime> {
  const encryptor = createEncryptor(
    options.encryptionKey ?? resolveEncryptionKey(config.TOKEN_ENCRYPTION_KEY, config.DATA_DIR),
  );
  const mounts: Runtime['mounts'] = [];
  let sandboxAppleKey: Awaited<ReturnType<typeof loadOrCreateSandboxAppleKey>> | undefined;

  if (config.sandbox.spotify || config.sandbox.apple) {
    const catalog =
      options.catalog ?? loadCatalog(config.SANDBOX_CATALOG ? { path: config.SANDBOX_CATALOG } : {});
    sandboxAppleKey = await loadOrCreateSandboxAppleKey(config.DATA_DIR);
    mounts.push({
      path: '/',
      app: createSandbox({
        catalog,
        ...(options.sandboxStateInMemory ? {} : { dataDir: config.DATA_DIR }),
        rateLimit:
          config.SANDBOX_RATE_LIMIT > 0
            ? { budget: config.SANDBOX_RATE_LIMIT, windowMs: config.SANDBOX_RATE_WINDOW_SECONDS * 1000 }
            : null,
        spotifyMode: config.SPOTIFY_MODE,
        latencyMs: config.SANDBOX_LATENCY_MS,
        faults: config.SANDBOX_FAULTS,
        appleDeveloperKeys: [
          {
            teamId: sandboxAppleKey.teamId,
            keyId: sandboxAppleKey.keyId,
            publicKey: sandboxAppleKey.publicKeyJwk,
          },
        ],
      }),
    });
    logger.debug({ tracks: catalog.tracks.length }, 'sandbox emulators ready');
  }

  const providers = new ProviderRuntime({
    config,
    db,
    encryptor,
    ...(sandboxAppleKey ? { sandboxAppleKey } : {}),
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
  const deps: AppDeps = { config, db, logger, encryptor, providers, ai, jobs };
  const runner =
    config.JOB_WORKERS > 0
      ? new JobRunner({ db, logger, handlers: jobHandlers(deps), concurrency: config.JOB_WORKERS })
      : null;
  return { deps, mounts, jobRunner: runner };
}
