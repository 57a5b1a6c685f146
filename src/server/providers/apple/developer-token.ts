import { importPKCS8, SignJWT } from 'jose';

/** Apple rejects developer tokens whose `exp` is more than this many seconds after `iat`. */
export const MAX_DEVELOPER_TOKEN_LIFETIME_S = 15_777_000;
const DEFAULT_LIFETIME_S = 30 * 24 * 3600;
const RENEW_BEFORE_EXPIRY_S = 24 * 3600;

export interface DeveloperTokenSignerOptions {
  teamId: string;
  keyId: string;
  /** The MusicKit private key (`.p8`, PKCS#8 PEM, P-256). */
  privateKeyPem: string;
  /** Default 30 days; capped at Apple's 15,777,000 s. */
  lifetimeSeconds?: number;
  /** The web origins allowed to use the token (Apple's `origin` claim): MusicKit runs on PUBLIC_URL's. */
  origins?: string[];
  now?: () => number;
}

export interface DeveloperTokenSource {
  getToken(): Promise<string>;
}

/**
 * Signs Apple Music developer tokens (ES256 JWT with `kid`, `iss`, `iat`, `exp`). One token is reused until a
 * day before it expires (or half its lifetime, for short test lifetimes), so requests never carry a token
 * about to lapse.
 */
export function createDeveloperTokenSigner(options: DeveloperTokenSignerOptions): DeveloperTokenSource {
  const now = options.now ?? Date.now;
  const lifetime = Math.min(
    Math.max(1, Math.floor(options.lifetimeSeconds ?? DEFAULT_LIFETIME_S)),
    MAX_DEVELOPER_TOKEN_LIFETIME_S,
  );
  const renewBefore = Math.min(RENEW_BEFORE_EXPIRY_S, lifetime / 2);
  const key = importPKCS8(options.privateKeyPem, 'ES256');
  let current: { token: string; renewAt: number } | undefined;
  let pending: Promise<string> | undefined;

  async function sign(): Promise<string> {
    const issuedAt = Math.floor(now() / 1000);
    const token = await new SignJWT(options.origins?.length ? { origin: options.origins } : {})
      .setProtectedHeader({ alg: 'ES256', kid: options.keyId })
      .setIssuer(options.teamId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + lifetime)
      .sign(await key);
    current = { token, renewAt: (issuedAt + lifetime - renewBefore) * 1000 };
    return token;
  }

  return {
    async getToken() {
      if (current && now() < current.renewAt) return current.token;
      // Concurrent callers share one signing instead of racing to replace the cached token.
      pending ??= sign().finally(() => {
        pending = undefined;
      });
      return pending;
    },
  };
}

// The sandbox's key generator lives with the sandbox (which never imports the server); re-exported here
// for the server and its tests.
export { generateSandboxAppleKeys, type SandboxAppleKeys } from '../../../sandbox/apple/generate-keys';
