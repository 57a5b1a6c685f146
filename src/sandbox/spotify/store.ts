import { createHash } from 'node:crypto';
import { join } from 'node:path';
import {
  accountLibraries,
  accountSeed,
  randomListenerId,
  type SandboxCountry,
  sandboxProfile,
} from '../accounts';
import type { Catalog } from '../catalog/types';
import { documentPath, jsonFilesIn, readJsonFile, StateFile, writeJsonFile } from '../state-file';
import { randomToken } from './ids';
import {
  type AccountDocument,
  type AuthorizationCode,
  type Credentials,
  DEMO_USER,
  type DemoUser,
  demoOwners,
  demoPlaylist,
  demoPlaylistId,
  emptyCredentials,
  type PlayableTrack,
  type SavedLibrary,
  type SharedDocument,
  type SpotifyAccount,
  type StoredPlaylist,
  sharedDemoPlaylists,
  USERS,
  type UserData,
  type WebSession,
} from './state';

type Document = StateFile<AccountDocument> | StateFile<SharedDocument>;
type CredentialKind = keyof Credentials;
const CREDENTIAL_KINDS: readonly CredentialKind[] = ['codes', 'accessTokens', 'refreshTokens', 'webSessions'];
/** How long the sandbox's web player keeps a person signed in. */
const WEB_SESSION_MS = 30 * 24 * 60 * 60_000;
/** How long an authorization code may wait for the app to exchange it. */
export const CODE_LIFETIME_MS = 10 * 60_000;

/**
 * Where the Spotify emulator keeps its state (decision 0022), under `<stateDir>`:
 * `shared.json` (the fixed demo users), `accounts/<key>.json` (one per person: the account, its library,
 * its codes, tokens and web sessions) and `playlists/<id>.json` (a playlist once written). A new account
 * costs one small write: its demo playlists are built from its seed until something changes them. Every
 * read is from memory; indexes find the document a token, a user or a playlist lives in.
 */
export class SpotifyStore {
  private readonly shared: StateFile<SharedDocument>;
  private readonly accounts = new Map<string, StateFile<AccountDocument>>();
  private readonly accountByUserId = new Map<string, StateFile<AccountDocument>>();
  private readonly playlists = new Map<string, StoredPlaylist>();
  /** Demo playlists of accounts not built yet: playlist id → the account key. */
  private readonly templates = new Map<string, string>();
  /** Which document holds each code, token and web session. */
  private readonly credentialIndex = new Map<CredentialKind, Map<string, Document>>(
    CREDENTIAL_KINDS.map((kind) => [kind, new Map()]),
  );
  private readonly owners: Map<string, string>;

  constructor(
    private readonly catalog: Catalog,
    private readonly playable: PlayableTrack,
    /** The Spotify album id of a catalog release, when Spotify carries it. */
    private readonly albumOf: (releaseKey: string) => string | undefined,
    private readonly now: () => number,
    private readonly stateDir: string | undefined,
  ) {
    this.owners = demoOwners(catalog);
    const demo = sharedDemoPlaylists(catalog, playable);
    for (const playlist of demo.playlists) this.playlists.set(playlist.id, playlist);
    this.shared = new StateFile(documentPath(stateDir, 'shared'), () => ({
      version: 2,
      users: demo.users,
      ...emptyCredentials(),
    }));
    this.indexCredentials(this.shared);
    for (const key of jsonFilesIn(this.folder('accounts'))) {
      const document = new StateFile<AccountDocument>(documentPath(this.folder('accounts'), key), () => {
        throw new Error(`Sandbox account ${key} vanished while loading`);
      });
      this.register(document);
    }
    for (const id of jsonFilesIn(this.folder('playlists'))) {
      const playlist = readJsonFile<StoredPlaylist>(documentPath(this.folder('playlists'), id) ?? '');
      if (playlist) this.playlists.set(id, playlist);
    }
  }

  private folder(name: string): string | undefined {
    return this.stateDir ? join(this.stateDir, name) : undefined;
  }

  private register(document: StateFile<AccountDocument>): void {
    const { account, templates } = document.value;
    this.accounts.set(account.key, document);
    this.accountByUserId.set(account.userId, document);
    for (const id of Object.keys(templates)) if (!this.playlists.has(id)) this.templates.set(id, account.key);
    this.indexCredentials(document);
  }

  // --- Users and accounts ------------------------------------------------------------------------------

  account(key: string): SpotifyAccount | undefined {
    return this.accounts.get(key)?.value.account;
  }

  /** A fixed demo user, a per-person account (by its Spotify user id) or the owner of a followed playlist. */
  user(id: string): DemoUser {
    const fixed = USERS.find((user) => user.id === id);
    if (fixed) return fixed;
    const account = this.accountByUserId.get(id)?.value.account;
    if (account) {
      const { displayName } = sandboxProfile(account.seed);
      return { id, displayName, registered: true, country: account.country };
    }
    return { id, displayName: this.owners.get(id) ?? id, registered: true };
  }

  /**
   * Creates the person's account on their first consent: a random Spotify user id, the name and demo
   * library of its seed, the country they chose (or the seed's). An existing account is never changed.
   */
  createAccount(claim: { account: string; scenario?: string | undefined }, country?: SandboxCountry) {
    const existing = this.account(claim.account);
    if (existing) return existing;
    const seed = accountSeed(claim);
    const demos = accountLibraries(this.catalog, seed).spotify;
    const templates = Object.fromEntries(
      demos.map((demo) => [demoPlaylistId(`${claim.account}:${demo.key}`), demo.key]),
    );
    const account: SpotifyAccount = {
      key: claim.account,
      seed,
      userId: randomListenerId(),
      country: country ?? sandboxProfile(seed).country,
      createdAt: new Date(this.now()).toISOString(),
    };
    const document = new StateFile<AccountDocument>(
      documentPath(this.folder('accounts'), account.key),
      () => ({
        version: 2,
        account,
        user: { library: Object.keys(templates) },
        templates,
        ...emptyCredentials(),
      }),
    );
    // Written with the consent that made it (signIn): one small document, its playlist ids and tokens.
    this.register(document);
    return account;
  }

  private documentOfUser(userId: string): Document {
    return this.accountByUserId.get(userId) ?? this.shared;
  }

  private userData(userId: string): UserData | undefined {
    const account = this.accountByUserId.get(userId);
    return account ? account.value.user : this.shared.value.users[userId];
  }

  private changeUserData(userId: string, change: (user: UserData) => void): void {
    const account = this.accountByUserId.get(userId);
    if (account) account.update((document) => change(document.user));
    else
      this.shared.update((document) => {
        const user = document.users[userId] ?? { library: [] };
        document.users[userId] = user;
        change(user);
      });
  }

  // --- Playlists ---------------------------------------------------------------------------------------

  /** /me/playlists: owned and followed playlist ids, newest first. */
  libraryOf(userId: string): readonly string[] {
    return this.userData(userId)?.library ?? [];
  }

  playlist(id: string): StoredPlaylist | undefined {
    return this.playlists.get(id) ?? this.buildTemplate(id);
  }

  private buildTemplate(id: string): StoredPlaylist | undefined {
    const key = this.templates.get(id);
    const document = key === undefined ? undefined : this.accounts.get(key);
    if (!document) return undefined;
    const { account, templates } = document.value;
    const demo = accountLibraries(this.catalog, account.seed).spotify.find(
      (candidate) => candidate.key === templates[id],
    );
    if (!demo) return undefined;
    const playlist = demoPlaylist(demo, id, account.userId, this.playable);
    this.playlists.set(id, playlist);
    this.templates.delete(id);
    return playlist;
  }

  /** Applies a change to a playlist and writes it (its own document); undefined when there is none. */
  changePlaylist<R>(id: string, change: (playlist: StoredPlaylist) => R): R | undefined {
    const playlist = this.playlist(id);
    if (!playlist) return undefined;
    const result = change(playlist);
    this.savePlaylist(playlist);
    return result;
  }

  /** A new playlist, on top of its owner's library. */
  addPlaylist(playlist: StoredPlaylist): void {
    this.playlists.set(playlist.id, playlist);
    this.savePlaylist(playlist);
    this.changeUserData(playlist.ownerId, (user) => {
      user.library = [playlist.id, ...user.library];
    });
  }

  private savePlaylist(playlist: StoredPlaylist): void {
    const path = documentPath(this.folder('playlists'), playlist.id);
    if (path) writeJsonFile(path, playlist);
  }

  // --- Liked Songs and saved albums --------------------------------------------------------------------

  /**
   * A user's Liked Songs and saved albums, newest first: what the API changed, else the demo library's
   * (the shared demo listener's from the catalog, a sandbox account's from its seed).
   */
  saved(userId: string): SavedLibrary {
    return this.userData(userId)?.saved ?? this.demoSaved(userId);
  }

  changeSaved(userId: string, change: (saved: SavedLibrary) => void): void {
    const current = this.saved(userId);
    this.changeUserData(userId, (user) => {
      user.saved ??= structuredClone(current);
      change(user.saved);
    });
  }

  private demoSaved(userId: string): SavedLibrary {
    const seed = this.accountByUserId.get(userId)?.value.account.seed;
    const demo =
      seed !== undefined
        ? accountLibraries(this.catalog, seed).saved?.spotify
        : userId === DEMO_USER.id
          ? this.catalog.demoLibraries.saved?.spotify
          : undefined;
    if (!demo) return { tracks: [], albums: [] };
    return {
      tracks: demo.liked.flatMap((entry) => {
        const id = this.playable(entry.trackKey)?.spotify?.id;
        return id ? [{ id, addedAt: entry.addedAt }] : [];
      }),
      albums: demo.albums.flatMap((entry) => {
        const id = this.albumOf(entry.releaseKey);
        return id ? [{ id, addedAt: entry.addedAt }] : [];
      }),
    };
  }

  // --- Codes, tokens and web sessions ------------------------------------------------------------------

  credential<K extends CredentialKind>(kind: K, key: string): Credentials[K][string] | undefined {
    const document = this.credentialIndex.get(kind)?.get(key);
    return document?.value[kind][key] as Credentials[K][string] | undefined;
  }

  /**
   * Changes the credentials of `userId`'s document ('' for app tokens: the shared one) in one write, and
   * keeps the indexes in step with what was added and removed.
   */
  changeCredentials<R>(userId: string, change: (credentials: Credentials) => R): R {
    const document = this.documentOfUser(userId);
    const before = CREDENTIAL_KINDS.map((kind) => Object.keys(document.value[kind]));
    const result = (document as StateFile<Credentials>).update(change);
    CREDENTIAL_KINDS.forEach((kind, index) => {
      const current = document.value[kind];
      const indexOfKind = this.credentialIndex.get(kind);
      for (const key of before[index] ?? []) if (!(key in current)) indexOfKind?.delete(key);
      for (const key of Object.keys(current)) indexOfKind?.set(key, document);
    });
    return result;
  }

  /** Removes a code or token wherever it lives. */
  deleteCredential(kind: CredentialKind, key: string): void {
    const document = this.credentialIndex.get(kind)?.get(key);
    if (!document) return;
    (document as StateFile<Credentials>).update((credentials) => {
      delete credentials[kind][key];
    });
    this.credentialIndex.get(kind)?.delete(key);
  }

  private indexCredentials(document: Document): void {
    for (const kind of CREDENTIAL_KINDS)
      for (const key of Object.keys(document.value[kind])) this.credentialIndex.get(kind)?.set(key, document);
  }

  /**
   * What agreeing on the consent page leaves, in one write of the user's document: the authorization code
   * for the app, and a web session for this browser (its cookie value is returned).
   */
  signIn(code: string, record: AuthorizationCode): { cookie: string; session: WebSession } {
    const now = this.now();
    const cookie = randomToken();
    const session: WebSession = {
      userId: record.userId,
      formToken: randomToken(),
      expiresAt: now + WEB_SESSION_MS,
    };
    this.changeCredentials(record.userId, (credentials) => {
      // Codes nobody exchanged and ended sessions would pile up.
      for (const [stale, old] of Object.entries(credentials.codes))
        if (now - old.issuedAt > CODE_LIFETIME_MS) delete credentials.codes[stale];
      for (const [hash, old] of Object.entries(credentials.webSessions))
        if (old.expiresAt <= now) delete credentials.webSessions[hash];
      credentials.codes[code] = record;
      credentials.webSessions[hashCookie(cookie)] = session;
    });
    return { cookie, session };
  }

  webSession(cookie: string | undefined): WebSession | undefined {
    if (!cookie) return undefined;
    const session = this.credential('webSessions', hashCookie(cookie));
    return session && session.expiresAt > this.now() ? session : undefined;
  }
}

const hashCookie = (cookie: string) => createHash('sha256').update(cookie).digest('base64url');
