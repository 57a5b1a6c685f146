/**
 * Seeded randomness for the catalog. Everything the sandbox invents must be reproducible from a seed so that
 * a failing test or a benchmark run can be replayed exactly; Math.random would make every run different.
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

export class Rng {
  private readonly next: () => number;

  constructor(seed: string) {
    this.next = sfc32(hash128(seed));
    // The first outputs of sfc32 correlate with the seed words; discard a few.
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next();
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('Rng.pick called with an empty list');
    return item;
  }

  /** Picks with a bias towards the start of the list (popular artists release more). */
  pickSkewed<T>(items: readonly T[], power = 2): T {
    const item = items[Math.floor(this.next() ** power * items.length)];
    if (item === undefined) throw new Error('Rng.pickSkewed called with an empty list');
    return item;
  }

  /** `count` distinct items in random order (fewer if the list is shorter); partial Fisher-Yates. */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = [...items];
    const take = Math.min(count, copy.length);
    for (let i = 0; i < take; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      const chosen = copy[j] as T;
      copy[j] = copy[i] as T;
      copy[i] = chosen;
    }
    return copy.slice(0, take);
  }

  /** Roughly normal (sum of three uniforms), scaled to mean and spread. */
  normal(mean: number, spread: number): number {
    return mean + (this.next() + this.next() + this.next() - 1.5) * spread;
  }
}
