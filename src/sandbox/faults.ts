import type { MiddlewareHandler } from 'hono';
import { seededRandomFromText } from '../shared/seeded-random';

/**
 * Faults on demand (`SANDBOX_FAULTS`): the real services are slower to show writes and fail now and then,
 * sometimes after a write was applied. The emulators are kind by default; these switches make them as hard
 * as reality so the transfer job's exactly-once logic can be proven against them.
 */
export interface SandboxFaults {
  /** Apple: appended tracks (and created playlists) become visible to reads this many ms later. */
  appleWriteLagMs: number;
  /** Share of API calls answered 500/502/503 with the service's error body, nothing done. */
  errorRate: number;
  /** Share of successful writes (POST/PUT/DELETE) that are applied and then answered 5xx. */
  errorAfterWrite: number;
  /** Share of API calls that get no answer for 30 s (then a 503; nothing done). */
  timeoutRate: number;
  /** 1: the Spotify app owner has no Premium, so development mode answers every call 403. */
  spotifyOwnerWithoutPremium: number;
  /** On each service, this many tracks (the first added) are silently left out of adds answered as done. */
  droppedAdds: number;
  /**
   * When set, the faults are drawn from a generator seeded with it (one per service), so the same calls in
   * the same order meet the same faults: a test that finds a bug can be run again into the same bug.
   */
  seed: number | null;
}

export const NO_FAULTS: SandboxFaults = {
  appleWriteLagMs: 0,
  errorRate: 0,
  errorAfterWrite: 0,
  timeoutRate: 0,
  spotifyOwnerWithoutPremium: 0,
  droppedAdds: 0,
  seed: null,
};

const KEYS = {
  'apple-write-lag-ms': 'appleWriteLagMs',
  'error-rate': 'errorRate',
  'error-after-write': 'errorAfterWrite',
  'timeout-rate': 'timeoutRate',
  'spotify-owner-without-premium': 'spotifyOwnerWithoutPremium',
  'dropped-adds': 'droppedAdds',
  seed: 'seed',
} as const satisfies Record<string, keyof SandboxFaults>;

/** Parses `apple-write-lag-ms=3000,error-rate=0.05`; throws an Error naming the bad item. */
export function parseSandboxFaults(text: string | undefined): SandboxFaults {
  const faults = { ...NO_FAULTS };
  for (const item of (text ?? '').split(',').map((part) => part.trim())) {
    if (item === '') continue;
    const [name = '', value = '', ...rest] = item.split('=').map((part) => part.trim());
    const key = KEYS[name as keyof typeof KEYS];
    if (!key) {
      throw new Error(`unknown fault "${name}" (known: ${Object.keys(KEYS).join(', ')})`);
    }
    const number = Number(value);
    if (rest.length > 0 || value === '' || !Number.isFinite(number) || number < 0) {
      throw new Error(`"${item}" needs a non-negative number`);
    }
    if (key === 'seed') {
      if (!Number.isSafeInteger(number)) throw new Error(`"${item}": the seed is a whole number`);
    } else if (key === 'droppedAdds') {
      if (!Number.isInteger(number) || number > 100_000) {
        throw new Error(`"${item}": a whole number of tracks up to 100000`);
      }
    } else if (key === 'appleWriteLagMs') {
      if (!Number.isInteger(number) || number > 600_000) {
        throw new Error(`"${item}": milliseconds must be a whole number up to 600000`);
      }
    } else if (number > 1) throw new Error(`"${item}": a rate is between 0 and 1`);
    faults[key] = number;
  }
  return faults;
}

/**
 * The `dropped-adds=N` fault: the first N tracks added to playlists or saved to the library (either
 * service) are left out while
 * the add is still answered as done, as users of other tools report of big playlists. Returns the tracks
 * to store; each emulator counts its own.
 */
export function createAddDropper(count: number): <T>(tracks: T[]) => T[] {
  let left = count;
  return (tracks) => {
    if (left <= 0 || tracks.length === 0) return tracks;
    const dropped = Math.min(left, tracks.length);
    left -= dropped;
    // The first tracks of the request are dropped, so a playlist misses tracks in the middle.
    return tracks.slice(dropped);
  };
}

export const TIMEOUT_FAULT_MS = 30_000;
const SERVER_ERRORS = [500, 502, 503] as const;
type ServerError = (typeof SERVER_ERRORS)[number];

/** The service's own error body for a 5xx. */
function errorResponse(service: 'spotify' | 'apple', status: ServerError): Response {
  const body =
    service === 'spotify'
      ? {
          error: {
            status,
            message:
              status === 503 ? 'Service unavailable' : status === 502 ? 'Bad gateway.' : 'Server error.',
          },
        }
      : {
          errors: [
            {
              id: crypto.randomUUID().toUpperCase(),
              title: status === 503 ? 'Service Unavailable' : 'Upstream Service Error',
              detail: 'The sandbox was asked to fail this request (SANDBOX_FAULTS).',
              status: String(status),
              code: status === 503 ? '50301' : '50001',
            },
          ],
        };
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/**
 * Middleware in front of a service's API routes that injects the configured faults. `random` and `sleep`
 * are injectable so tests can force each fault; by default the draws are seeded when `seed` is set.
 */
export function faultInjection(
  service: 'spotify' | 'apple',
  faults: SandboxFaults,
  random: () => number = faults.seed === null
    ? Math.random
    : seededRandomFromText(`sandbox-faults:${faults.seed}:${service}`),
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): MiddlewareHandler {
  const pick = () => SERVER_ERRORS[Math.floor(random() * SERVER_ERRORS.length)] ?? 500;
  return async (c, next) => {
    if (faults.timeoutRate > 0 && random() < faults.timeoutRate) {
      await sleep(TIMEOUT_FAULT_MS);
      return errorResponse(service, 503);
    }
    if (faults.errorRate > 0 && random() < faults.errorRate) return errorResponse(service, pick());
    await next();
    const write = c.req.method === 'POST' || c.req.method === 'PUT' || c.req.method === 'DELETE';
    if (write && c.res.ok && faults.errorAfterWrite > 0 && random() < faults.errorAfterWrite) {
      c.res = errorResponse(service, pick());
    }
  };
}
