import { z } from 'zod';
import { parseSandboxFaults } from './faults';
import { parseSandboxAccountSecret } from './sandbox-keys';

/**
 * The `SANDBOX_*` settings the emulators read, defined once: the app's settings (src/server/config.ts)
 * and the standalone sandbox (`npm run sandbox`, src/sandbox/main.ts) both spread this shape into their
 * own schema, so a setting means the same, with the same default and the same error, in either process.
 */

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

export const sandboxSettingsShape = {
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
  /**
   * 32 bytes, base64: names each person's sandbox account (an HMAC of their user id) and signs the consent
   * claim the emulators verify (decision 0022). Generated into DATA_DIR/sandbox when unset; the app and
   * `npm run sandbox` read the same.
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
};
