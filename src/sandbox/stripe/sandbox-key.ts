import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { newId } from './ids';

const keyFileSchema = z.object({ secretKey: z.string().startsWith('sk_test_') });

/**
 * The sandbox Stripe account's secret key, created once into `<dataDir>/sandbox/stripe-secret-key.json`
 * (private, like the sandbox's MusicKit key): the emulator accepts only it, and every Crossfade process
 * sharing the data directory calls the emulator with it.
 */
export function loadOrCreateSandboxStripeKey(dataDir: string): string {
  const path = join(dataDir, 'sandbox', 'stripe-secret-key.json');
  try {
    return keyFileSchema.parse(JSON.parse(readFileSync(path, 'utf8'))).secretKey;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new Error(`${path} is unreadable (${(error as Error).message}); delete it to create a new key`);
    }
  }
  const secretKey = newId('secretKey');
  mkdirSync(join(dataDir, 'sandbox'), { recursive: true });
  writeFileSync(path, JSON.stringify({ secretKey }, null, 2), { mode: 0o600 });
  return secretKey;
}
