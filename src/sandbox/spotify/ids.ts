import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A stable 22-character base62 id (Spotify's id shape) derived from a seed, so ids survive restarts. */
export function base62Id(seed: string): string {
  const digest = createHash('sha256').update(seed).digest();
  let id = '';
  for (let i = 0; i < 22; i++) id += BASE62[(digest[i] ?? 0) % 62];
  return id;
}

export function randomBase62Id(): string {
  return base62Id(randomBytes(16).toString('hex'));
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Base64Url(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

export const isBase62Id = (value: string): boolean => /^[A-Za-z0-9]{22}$/.test(value);
