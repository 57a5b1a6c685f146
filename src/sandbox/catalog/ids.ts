import { hash128 } from './random';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Service ids derived from a stable key, so the same catalog always exposes the same ids (bookmarked URLs
 * and saved state files keep working across restarts). `taken` guarantees uniqueness: on a collision the
 * key is rehashed with an attempt counter.
 */
export function spotifyIdFor(key: string, taken: Set<string>): string {
  for (let attempt = 0; ; attempt++) {
    let [a = 0, b = 0, c = 0, d = 0] = hash128(`spotify:${key}:${attempt}`);
    let id = '';
    // xorshift128 over the hash: 22 base62 digits (about 131 bits) from one hash call.
    for (let i = 0; i < 22; i++) {
      let t = a ^ (a << 11);
      a = b;
      b = c;
      c = d;
      d = (d ^ (d >>> 19) ^ (t ^ (t >>> 8))) >>> 0;
      t = d % 62;
      id += BASE62[t];
    }
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

/** Apple catalog song ids are 9-10 digit numbers. */
export function appleIdFor(key: string, taken: Set<string>): string {
  for (let attempt = 0; ; attempt++) {
    const [a = 0, b = 0] = hash128(`apple:${key}:${attempt}`);
    const value = 100_000_000 + ((a * 4096 + (b % 4096)) % 1_900_000_000);
    const id = String(value);
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

/** Deterministic integer in [0, modulo) from any string: for choices that must not depend on PRNG order. */
export function hashInt(text: string, modulo: number): number {
  const [a = 0] = hash128(text);
  return a % modulo;
}

/** Deterministic float in [0, 1) from a string. */
export function hashFloat(text: string): number {
  const [a = 0] = hash128(text);
  return a / 4294967296;
}

/**
 * ISRCs: CC-XXX-YY-NNNNN. Unique per recording: the serial counts up per (country, registrant, year) prefix.
 */
export class IsrcIssuer {
  private readonly serials = new Map<string, number>();

  issue(country: string, registrant: string, year: number): string {
    const prefix = `${country}${registrant}${String(year % 100).padStart(2, '0')}`;
    const serial = (this.serials.get(prefix) ?? 0) + 1;
    this.serials.set(prefix, serial);
    if (serial > 99_999) throw new Error(`ISRC serials exhausted for ${prefix}`);
    return `${prefix}${String(serial).padStart(5, '0')}`;
  }
}
