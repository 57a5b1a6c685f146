import type { KeyObject } from 'node:crypto';
import { decodeProtectedHeader, type JWK, jwtVerify } from 'jose';

/** Apple's ceiling on a developer token's lifetime (about six months). */
export const MAX_DEVELOPER_TOKEN_LIFETIME_S = 15_777_000;

export interface DeveloperKey {
  teamId: string;
  keyId: string;
  publicKey: CryptoKey | KeyObject | JWK;
}

export interface VerifiedDeveloperToken {
  teamId: string;
  keyId: string;
  expiresAt: number;
  /** The web origins the token was issued for (its `origin` claim); none when it names none. */
  origins: string[];
}

/**
 * Checks developer tokens the way Apple does: ES256 only, a `kid` Apple issued, `iss` equal to that key's
 * team, a valid signature, not expired and issued for at most 15,777,000 s. Verified tokens are cached (the
 * expiry is still checked on every call) so a long transfer does not pay for an ECDSA verify per request.
 */
export function createDeveloperTokenVerifier(keys: DeveloperKey[], now: () => number) {
  const byKeyId = new Map(keys.map((key) => [key.keyId, key]));
  const verified = new Map<string, VerifiedDeveloperToken>();

  return async function verify(token: string): Promise<VerifiedDeveloperToken | undefined> {
    const cached = verified.get(token);
    if (cached) return cached.expiresAt * 1000 > now() ? cached : undefined;
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      return undefined;
    }
    if (header.alg !== 'ES256' || typeof header.kid !== 'string') return undefined;
    const key = byKeyId.get(header.kid);
    if (!key) return undefined;
    try {
      const { payload } = await jwtVerify(token, key.publicKey, {
        algorithms: ['ES256'],
        issuer: key.teamId,
        requiredClaims: ['iat', 'exp'],
        currentDate: new Date(now()),
      });
      const { iat, exp } = payload;
      if (iat === undefined || exp === undefined || exp - iat > MAX_DEVELOPER_TOKEN_LIFETIME_S)
        return undefined;
      const origin: unknown = payload.origin;
      const origins = Array.isArray(origin) ? origin.filter((item) => typeof item === 'string') : [];
      const result = { teamId: key.teamId, keyId: key.keyId, expiresAt: exp, origins };
      if (verified.size > 1000) verified.clear();
      verified.set(token, result);
      return result;
    } catch {
      return undefined;
    }
  };
}
