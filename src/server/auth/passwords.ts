import { hash, verify } from '@node-rs/argon2';

/** argon2id with OWASP's recommended minimum (19 MiB, 2 passes). */
// `algorithm: 2` is Algorithm.Argon2id (a const enum, which isolated modules cannot read).
const options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, options);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * Verifying against this when the username does not exist keeps a failed sign-in equally slow either way,
 * so response times do not reveal which usernames are taken.
 */
let dummyHash: Promise<string> | undefined;
export const timingSafeDummyHash = () => {
  dummyHash ??= hashPassword('crossfade-dummy-password');
  return dummyHash;
};
