import { createHmac, randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { buildDemoLibraries } from './catalog/demo-library';
import { hash128, Rng } from './catalog/random';
import type { Catalog } from './catalog/types';

/**
 * Sandbox accounts, one per person (decision 0022). The app names a person's emulator account with an
 * HMAC of its own user id under the sandbox secret (`sandboxAccountKey`), and hands it to the emulators'
 * consent pages inside a signed claim (`signAccountClaim`) bound to the client, the redirect address, the
 * OAuth state and (Spotify) the PKCE challenge, valid for ten minutes. The emulators verify the claim with
 * the same secret: an edited, guessed or replayed-elsewhere key is refused, and the key itself (64 hex
 * characters, unguessable without the secret) is the account's id. Nothing public is derived from it:
 * Spotify user ids are random and stored with the account.
 *
 * What an account starts with (a name, a country and a demo library) comes from its seed: the key itself,
 * or a fixed scenario name when the app signs one in (tests only, `SANDBOX_TEST_SCENARIOS`), so every
 * test gets the same library each run while its account stays its own.
 */

/** An account key: HMAC-SHA256 in lower-case hex. */
export const SANDBOX_ACCOUNT_KEY = /^[0-9a-f]{64}$/;
/** A scenario name a test may ask for: lower-case words joined by hyphens. */
export const SANDBOX_SCENARIO = /^[a-z0-9][a-z0-9-]{0,47}$/;
/** How long a consent link stays good: as long as the app keeps the OAuth request it belongs to. */
export const ACCOUNT_CLAIM_LIFETIME_S = 600;

/** Countries (Spotify markets; Apple storefronts in lower case) the per-person accounts live in. */
export const SANDBOX_COUNTRIES = ['US', 'DE', 'JP'] as const;
export type SandboxCountry = (typeof SANDBOX_COUNTRIES)[number];

export const isSandboxCountry = (value: unknown): value is SandboxCountry =>
  (SANDBOX_COUNTRIES as readonly unknown[]).includes(value);

const FIRST_NAMES = [
  'Alex',
  'Robin',
  'Kim',
  'Noa',
  'Jules',
  'Sasha',
  'Mika',
  'Ari',
  'Lou',
  'Yuki',
  'Lena',
  'Theo',
];
const LAST_NAMES = [
  'Berg',
  'Okafor',
  'Tanaka',
  'Moreau',
  'Silva',
  'Novak',
  'Keller',
  'Haddad',
  'Lind',
  'Ito',
];

/** What the app's secret names: the account key of a Crossfade user (the emulators never see the id). */
export function sandboxAccountKey(secret: Uint8Array, userId: string): string {
  return createHmac('sha256', secret).update(`crossfade-sandbox-account:${userId}`).digest('hex');
}

/** The seed an account's name, country and demo library come from. */
export function accountSeed(claim: { account: string; scenario?: string | undefined }): string {
  return claim.scenario ? `scenario:${claim.scenario}` : claim.account;
}

export interface SandboxProfile {
  displayName: string;
  country: SandboxCountry;
}

/** The name and starting country of an account with this seed (the key itself for the cloud drives). */
export function sandboxProfile(seed: string): SandboxProfile {
  const [a = 0, b = 0, c = 0] = hash128(`sandbox-account:${seed}`);
  return {
    displayName: `${FIRST_NAMES[a % FIRST_NAMES.length]} ${LAST_NAMES[b % LAST_NAMES.length]}`,
    country: SANDBOX_COUNTRIES[c % SANDBOX_COUNTRIES.length] ?? 'US',
  };
}

/** A random Spotify user id for a new account (public: it appears as a playlist's owner). */
export function randomListenerId(): string {
  return `listener-${randomBytes(8).toString('hex')}`;
}

// --- Demo libraries, built from the seed (kept for the most recently used accounts) ---------------------

const LIBRARY_CACHE_SIZE = 64;
const libraries = new WeakMap<Catalog, Map<string, Catalog['demoLibraries']>>();

/**
 * Tests only: the scenario whose Spotify Liked Songs hold 100,000 songs (the catalog's songs on Spotify, in
 * catalog order; as many as there are when the catalog holds fewer), for moving a library whose size must
 * not set the memory a move takes (issue 25). The emulators then need a catalog that large
 * (`SANDBOX_CATALOG_TRACKS`). `huge-liked-songs-<n>` holds the first n of them instead (a smaller move of
 * the same songs to compare with).
 */
export const HUGE_LIKED_SONGS_SCENARIO = 'huge-liked-songs';
export const HUGE_LIKED_SONGS = 100_000;

/** How many Liked Songs a huge-library scenario holds; undefined for any other seed. */
function hugeLikedSongsCount(seed: string): number | undefined {
  const prefix = `scenario:${HUGE_LIKED_SONGS_SCENARIO}`;
  if (seed === prefix) return HUGE_LIKED_SONGS;
  const sized = /^-([1-9][0-9]{0,5})$/.exec(seed.slice(prefix.length));
  return seed.startsWith(prefix) && sized ? Math.min(Number(sized[1]), HUGE_LIKED_SONGS) : undefined;
}

function hugeLikedSongs(
  catalog: Catalog,
  seed: string,
  built: Catalog['demoLibraries'],
): Catalog['demoLibraries'] {
  const count = hugeLikedSongsCount(seed);
  if (count === undefined || !built.saved) return built;
  const onSpotify = catalog.tracks.filter((track) => track.spotify !== null).slice(0, count);
  // Newest first, a minute apart: one fixed date per song keeps the library the same every run.
  const newest = Date.parse('2026-01-01T00:00:00Z');
  const liked = onSpotify.map((track, index) => ({
    trackKey: track.key,
    addedAt: new Date(newest - index * 60_000).toISOString(),
  }));
  return { ...built, saved: { ...built.saved, spotify: { ...built.saved.spotify, liked } } };
}

/** The account's demo library (both services' views), the same for the same catalog and seed. */
export function accountLibraries(catalog: Catalog, seed: string): Catalog['demoLibraries'] {
  let bySeed = libraries.get(catalog);
  if (!bySeed) {
    bySeed = new Map();
    libraries.set(catalog, bySeed);
  }
  const cached = bySeed.get(seed);
  if (cached) {
    // Most recently used last, so the oldest is the first to go.
    bySeed.delete(seed);
    bySeed.set(seed, cached);
    return cached;
  }
  const built = hugeLikedSongs(
    catalog,
    seed,
    buildDemoLibraries(catalog, new Rng(`sandbox-account:${seed}:library`)),
  );
  bySeed.set(seed, built);
  if (bySeed.size > LIBRARY_CACHE_SIZE) bySeed.delete(bySeed.keys().next().value ?? '');
  return built;
}

// --- The consent claim -----------------------------------------------------------------------------

/** The emulators whose consent pages take the app's account claim. */
export type SandboxClaimService = 'spotify' | 'apple' | 'google-drive' | 'dropbox';

/** What the app vouches for when it sends a person to a consent page. */
export interface AccountClaim {
  /** The account key (see sandboxAccountKey). */
  account: string;
  /** Tests only: the scenario whose fixed library a new account starts with. */
  scenario?: string | undefined;
  service: SandboxClaimService;
  /** Spotify and the cloud drives: the client the authorization is for. */
  clientId?: string | undefined;
  redirectUri: string;
  state: string;
  /** Spotify and the drives: the PKCE challenge, so a code issued on this claim needs the app's verifier. */
  codeChallenge?: string | undefined;
}

export interface VerifiedAccountClaim extends AccountClaim {
  /** The claim's own id: a consent is given once per claim. */
  id: string;
  expiresAt: number;
}

const claimKey = (secret: Uint8Array) =>
  createHmac('sha256', secret).update('crossfade-sandbox-consent-claim').digest();

/** Signs a claim (HS256 JWT) the consent page will verify; good for ten minutes. */
export async function signAccountClaim(
  secret: Uint8Array,
  claim: AccountClaim,
  now: () => number = Date.now,
): Promise<string> {
  const issuedAt = Math.floor(now() / 1000);
  return new SignJWT({
    acc: claim.account,
    ...(claim.scenario ? { scn: claim.scenario } : {}),
    ...(claim.clientId ? { cid: claim.clientId } : {}),
    ru: claim.redirectUri,
    st: claim.state,
    ...(claim.codeChallenge ? { cc: claim.codeChallenge } : {}),
  })
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience(`sandbox-${claim.service}`)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ACCOUNT_CLAIM_LIFETIME_S)
    .setJti(randomBytes(12).toString('base64url'))
    .sign(claimKey(secret));
}

export type ClaimCheck =
  | { ok: true; claim: VerifiedAccountClaim }
  | { ok: false; reason: 'expired' | 'invalid' | 'elsewhere' };

/**
 * Verifies a claim against the request it arrived with: signed with the secret, not expired, for this
 * service, and issued for this client, redirect address, state and challenge.
 */
export async function verifyAccountClaim(
  secret: Uint8Array,
  token: string,
  expected: Omit<AccountClaim, 'account' | 'scenario'>,
  now: () => number = Date.now,
): Promise<ClaimCheck> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, claimKey(secret), {
      algorithms: ['HS256'],
      audience: `sandbox-${expected.service}`,
      requiredClaims: ['exp', 'jti'],
      currentDate: new Date(now()),
    }));
  } catch (error) {
    return { ok: false, reason: error instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
  }
  const text = (name: string) => (typeof payload[name] === 'string' ? (payload[name] as string) : undefined);
  const account = text('acc') ?? '';
  const scenario = text('scn');
  if (!SANDBOX_ACCOUNT_KEY.test(account) || (scenario !== undefined && !SANDBOX_SCENARIO.test(scenario))) {
    return { ok: false, reason: 'invalid' };
  }
  const boundTo =
    text('cid') === expected.clientId &&
    text('ru') === expected.redirectUri &&
    text('st') === expected.state &&
    text('cc') === expected.codeChallenge;
  if (!boundTo) return { ok: false, reason: 'elsewhere' };
  return {
    ok: true,
    claim: {
      ...expected,
      account,
      ...(scenario ? { scenario } : {}),
      id: text('jti') ?? '',
      expiresAt: ((payload.exp as number) ?? 0) * 1000,
    },
  };
}

/** What the consent pages say when a claim is refused (with 403). */
export const CLAIM_REFUSALS: Record<'expired' | 'invalid' | 'elsewhere' | 'used', string> = {
  expired: 'This sign-in link has expired. Go back to Crossfade and connect again.',
  invalid: 'This sign-in link was changed or was not issued by Crossfade, so it cannot sign you in.',
  elsewhere:
    'This sign-in link was issued for another app or sign-in request. Go back to Crossfade and connect again.',
  used: 'This sign-in link was already used. Go back to Crossfade and connect again.',
};

/**
 * Claims already consented with, until they expire: a consent link signs in once. Kept in memory (a
 * restart forgets them, and ten minutes later they expire anyway).
 */
export class UsedClaims {
  private readonly used = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** True the first time a claim is used; false on a replay. */
  take(claim: VerifiedAccountClaim): boolean {
    const now = this.now();
    for (const [id, expiresAt] of this.used) if (expiresAt <= now) this.used.delete(id);
    if (this.used.has(claim.id)) return false;
    this.used.set(claim.id, claim.expiresAt);
    return true;
  }
}
