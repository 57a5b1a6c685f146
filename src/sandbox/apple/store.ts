import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { accountSeed, type SandboxCountry, sandboxProfile } from '../accounts';
import { documentPath, jsonFilesIn, StateFile } from '../state-file';
import type { LibraryWrites, WritesDocument } from './library';

/** A Music User Token the consent page issued, and the developer team it was issued to. */
export interface IssuedUserToken {
  teamId: string;
  issuedAt: string;
}

/** The sandbox's web session, set at consent: who may see and edit their library's playlists. */
export interface AppleWebSession {
  formToken: string;
  expiresAt: number;
}

/** A per-person sandbox account (../accounts.ts): the key is its id; name, storefront and library from its seed. */
export interface AppleAccount {
  key: string;
  seed: string;
  /** Upper-case country; the storefront is its lower case. */
  country: string;
  createdAt: string;
}

interface LibraryDocument {
  version: 2;
  writes: LibraryWrites;
  userTokens: Record<string, IssuedUserToken>;
  /** By SHA-256 of the cookie value. */
  webSessions: Record<string, AppleWebSession>;
}

interface AccountDocument extends LibraryDocument {
  account: AppleAccount;
  /** The account's public demo playlists: catalog (`pl.u-`) id → library (`p.`) id. */
  shared: Record<string, string>;
}

const WEB_SESSION_MS = 30 * 24 * 60 * 60_000;
const emptyLibrary = (): LibraryDocument => ({
  version: 2,
  writes: { createdPlaylists: [], additions: {} },
  userTokens: {},
  webSessions: {},
});

/**
 * Where the Apple Music emulator keeps its state (decision 0022), under `<stateDir>`: `shared.json` (the
 * shared demo listener's writes and tokens) and `accounts/<key>.json` (one per person: the account, its
 * library's writes, its tokens and web sessions). A new account costs one small write; the demo library
 * is built from its seed. An account is `undefined` for the shared demo listener throughout.
 */
export class AppleStore {
  private readonly shared: StateFile<LibraryDocument>;
  private readonly accounts = new Map<string, StateFile<AccountDocument>>();
  private readonly tokenIndex = new Map<string, string | undefined>();
  private readonly sessionIndex = new Map<string, string | undefined>();
  /** Public playlists of accounts: catalog id → account key. */
  private readonly sharedIndex = new Map<string, string>();

  constructor(
    private readonly stateDir: string | undefined,
    private readonly now: () => number,
  ) {
    this.shared = new StateFile(documentPath(stateDir, 'shared'), emptyLibrary);
    this.indexDocument(undefined, this.shared.value);
    const folder = stateDir ? join(stateDir, 'accounts') : undefined;
    for (const key of jsonFilesIn(folder)) {
      const document = new StateFile<AccountDocument>(documentPath(folder, key), () => {
        throw new Error(`Sandbox account ${key} vanished while loading`);
      });
      this.register(document);
    }
  }

  private register(document: StateFile<AccountDocument>): void {
    const { key } = document.value.account;
    this.accounts.set(key, document);
    this.indexDocument(key, document.value);
    for (const globalId of Object.keys(document.value.shared)) this.sharedIndex.set(globalId, key);
  }

  private indexDocument(account: string | undefined, document: LibraryDocument): void {
    for (const token of Object.keys(document.userTokens)) this.tokenIndex.set(token, account);
    for (const hash of Object.keys(document.webSessions)) this.sessionIndex.set(hash, account);
  }

  private document(account: string | undefined): StateFile<LibraryDocument> | undefined {
    return account === undefined ? this.shared : this.accounts.get(account);
  }

  account(key: string): AppleAccount | undefined {
    return this.accounts.get(key)?.value.account;
  }

  accountKeys(): string[] {
    return [...this.accounts.keys()];
  }

  /**
   * Creates the person's account on their first consent, with the catalog ids of its public demo
   * playlists (so catalog reads find them without building every library). An existing one is kept.
   */
  createAccount(
    claim: { account: string; scenario?: string | undefined },
    sharedPlaylists: (account: AppleAccount) => Record<string, string>,
    country?: SandboxCountry,
  ): AppleAccount {
    const existing = this.account(claim.account);
    if (existing) return existing;
    const seed = accountSeed(claim);
    const account: AppleAccount = {
      key: claim.account,
      seed,
      country: country ?? sandboxProfile(seed).country,
      createdAt: new Date(this.now()).toISOString(),
    };
    const folder = this.stateDir ? join(this.stateDir, 'accounts') : undefined;
    const document = new StateFile<AccountDocument>(documentPath(folder, account.key), () => ({
      ...emptyLibrary(),
      account,
      shared: sharedPlaylists(account),
    }));
    // Written with the sign-in that made it (signIn): one small document.
    this.register(document);
    return account;
  }

  /** The account whose public playlist answers to this catalog id (undefined: none, or the shared one). */
  accountSharing(globalId: string): string | undefined {
    return this.sharedIndex.get(globalId);
  }

  /** Registers a public playlist created through the API, so the catalog finds it. */
  sharePlaylist(account: string | undefined, globalId: string, playlistId: string): void {
    if (account === undefined) return;
    this.accounts.get(account)?.update((document) => {
      document.shared[globalId] = playlistId;
    });
    this.sharedIndex.set(globalId, account);
  }

  /** The library writes of an account (or of the shared demo listener). */
  writes(account: string | undefined): WritesDocument {
    const document = () => this.document(account);
    return {
      get value() {
        return document()?.value.writes ?? { createdPlaylists: [], additions: {} };
      },
      update: (change) => document()?.update((state) => change(state.writes)),
    };
  }

  /**
   * What allowing access leaves, in one write of the library's document: a Music User Token for the app
   * (issued to the developer's team) and a web session for this browser (its cookie value).
   */
  signIn(teamId: string, account: string | undefined): { token: string; cookie: string } {
    const now = this.now();
    const token = `sandbox-mut.${randomBytes(48).toString('base64url')}`;
    const cookie = randomBytes(32).toString('base64url');
    const hash = hashCookie(cookie);
    this.document(account)?.update((document) => {
      document.userTokens[token] = { teamId, issuedAt: new Date(now).toISOString() };
      for (const [stale, old] of Object.entries(document.webSessions)) {
        if (old.expiresAt <= now) {
          delete document.webSessions[stale];
          this.sessionIndex.delete(stale);
        }
      }
      document.webSessions[hash] = {
        formToken: randomBytes(32).toString('base64url'),
        expiresAt: now + WEB_SESSION_MS,
      };
    });
    this.tokenIndex.set(token, account);
    this.sessionIndex.set(hash, account);
    return { token, cookie };
  }

  /** The token's record and whose library it opens; undefined when it was never issued. */
  userToken(token: string): { issued: IssuedUserToken; account: string | undefined } | undefined {
    if (!this.tokenIndex.has(token)) return undefined;
    const account = this.tokenIndex.get(token);
    const issued = this.document(account)?.value.userTokens[token];
    return issued ? { issued, account } : undefined;
  }

  /** The signed-in session of a cookie: its form token and whose library (undefined account: the shared one). */
  webSession(
    cookie: string | undefined,
  ): { session: AppleWebSession; account: string | undefined } | undefined {
    if (!cookie) return undefined;
    const hash = hashCookie(cookie);
    if (!this.sessionIndex.has(hash)) return undefined;
    const account = this.sessionIndex.get(hash);
    const session = this.document(account)?.value.webSessions[hash];
    return session && session.expiresAt > this.now() ? { session, account } : undefined;
  }
}

const hashCookie = (cookie: string) => createHash('sha256').update(cookie).digest('base64url');
