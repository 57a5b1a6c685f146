import type { Database } from '../db/client';
import { countUnits, forgetKey, rateLimitWait } from '../security/rate-limit';

/**
 * Slows down password guessing without letting anyone lock the owner out (issue 10). Failed sign-ins are
 * counted per username *and* address pair (`maxFailures`) and per address over all usernames
 * (`addressMaxFailures`, a global cap so one address cannot try many accounts). Failures from one address
 * never block the same username from another address. The counts are the one rate limiter's rolling
 * windows (security/rate-limit.ts): in the database, so every app process shares them, and stored under
 * hashed keys, never as usernames or addresses. Many failures on one account, from anywhere, e-mail its
 * owner instead (see accounts.ts).
 */
export interface ThrottleSettings {
  maxFailures: number;
  addressMaxFailures: number;
  windowMs: number;
}

const MESSAGE = 'Too many failed sign-in attempts.';
const rules = (settings: ThrottleSettings) => ({
  pair: { bucket: 'login-pair', limit: settings.maxFailures, windowMs: settings.windowMs, message: MESSAGE },
  address: {
    bucket: 'login-address',
    limit: settings.addressMaxFailures,
    windowMs: settings.windowMs,
    message: MESSAGE,
  },
  // Counted only (the owner's alert), never a reason to refuse.
  username: { bucket: 'login-username', limit: 0, windowMs: settings.windowMs, message: '' },
});
const pairKey = (usernameKey: string, clientAddress: string) => `${usernameKey}\n${clientAddress}`;

export async function retryAfterSeconds(
  db: Database,
  usernameKey: string,
  clientAddress: string,
  settings: ThrottleSettings,
): Promise<number | null> {
  const { pair, address } = rules(settings);
  return (
    (await rateLimitWait(db, pair, pairKey(usernameKey, clientAddress))) ??
    (await rateLimitWait(db, address, clientAddress))
  );
}

/** Records a failure; returns how many failures the username has in the window, from any address. */
export async function recordFailure(
  db: Database,
  usernameKey: string,
  clientAddress: string,
  settings: ThrottleSettings,
): Promise<number> {
  const { pair, address, username } = rules(settings);
  await countUnits(db, pair, pairKey(usernameKey, clientAddress));
  await countUnits(db, address, clientAddress);
  return countUnits(db, username, usernameKey);
}

/** A successful sign-in forgets that pair's failures (other addresses' stay counted). */
export async function clearFailures(db: Database, usernameKey: string, clientAddress: string) {
  await forgetKey(db, 'login-pair', pairKey(usernameKey, clientAddress));
}

/** A deleted account's failure count goes with it (the pairs' counts, under hashed keys, run out). */
export async function forgetUsername(db: Database, usernameKey: string) {
  await forgetKey(db, 'login-username', usernameKey);
}
