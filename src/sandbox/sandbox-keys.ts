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
