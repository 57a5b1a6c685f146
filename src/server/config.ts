import { z } from 'zod';
import { sandboxSettingsShape } from '../sandbox/settings';
import { parseProxyTrust } from './http/client-address';

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

/** A setting read by its own parser, whose error message becomes the start-up line. */
const parsedWith = <T>(parse: (text: string | undefined) => T) =>
  z
    .string()
    .optional()
    .transform((text, context) => {
      try {
        return parse(text);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    });

const booleanFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(fallback ? 'true' : 'false')
    .transform((value) => ['true', '1', 'yes'].includes(value));

const stripePriceId = (name: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]{3,255}$/, `${name} must be a Stripe price id (price_…)`)
    .optional();

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
  /**
   * How long a person's playlist list on a service (step 2) is answered from memory before the service is
   * asked again (0 = always ask); the refresh counts only playlists whose change marker moved (decision 0032).
   */
  PLAYLISTS_CACHE_SECONDS: z.coerce.number().min(0).max(3600).default(15),
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
  /** Geo-lock bypass: tracks checked per account per day on the free plan; Pro and Vault+ get ten times as many. */
  GEO_LOCK_TRACKS_PER_DAY: z.coerce.number().int().min(0).default(500),
  /**
   * Which reverse proxies in front of Crossfade to believe about the client (X-Forwarded-For) and its
   * scheme (X-Forwarded-Proto): `true` one, a number that many, or a comma list of addresses and CIDR
   * ranges (http/client-address.ts, decision 0023). Null: none, the socket's peer is the client.
   */
  TRUST_PROXY: parsedWith(parseProxyTrust),

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

  /**
   * Origin of emulators running on their own (`npm run sandbox`) for processes that share them: this
   * process then mounts none and calls them there. Use the same DATA_DIR (its sandbox key) as the sandbox.
   */
  SANDBOX_URL: optionalText.pipe(z.url().optional()),
  /** The emulators' own settings (catalog, rate limit, latency, faults, account secret, consents). */
  ...sandboxSettingsShape,

  // ── Save to Cloud: Google Drive and Dropbox (decision 0027); unset client ids use the sandbox emulators.
  /** A Google OAuth client of type "Web application" (it has a secret; Crossfade adds PKCE and state). */
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  /** Where people consent (`/o/oauth2/v2/auth` below it), where codes are exchanged, where Drive answers. */
  GOOGLE_ACCOUNTS_URL: z.url().default('https://accounts.google.com'),
  GOOGLE_TOKEN_URL: z.url().default('https://oauth2.googleapis.com/token'),
  GOOGLE_DRIVE_API_URL: z.url().default('https://www.googleapis.com'),
  /** A Dropbox app's App key (App folder access); connected with PKCE, so no secret is needed. */
  DROPBOX_CLIENT_ID: optionalText,
  /** www (consent page, the person's files), the API host and the content (upload) host. */
  DROPBOX_WWW_URL: z.url().default('https://www.dropbox.com'),
  DROPBOX_API_URL: z.url().default('https://api.dropboxapi.com'),
  DROPBOX_CONTENT_URL: z.url().default('https://content.dropboxapi.com'),

  ANTHROPIC_API_KEY: optionalText,
  ANTHROPIC_BASE_URL: optionalText.pipe(z.url().optional()),
  ANTHROPIC_MODEL: z.string().default('claude-sonnet-5-5'),
  AI_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),

  /** smtp(s)://user:pass@host:port; without it mail goes to DATA_DIR/outbox. */
  SMTP_URL: optionalText,
  MAIL_FROM: z.string().default('Crossfade <no-reply@crossfade.local>'),

  // ── Payments (issue 22, decision 0025). Without STRIPE_SECRET_KEY the sandbox's Stripe emulator takes them.
  /** Stripe secret key (`sk_live_…`, `sk_test_…`, or a restricted `rk_…`). */
  STRIPE_SECRET_KEY: optionalText.pipe(
    z
      .string()
      .regex(
        /^(sk|rk)_(live|test)_\w+$/,
        'STRIPE_SECRET_KEY must be a Stripe secret key (sk_live_…, sk_test_… or rk_…)',
      )
      .optional(),
  ),
  /** The signing secret of the webhook endpoint (`whsec_…`) pointing at PUBLIC_URL/api/billing/webhook. */
  STRIPE_WEBHOOK_SECRET: optionalText.pipe(
    z
      .string()
      .startsWith('whsec_', 'STRIPE_WEBHOOK_SECRET must be a webhook signing secret (whsec_…)')
      .optional(),
  ),
  /** Monthly prices of Pro and Vault+ (`price_…`); the yearly ones are optional. */
  STRIPE_PRICE_PRO: optionalText.pipe(stripePriceId('STRIPE_PRICE_PRO')),
  STRIPE_PRICE_VAULT: optionalText.pipe(stripePriceId('STRIPE_PRICE_VAULT')),
  STRIPE_PRICE_PRO_YEARLY: optionalText.pipe(stripePriceId('STRIPE_PRICE_PRO_YEARLY')),
  STRIPE_PRICE_VAULT_YEARLY: optionalText.pipe(stripePriceId('STRIPE_PRICE_VAULT_YEARLY')),
  /** Where the Stripe client sends its calls (a stand-in, a proxy); Stripe's API by default. */
  STRIPE_API_URL: z
    .url({ protocol: /^https?$/, error: 'STRIPE_API_URL must be an http(s) URL' })
    .default('https://api.stripe.com'),

  /** Worker processes: 0 runs no jobs in this process (an API-only node). */
  JOB_WORKERS: z.coerce.number().int().min(0).max(32).default(2),
  /** Seconds a job stays with a worker that stopped renewing it (a crash) before another resumes it. */
  JOB_LEASE_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  /**
   * How long Apple Music's library writes may take to show in its reads (APPLE_WRITE_SETTLE_MS in
   * providers/apple/client.ts): reads that far apart must agree before a job trusts them. Tests against
   * an emulator that shows writes at once (or after a set lag) wait less.
   */
  APPLE_WRITE_SETTLE_MS: z.coerce.number().int().min(1).max(120_000).default(6_000),

  // --- Sandbox accounts (decision 0022) ---
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
  sandbox: { spotify: boolean; apple: boolean; googleDrive: boolean; dropbox: boolean; stripe: boolean };
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Settings that were renamed: a deployment still setting the old name is told, not silently ignored. */
const RENAMED_SETTINGS: Record<string, string> = { REGION_LOCK_TRACKS_PER_DAY: 'GEO_LOCK_TRACKS_PER_DAY' };

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  for (const [old, current] of Object.entries(RENAMED_SETTINGS)) {
    if (env[old] !== undefined)
      throw new ConfigError(`Invalid setting ${old}: it is now called ${current}; rename it`);
  }
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
  if (Boolean(settings.GOOGLE_CLIENT_ID) !== Boolean(settings.GOOGLE_CLIENT_SECRET)) {
    throw new ConfigError('Invalid setting GOOGLE_*: set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET together');
  }
  checkStripeSettings(settings);
  const publicUrl = (settings.PUBLIC_URL ?? `http://${settings.HOST}:${settings.PORT}`).replace(/\/$/, '');
  return {
    ...settings,
    publicUrl,
    sandbox: {
      spotify: !settings.SPOTIFY_CLIENT_ID,
      apple: !settings.APPLE_TEAM_ID,
      googleDrive: !settings.GOOGLE_CLIENT_ID,
      dropbox: !settings.DROPBOX_CLIENT_ID,
      stripe: !settings.STRIPE_SECRET_KEY,
    },
  };
}

/**
 * Real payments need the key, the webhook signing secret and both monthly prices together; any of the
 * others without the key would be silently unused, so that is refused too.
 */
function checkStripeSettings(settings: Settings) {
  const needed = {
    STRIPE_WEBHOOK_SECRET: settings.STRIPE_WEBHOOK_SECRET,
    STRIPE_PRICE_PRO: settings.STRIPE_PRICE_PRO,
    STRIPE_PRICE_VAULT: settings.STRIPE_PRICE_VAULT,
  };
  if (settings.STRIPE_SECRET_KEY) {
    const missing = Object.entries(needed)
      .filter(([, value]) => !value)
      .map(([name]) => name);
    if (missing.length > 0) {
      throw new ConfigError(
        `Invalid setting ${missing[0]}: STRIPE_SECRET_KEY is set, so set ${missing.join(', ')} too (see README, Payments)`,
      );
    }
    return;
  }
  const stray = Object.entries({
    ...needed,
    STRIPE_PRICE_PRO_YEARLY: settings.STRIPE_PRICE_PRO_YEARLY,
    STRIPE_PRICE_VAULT_YEARLY: settings.STRIPE_PRICE_VAULT_YEARLY,
  }).find(([, value]) => value);
  if (stray) {
    throw new ConfigError(
      `Invalid setting STRIPE_SECRET_KEY: ${stray[0]} is set but STRIPE_SECRET_KEY is not (payments would use the sandbox)`,
    );
  }
}
