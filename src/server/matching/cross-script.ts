import type { PreparedTrack } from './prepare';
import { scriptFreeKey, scriptHalves } from './scripts';
import { similarity } from './similarity';

/**
 * Title, artist and album similarity in script-independent form (see scripts.ts), for a pair where either
 * side writes a name in another script than Latin. Each name also counts by its halves when it is written
 * in two scripts at once, since the other storefront often shows one half only.
 */

interface ScriptFreeForms {
  titles: readonly string[];
  /** Per credited artist, the skeletons it may be known by. */
  artists: readonly (readonly string[])[];
  album: string;
}

const formsCache = new WeakMap<PreparedTrack, ScriptFreeForms>();

/**
 * The name's key, and for a title its core's (without the segments nobody recognised: "Gangnam Style
 * (강남스타일)" is also "Gangnam Style") and the core's halves when written in two scripts. Never the halves
 * of the whole title: a shared subtitle in Latin letters ("《Drama》 LINE TV") says nothing.
 */
function alternatives(text: string, halvesOf = text): string[] {
  const keys = new Set<string>();
  for (const form of [text, halvesOf, ...scriptHalves(halvesOf)]) {
    const key = scriptFreeKey(form);
    if (key !== '') keys.add(key);
  }
  return [...keys];
}

function formsOf(track: PreparedTrack): ScriptFreeForms {
  const cached = formsCache.get(track);
  if (cached) return cached;
  const forms: ScriptFreeForms = {
    titles: alternatives(track.title, track.coreKey),
    artists: track.artists.map((artist) => alternatives(artist)).filter((keys) => keys.length > 0),
    album: track.album === '' ? '' : scriptFreeKey(track.album),
  };
  formsCache.set(track, forms);
  return forms;
}

function best(a: readonly string[], b: readonly string[]): number {
  let top = 0;
  for (const x of a) {
    for (const y of b) {
      const value = x === y ? 1 : similarity(x, y);
      if (value > top) top = value;
    }
  }
  return top;
}

const COVERED = 0.85;

/** The artist sets compared as the native comparison does: the primary artist first, then coverage. */
function artistSetSimilarity(a: ScriptFreeForms['artists'], b: ScriptFreeForms['artists']): number {
  const [aPrimary] = a;
  const [bPrimary] = b;
  if (!aPrimary || !bPrimary) return Number.NaN;
  let primary = 0;
  let covered = 0;
  for (const keys of b) primary = Math.max(primary, best(aPrimary, keys));
  for (const keys of a) primary = Math.max(primary, best(bPrimary, keys));
  for (const keys of a) if (b.some((other) => best(keys, other) >= COVERED)) covered++;
  for (const keys of b) if (a.some((other) => best(keys, other) >= COVERED)) covered++;
  return Math.min(1, 0.75 * primary + 0.25 * (covered / (a.length + b.length)));
}

export interface CrossScriptSimilarity {
  title: number;
  /** NaN when either side credits nobody. */
  artist: number;
  /** NaN when either side has no album. */
  album: number;
}

export function compareAcrossScripts(source: PreparedTrack, candidate: PreparedTrack): CrossScriptSimilarity {
  const a = formsOf(source);
  const b = formsOf(candidate);
  return {
    title: best(a.titles, b.titles),
    artist: artistSetSimilarity(a.artists, b.artists),
    album: a.album === '' || b.album === '' ? Number.NaN : similarity(a.album, b.album),
  };
}

/** How well two titles' cores agree in script-free form, halves included ("Дискотека / Discoteque"). */
export function coresAgreeAcrossScripts(source: PreparedTrack, candidate: PreparedTrack): number {
  return best(alternatives(source.coreKey), alternatives(candidate.coreKey));
}
