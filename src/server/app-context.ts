import type { SessionUser } from '../shared/api/auth';
import type { AiEngine } from './ai/engine';
import type { BillingRuntime } from './billing/billing-runtime';
import type { Config } from './config';
import type { ProviderRuntime } from './connections/provider-runtime';
import type { Database } from './db/client';
import type { ClientVariables } from './http/client-address';
import type { Logger } from './logger';
import type { Encryptor } from './security/encryption';

/** What every route module is built from: explicit parameters, no container. */
export interface AppDeps {
  config: Config;
  db: Database;
  logger: Logger;
  encryptor: Encryptor;
  /** Service endpoints, connections and per-person clients. */
  providers: ProviderRuntime;
  /** The AI engine (local by default, Anthropic when configured). */
  ai: AiEngine & { name: 'local' | 'anthropic' };
  /** Lets request handlers wake this process's job runner after enqueueing work. */
  jobs: { poke(): void };
  /** Payments: Stripe, or its emulator in sandbox mode (issue 22). */
  billing: BillingRuntime;
}

/**
 * Per-request values set by middleware: the client (http/client-address.ts, on every request) and the
 * session and CSRF token (http/request-context.ts, on /api).
 */
export interface AppEnv {
  Variables: ClientVariables & {
    user: SessionUser | null;
    sessionToken: string | null;
    /** The browser's CSRF token; groups one browser's analytics events (never a rate-limit key). */
    csrfToken: string;
  };
}
