import { createHash, randomBytes } from 'node:crypto';
import { StateFile } from '../state-file';

/**
 * The OAuth 2 side both cloud-drive emulators share: authorization codes bound to a client, redirect URI
 * and PKCE challenge; access tokens with a scope and an expiry; refresh tokens; and the browser sessions
 * the consent page opens (so the emulator's own pages know whose files to show). Only SHA-256 digests of
 * codes, tokens and session ids are kept, in one small state file per emulator; each service's wire
 * format (error bodies, lifetimes, parameter rules) stays in its own folder.
 */

const CODE_LIFETIME_MS = 10 * 60_000;
const SESSION_LIFETIME_MS = 14 * 24 * 60 * 60_000;
/** Google keeps 100 refresh tokens per account and client and drops the oldest; so do we. */
const REFRESH_TOKENS_PER_GRANT = 100;

export interface RegisteredClient {
  id: string;
  /** Confidential clients prove themselves with it at the token endpoint; PKCE-only clients have none. */
  secret?: string;
  /** Exact redirect URIs, as registered in the service's console. */
  redirectUris: string[];
}

interface CodeRecord {
  clientId: string;
  redirectUri: string;
  account: string;
  scope: string;
  challenge: string;
  challengeMethod: 'S256' | 'plain' | '';
  offline: boolean;
  issuedAt: number;
}

export interface AccessRecord {
  clientId: string;
  account: string;
  scope: string;
  expiresAt: number;
}

interface RefreshRecord {
  clientId: string;
  account: string;
  scope: string;
  /** Granted through PKCE: Dropbox then refreshes it without the client secret. */
  pkce: boolean;
  issuedAt: number;
}

interface GrantsState {
  codes: Record<string, CodeRecord>;
  accessTokens: Record<string, AccessRecord>;
  refreshTokens: Record<string, RefreshRecord>;
  sessions: Record<string, { account: string; expiresAt: number }>;
}

export const digest = (value: string) => createHash('sha256').update(value).digest('hex');
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** RFC 7636: 43–128 characters of the unreserved set. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export type CodeExchange =
  | { ok: true; grant: CodeRecord }
  | {
      ok: false;
      problem: 'unknown_code' | 'wrong_client' | 'wrong_redirect' | 'missing_verifier' | 'bad_verifier';
    };

export class DriveGrants {
  private readonly state: StateFile<GrantsState>;

  constructor(
    path: string | undefined,
    private readonly now: () => number,
    private readonly accessLifetimeMs: number,
  ) {
    this.state = new StateFile(path, () => ({
      codes: {},
      accessTokens: {},
      refreshTokens: {},
      sessions: {},
    }));
  }

  issueCode(grant: Omit<CodeRecord, 'issuedAt'>): string {
    const code = randomToken();
    this.state.update((s) => {
      prune(s.codes, (record) => this.now() - record.issuedAt > CODE_LIFETIME_MS);
      s.codes[digest(code)] = { ...grant, issuedAt: this.now() };
    });
    return code;
  }

  /**
   * A code works once (even a failed exchange burns it, as on the real services) and only for the client
   * and redirect URI it was issued to, with the verifier matching its challenge.
   */
  exchangeCode(
    code: string,
    input: { clientId: string; redirectUri: string; verifier: string },
  ): CodeExchange {
    const key = digest(code);
    const grant = this.state.value.codes[key];
    if (!grant || this.now() - grant.issuedAt > CODE_LIFETIME_MS)
      return { ok: false, problem: 'unknown_code' };
    this.state.update((s) => {
      delete s.codes[key];
    });
    if (grant.clientId !== input.clientId) return { ok: false, problem: 'wrong_client' };
    if (grant.redirectUri !== input.redirectUri) return { ok: false, problem: 'wrong_redirect' };
    if (grant.challenge) {
      if (!input.verifier) return { ok: false, problem: 'missing_verifier' };
      if (!VERIFIER.test(input.verifier) || !pkceMatches(grant, input.verifier))
        return { ok: false, problem: 'bad_verifier' };
    }
    return { ok: true, grant };
  }

  /** A new access token, and a refresh token when the grant asked for offline access. */
  issueTokens(
    grant: { clientId: string; account: string; scope: string; pkce: boolean },
    withRefresh: boolean,
  ) {
    const accessToken = randomToken();
    const refreshToken = withRefresh ? randomToken() : undefined;
    const expiresAt = this.now() + this.accessLifetimeMs;
    this.state.update((s) => {
      prune(s.accessTokens, (record) => record.expiresAt <= this.now());
      s.accessTokens[digest(accessToken)] = { ...pick(grant), expiresAt };
      if (refreshToken) {
        s.refreshTokens[digest(refreshToken)] = { ...pick(grant), pkce: grant.pkce, issuedAt: this.now() };
        dropOldest(s.refreshTokens, grant, REFRESH_TOKENS_PER_GRANT);
      }
    });
    return { accessToken, refreshToken, expiresInSeconds: Math.floor(this.accessLifetimeMs / 1000) };
  }

  /** The grant behind a refresh token, if it still stands and belongs to this client. */
  refreshGrant(refreshToken: string, clientId: string): RefreshRecord | undefined {
    const record = this.state.value.refreshTokens[digest(refreshToken)];
    return record && record.clientId === clientId ? record : undefined;
  }

  /** `expired` is told apart from `unknown`: Dropbox names the two differently. */
  accessToken(token: string): AccessRecord | 'expired' | undefined {
    const record = this.state.value.accessTokens[digest(token)];
    if (!record) return undefined;
    return record.expiresAt <= this.now() ? 'expired' : record;
  }

  /** Every token of an account and client, as when the person removes the app's access. */
  revoke(account: string, clientId: string): void {
    this.state.update((s) => {
      const matches = (record: { account: string; clientId: string }) =>
        record.account === account && record.clientId === clientId;
      prune(s.accessTokens, matches);
      prune(s.refreshTokens, matches);
    });
  }

  /** The browser session the consent page opens; its id goes into an HttpOnly cookie. */
  openSession(account: string): string {
    const id = randomToken();
    this.state.update((s) => {
      prune(s.sessions, (session) => session.expiresAt <= this.now());
      s.sessions[digest(id)] = { account, expiresAt: this.now() + SESSION_LIFETIME_MS };
    });
    return id;
  }

  sessionAccount(id: string | undefined): string | undefined {
    if (!id) return undefined;
    const session = this.state.value.sessions[digest(id)];
    return session && session.expiresAt > this.now() ? session.account : undefined;
  }

  endSession(id: string | undefined): void {
    if (!id) return;
    this.state.update((s) => {
      delete s.sessions[digest(id)];
    });
  }
}

function pkceMatches(grant: CodeRecord, verifier: string): boolean {
  const computed =
    grant.challengeMethod === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url');
  return computed === grant.challenge;
}

const pick = (grant: { clientId: string; account: string; scope: string }) => ({
  clientId: grant.clientId,
  account: grant.account,
  scope: grant.scope,
});

function prune<T>(records: Record<string, T>, stale: (record: T) => boolean): void {
  for (const [key, record] of Object.entries(records)) if (stale(record)) delete records[key];
}

function dropOldest(
  records: Record<string, RefreshRecord>,
  grant: { clientId: string; account: string },
  keep: number,
): void {
  const same = Object.entries(records)
    .filter(([, record]) => record.clientId === grant.clientId && record.account === grant.account)
    .sort(([, a], [, b]) => a.issuedAt - b.issuedAt);
  for (const [key] of same.slice(0, Math.max(0, same.length - keep))) delete records[key];
}

/** RFC 7636 challenge rules shared by both services: S256 or plain, 43–128 unreserved characters. */
export function validChallenge(challenge: string, method: string): method is 'S256' | 'plain' {
  return (method === 'S256' || method === 'plain') && VERIFIER.test(challenge);
}
