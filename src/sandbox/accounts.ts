import { buildDemoLibraries } from './catalog/demo-library';
import { hash128, Rng } from './catalog/random';
import type { Catalog } from './catalog/types';

/**
 * Sandbox accounts, one per person. The app passes `sandbox_account=<key>` (a digest of its own user id)
 * through the emulators' consent pages; each key gets its own Spotify user and Apple library, with a demo
 * library, a name and a country all derived from the key, so the same person finds the same music on both
 * services and two people never share a library.
 */

/** What the app may pass: lower-case letters and digits (a hex digest), 8–40 characters. */
export const SANDBOX_ACCOUNT_KEY = /^[a-z0-9]{8,40}$/;

/** Countries (Spotify markets; Apple storefronts in lower case) the per-person accounts live in. */
export const SANDBOX_COUNTRIES = ['US', 'DE', 'JP'] as const;
export type SandboxCountry = (typeof SANDBOX_COUNTRIES)[number];

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

export interface SandboxAccount {
  key: string;
  /** The Spotify user id (lower-case, as Spotify's are). */
  spotifyUserId: string;
  displayName: string;
  country: SandboxCountry;
}

export function isSandboxAccountKey(value: unknown): value is string {
  return typeof value === 'string' && SANDBOX_ACCOUNT_KEY.test(value);
}

export function sandboxAccount(key: string): SandboxAccount {
  const [a = 0, b = 0, c = 0] = hash128(`sandbox-account:${key}`);
  return {
    key,
    spotifyUserId: `listener-${key.slice(0, 16)}`,
    displayName: `${FIRST_NAMES[a % FIRST_NAMES.length]} ${LAST_NAMES[b % LAST_NAMES.length]}`,
    country: SANDBOX_COUNTRIES[c % SANDBOX_COUNTRIES.length] ?? 'US',
  };
}

const libraries = new WeakMap<Catalog, Map<string, Catalog['demoLibraries']>>();

/** The account's own demo library (both services' views), built once per catalog and key. */
export function accountLibraries(catalog: Catalog, key: string): Catalog['demoLibraries'] {
  let byKey = libraries.get(catalog);
  if (!byKey) {
    byKey = new Map();
    libraries.set(catalog, byKey);
  }
  let built = byKey.get(key);
  if (!built) {
    built = buildDemoLibraries(catalog, new Rng(`sandbox-account:${key}:library`));
    byKey.set(key, built);
  }
  return built;
}
