import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { generateSandboxAppleKeys, type SandboxAppleKeys } from './apple/generate-keys';

const keySchema = z.object({
  teamId: z.string().min(1),
  keyId: z.string().min(1),
  privateKeyPem: z.string().includes('PRIVATE KEY'),
  publicKeyJwk: z.looseObject({ kty: z.string() }),
});

/**
 * The sandbox's MusicKit key, created once into `<dataDir>/sandbox/apple-dev-key.json`, so developer
 * tokens the app signs keep working across restarts (the emulator verifies them with the public half).
 */
export async function loadOrCreateSandboxAppleKey(dataDir: string): Promise<SandboxAppleKeys> {
  const path = join(dataDir, 'sandbox', 'apple-dev-key.json');
  try {
    return keySchema.parse(JSON.parse(readFileSync(path, 'utf8'))) as SandboxAppleKeys;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new Error(`${path} is unreadable (${(error as Error).message}); delete it to create a new key`);
    }
  }
  const keys = await generateSandboxAppleKeys();
  mkdirSync(join(dataDir, 'sandbox'), { recursive: true });
  writeFileSync(path, JSON.stringify(keys, null, 2), { mode: 0o600 });
  return keys;
}

/** `SANDBOX_ACCOUNT_SECRET`: 32 bytes in base64. */
export const ACCOUNT_SECRET_BYTES = 32;

export function parseSandboxAccountSecret(value: string): Buffer | undefined {
  const bytes = Buffer.from(value, 'base64');
  return bytes.length === ACCOUNT_SECRET_BYTES ? bytes : undefined;
}

/**
 * The secret that keeps sandbox accounts apart (decision 0022): the app names each person's account with
 * an HMAC of their user id under it and signs the consent claim with it; the emulators verify the claim.
 * `SANDBOX_ACCOUNT_SECRET` when set (processes on several machines), else created once into
 * `<dataDir>/sandbox/account-secret` (0600), which the app and `npm run sandbox` share through DATA_DIR.
 */
export function loadOrCreateSandboxAccountSecret(dataDir: string, configured?: string): Buffer {
  if (configured) {
    const secret = parseSandboxAccountSecret(configured);
    if (!secret) throw new Error('SANDBOX_ACCOUNT_SECRET must be 32 bytes in base64');
    return secret;
  }
  const path = join(dataDir, 'sandbox', 'account-secret');
  try {
    const secret = parseSandboxAccountSecret(readFileSync(path, 'utf8').trim());
    if (secret) return secret;
    throw new Error('it does not hold 32 bytes in base64');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new Error(`${path} is unreadable (${(error as Error).message}); delete it to create a new one`);
    }
  }
  const secret = randomBytes(ACCOUNT_SECRET_BYTES);
  mkdirSync(join(dataDir, 'sandbox'), { recursive: true });
  // `wx`: two processes starting together on one DATA_DIR keep the first one's secret.
  try {
    writeFileSync(path, `${secret.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return loadOrCreateSandboxAccountSecret(dataDir);
  }
}
