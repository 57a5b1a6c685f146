import type { SessionUser } from '../shared/api/auth';
import type { Config } from './config';
import type { Database } from './db/client';
import type { Logger } from './logger';
import type { Encryptor } from './security/encryption';

/** What every route module is built from: explicit parameters, no container. */
export interface AppDeps {
  config: Config;
  db: Database;
  logger: Logger;
  encryptor: Encryptor;
}

/** Per-request values set by middleware (see http/session-middleware.ts and http/csrf.ts). */
export interface AppEnv {
  Variables: {
    user: SessionUser | null;
    sessionToken: string | null;
    /** The browser's CSRF token; also keys the per-browser analytics rate limit. */
    csrfToken: string;
    clientAddress: string;
  };
}
