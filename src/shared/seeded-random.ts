/**
 * The project's one seeded pseudo-random generator (sfc32, seeded through the cyrb128 hash): the same seed
 * gives the same sequence everywhere, for the sandbox's catalogs and accounts, reproducible layouts and test
 * data; never for anything secret.
 */

/** cyrb128: a fast 128-bit string hash, used both to seed the PRNG and to derive service ids from keys. */
export function hash128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** sfc32 PRNG: small state, good statistical quality, and deterministic across platforms. */
function sfc32(seed: [number, number, number, number]): () => number {
  let [a, b, c, d] = seed;
  return () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

/** Numbers in [0, 1), the same sequence for the same text seed. */
export function seededRandomFromText(seed: string): () => number {
  const next = sfc32(hash128(seed));
  // The first outputs of sfc32 correlate with the seed words; discard a few.
  for (let i = 0; i < 12; i++) next();
  return next;
}

/** Numbers in [0, 1) from a numeric seed (reproducible layouts). */
export const seededRandom = (seed: number): (() => number) => seededRandomFromText(`seed:${seed}`);
