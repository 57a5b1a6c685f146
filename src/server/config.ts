import { z } from 'zod';
import { parseSandboxFaults } from '../sandbox/faults';
import { parseSandboxAccountSecret } from '../sandbox/sandbox-keys';

/**
 * Every setting Crossfade reads, parsed once at start-up. A bad value stops the process with one line
 * naming the variable (see main.ts), instead of failing later in some request. README.md documents them;
 * nothing else in the server reads `process.env`.
 */

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const port = (fallback: number) => z.coerce.number().int().min(0).max(65_535).default(fallback);

const booleanFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(fallback ? 'true' : 'false')
    .transform((value) => ['true', '1', 'yes'].includes(value));

export const settingsSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  /** A fixed port (not 0): OAuth redirects, PUBLIC_URL and the loopback calls into the emulators name it. */
  PORT: port(3000).pipe(z.number().min(1, 'PORT must be a port number from 1 to 65535.')),
  /** Address people use to reach Crossfade; OAuth redirect URIs are built from it. */
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalText.pipe(z.url({ error: 'DATABASE_URL must be a postgres:// URL' }).optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** 32 bytes, base64; encrypts provider tokens at rest. Generated into DATA_DIR when unset. */
  TOKEN_ENCRYPTION_KEY: optionalText.pipe(
    z
      .string()
      .refine(
        (value) => Buffer.from(value, 'base64').length === 32,
        'TOKEN_ENCRYPTION_KEY must be 32 bytes in base64',
      )
      .optional(),
  ),
  SESSION_TTL_DAYS: z.coerce.number().positive().max(365).default(30),
  /** Failed sign-ins allowed per username and address pair in LOGIN_THROTTLE_WINDOW_MINUTES. */
  LOGIN_MAX_FAILURES: z.coerce.number().int().positive().default(5),
  /** Failed sign-ins allowed from one address, whatever the usernames, in the window. */
  LOGIN_ADDRESS_MAX_FAILURES: z.coerce.number().int().positive().default(25),
  /** Failed sign-ins for one account (any address) in the window before its owner is e-mailed. */
  LOGIN_ALERT_FAILURES: z.coerce.number().int().positive().default(20),
  LOGIN_THROTTLE_WINDOW_MINUTES: z.coerce.number().positive().default(15),
  /** Rate limits (0 = off): see README's settings and decision 0011. */
  SIGNUP_LIMIT_PER_HOUR: z.coerce.number().int().min(0).default(10),
  LINK_SIGNUP_LIMIT_PER_HOUR: z.coerce.number().int().min(0).default(5),
  MERGE_INVITATIONS_PER_DAY: z.coerce.number().int().min(0).default(20),
  /** Analytics events per 10 seconds per session (or address when signed out); spec: 10/s, bursts of 100. */
  EVENTS_PER_10_SECONDS: z.coerce.number().int().min(0).default(100),
  ONBOARDING_REPLIES_PER_MINUTE: z.coerce.number().int().min(0).default(30),
  /** Region-lock tracks checked per account per day on the free plan; Pro and Vault+ get ten times as many. */
  REGION_LOCK_TRACKS_PER_DAY: z.coerce.number().int().min(0).default(500),
  /** Honour X-Forwarded-For / X-Forwarded-Proto from a reverse proxy in front of Crossfade. */
  TRUST_PROXY: booleanFlag(false),

  SPOTIFY_CLIENT_ID: optionalText,
  /**
   * Optional: lets the server get app tokens (client credentials) to check availability in other
   * countries (Geo-Lock Bypass); a person's token always answers in that person's own country.
   */
  SPOTIFY_CLIENT_SECRET: optionalText,
  SPOTIFY_MODE: z.enum(['development', 'extended']).default('development'),
  SPOTIFY_ACCOUNTS_URL: z.url().default('https://accounts.spotify.com'),
  SPOTIFY_API_URL: z.url().default('https://api.spotify.com/v1'),

  APPLE_TEAM_ID: optionalText,
  APPLE_KEY_ID: optionalText,
  /** The MusicKit .p8 key (PEM); literal "\n" sequences are accepted for one-line env files. */
  APPLE_PRIVATE_KEY: optionalText,
  APPLE_API_URL: z.url().default('https://api.music.apple.com/v1'),
  /** Where the page loads MusicKit on the Web from (Apple forbids re-hosting it; tests serve a stand-in). */
  MUSICKIT_SCRIPT_URL: z.url().default('https://js-cdn.music.apple.com/musickit/v3/musickit.js'),

  /** Catalog file for the sandbox emulators (CSV or JSON Lines); the built-in generator otherwise. */
  SANDBOX_CATALOG: optionalText,
  /** Size of the generated catalog when no file is given; 3,000 still holds the whole demo library. */
  SANDBOX_CATALOG_TRACKS: z.coerce.number().int().min(3000).max(1_000_000).default(24_000),
  /** Calls per rolling window the sandbox emulators allow before answering 429; 0 turns the limit off. */
  SANDBOX_RATE_LIMIT: z.coerce.number().int().min(0).default(600),
  /** Length of the emulators' rolling rate-limit window (Spotify's is 30 s). */
  SANDBOX_RATE_WINDOW_SECONDS: z.coerce.number().positive().max(3600).default(30),
  /** Milliseconds added to every emulator answer, to feel (or test) a slow network. */
  SANDBOX_LATENCY_MS: z.coerce.number().int().min(0).max(10_000).default(0),
  /**
   * Origin of emulators running on their own (`npm run sandbox`) for processes that share them: this
   * process then mounts none and calls them there. Use the same DATA_DIR (its sandbox key) as the sandbox.
   */
  SANDBOX_URL: optionalText.pipe(z.url().optional()),
  /** Faults on demand for the emulators (write lag, 5xx, timeouts); see README and sandbox/faults.ts. */
  SANDBOX_FAULTS: z
    .string()
    .optional()
    .transform((text, context) => {
      try {
        return parseSandboxFaults(text);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),

  ANTHROPIC_API_KEY: optionalText,
  ANTHROPIC_BASE_URL: optionalText.pipe(z.url().optional()),
  ANTHROPIC_MODEL: z.string().default('claude-sonnet-5-5'),
  AI_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),

  /** smtp(s)://user:pass@host:port; without it mail goes to DATA_DIR/outbox. */
  SMTP_URL: optionalText,
  MAIL_FROM: z.string().default('Crossfade <no-reply@crossfade.local>'),

  /** Worker processes: 0 runs no jobs in this process (an API-only node). */
  JOB_WORKERS: z.coerce.number().int().min(0).max(32).default(2),
  /** Seconds a job stays with a worker that stopped renewing it (a crash) before another resumes it. */
  JOB_LEASE_SECONDS: z.coerce.number().min(1).max(3600).default(30),

  // --- Sandbox accounts (decision 0022) ---
  /**
   * 32 bytes, base64: names each person's sandbox account (an HMAC of their user id) and signs the consent
   * claim the emulators verify. Generated into DATA_DIR/sandbox when unset; `npm run sandbox` reads the same.
   */
  SANDBOX_ACCOUNT_SECRET: optionalText.pipe(
    z
      .string()
      .refine(
        (value) => parseSandboxAccountSecret(value) !== undefined,
        'SANDBOX_ACCOUNT_SECRET must be 32 bytes in base64',
      )
      .optional(),
  ),
  /** Consent posts each emulator accepts per client address and rolling hour (0 = no limit). */
  SANDBOX_CONSENTS_PER_HOUR: z.coerce.number().int().min(0).default(60),
  /**
   * Tests only: a request may name a fixed scenario (`X-Sandbox-Scenario`) that seeds the library of the
   * sandbox account it connects, the account itself staying the person's own. Never set in production.
   */
  SANDBOX_TEST_SCENARIOS: booleanFlag(false),
});

export type Settings = z.infer<typeof settingsSchema>;

export interface Config extends Settings {
  publicUrl: string;
  /** Which services run against the built-in emulators (no credentials configured). */
  sandbox: { spotify: boolean; apple: boolean };
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = settingsSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = issue?.path.join('.') ?? 'settings';
    throw new ConfigError(`Invalid setting ${variable}: ${issue?.message ?? 'unknown problem'}`);
  }
  const settings = parsed.data;
  const appleParts = [settings.APPLE_TEAM_ID, settings.APPLE_KEY_ID, settings.APPLE_PRIVATE_KEY];
  if (appleParts.some(Boolean) && !appleParts.every(Boolean)) {
    throw new ConfigError(
      'Invalid setting APPLE_*: set APPLE_TEAM_ID, APPLE_KEY_ID and APPLE_PRIVATE_KEY together',
    );
  }
  const publicUrl = (settings.PUBLIC_URL ?? `http://${settings.HOST}:${settings.PORT}`).replace(/\/$/, '');
  return {
    ...settings,
    publicUrl,
    sandbox: { spotify: !settings.SPOTIFY_CLIENT_ID, apple: !settings.APPLE_TEAM_ID },
  };
}
