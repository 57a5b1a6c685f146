import type { LoginRequest, RegisterRequest, SessionUser } from '../../shared/api/auth';
import type { ServiceId } from '../../shared/services';
import type { AppDeps } from '../app-context';
import type { Database } from '../db/client';
import { readCacheOf } from '../db/read-cache';
import { conflict, unauthorized } from '../domain-errors';
import { createMailer } from '../mail/mailer';
import { enforceRateLimit, HOUR_MS, takeRateLimit, tooManyRequests } from '../security/rate-limit';
import {
  connectedServiceRows,
  findAccountByUsername,
  findAccountTaking,
  insertAccount,
} from './account-store';
import { clearFailures, recordFailure, retryAfterSeconds } from './login-throttle';
import { hashPassword, timingSafeDummyHash, verifyPassword } from './passwords';

const INVALID_CREDENTIALS = 'Invalid username or password.';

/** Signing up and signing in, with sign-up rate limits and sign-in throttling (decision 0011). */
export function createAccounts(deps: AppDeps) {
  const { db, config } = deps;
  const throttle = {
    maxFailures: config.LOGIN_MAX_FAILURES,
    addressMaxFailures: config.LOGIN_ADDRESS_MAX_FAILURES,
    windowMs: config.LOGIN_THROTTLE_WINDOW_MINUTES * 60_000,
  };
  const mailer = createMailer(config, db);
  // Each new account costs an argon2 hash and a row: a handful per address and hour is plenty.
  const signups = {
    bucket: 'signup',
    limit: config.SIGNUP_LIMIT_PER_HOUR,
    windowMs: HOUR_MS,
    message: 'Too many new accounts from your network.',
  };
  // The owner hears about a storm of failures once per window, not once per failure.
  const failureAlert = { bucket: 'login-alert', limit: 1, windowMs: throttle.windowMs, message: '' };

  const alertOwner = async (user: { id: string; email: string; username: string }) => {
    if ((await takeRateLimit(db, failureAlert, user.id)) !== null) return;
    await mailer.send({
      to: user.email,
      subject: 'Many failed sign-ins to your Crossfade account',
      text: [
        `Hello ${user.username},`,
        '',
        `Someone has typed a wrong password for your Crossfade account at least ${config.LOGIN_ALERT_FAILURES} times`,
        `in the last ${config.LOGIN_THROTTLE_WINDOW_MINUTES} minutes. Your account is not locked: you can still sign in`,
        'as usual. If this was not you, choose a long password that you use nowhere else.',
      ].join('\n'),
      senderId: user.id,
    });
  };

  return {
    async register(input: RegisterRequest, clientAddress: string): Promise<SessionUser> {
      await enforceRateLimit(db, signups, clientAddress);
      const taken = await findAccountTaking(db, input.username, input.email);
      if (taken)
        throw conflictFor(
          taken.username.toLowerCase() === input.username.toLowerCase() ? 'username' : 'email',
        );
      const passwordHash = await hashPassword(input.password);
      try {
        return await insertAccount(db, { username: input.username, email: input.email, passwordHash });
      } catch (error) {
        // Two registrations racing for one name: the unique index decides, the loser gets the same 409.
        const constraint = uniqueViolation(error);
        if (constraint) throw conflictFor(constraint.includes('email') ? 'email' : 'username');
        throw error;
      }
    },

    async signIn(input: LoginRequest, clientAddress: string): Promise<SessionUser> {
      const usernameKey = input.username.toLowerCase();
      const wait = await retryAfterSeconds(db, usernameKey, clientAddress, throttle);
      if (wait !== null) throw tooManyRequests('Too many failed sign-in attempts.', wait);
      const row = await findAccountByUsername(db, usernameKey);
      const valid = await verifyPassword(row?.passwordHash ?? (await timingSafeDummyHash()), input.password);
      if (!row || !valid) {
        const failures = await recordFailure(db, usernameKey, clientAddress, throttle);
        if (row && failures >= config.LOGIN_ALERT_FAILURES) {
          // A mail server that is down must not change the answer to a sign-in.
          await alertOwner(row).catch((error: unknown) =>
            deps.logger.warn({ kind: (error as Error)?.name }, 'could not send the failed sign-ins alert'),
          );
        }
        throw unauthorized(INVALID_CREDENTIALS);
      }
      await clearFailures(db, usernameKey, clientAddress);
      return { id: row.id, username: row.username, email: row.email, plan: row.plan };
    },
  };
}

/** The services a person has connected (reused for a moment: read-cache.ts). */
export async function connectedServices(db: Database, userId: string): Promise<ServiceId[]> {
  const cache = readCacheOf(db);
  const cached = cache?.connected(userId);
  if (cached) return cached;
  const readAt = cache?.generation ?? 0;
  const services = await connectedServiceRows(db, userId);
  cache?.storeConnected(userId, services, readAt);
  return services;
}

function conflictFor(field: 'username' | 'email') {
  return conflict(
    field === 'username'
      ? 'That username is already taken.'
      : 'An account with that email address already exists.',
  );
}

/** The violated constraint's name when `error` is a unique violation (PostgreSQL code 23505). */
function uniqueViolation(error: unknown): string | null {
  const candidates = [error, (error as { cause?: unknown })?.cause];
  for (const candidate of candidates) {
    if (candidate && typeof candidate === 'object' && (candidate as { code?: string }).code === '23505') {
      return String(
        (candidate as { constraint?: string }).constraint ??
          (candidate as { message?: string }).message ??
          '',
      );
    }
  }
  return null;
}
