import { eq, sql } from 'drizzle-orm';
import { type Context, Hono } from 'hono';
import { deleteCookie } from 'hono/cookie';
import {
  type AuthStatus,
  loginRequestSchema,
  registerRequestSchema,
  SESSION_COOKIE,
  type SessionUser,
} from '../../shared/api/auth';
import type { AppDeps, AppEnv } from '../app-context';
import { clearFailures, recordFailure, retryAfterSeconds } from '../auth/login-throttle';
import { hashPassword, timingSafeDummyHash, verifyPassword } from '../auth/passwords';
import { createSession, revokeSession } from '../auth/sessions';
import { providerConnections, users } from '../db/schema';
import { setAppCookie } from '../http/cookies';
import { ApiError, conflict, unauthorized } from '../http/errors';
import { readJson } from '../http/validation';

const INVALID_CREDENTIALS = 'Invalid username or password.';

/** POST /api/auth/register, /login, /logout and GET /api/auth/status (spec sections 2, 5, 7). */
export function authRoutes(deps: AppDeps) {
  const { db, config } = deps;
  const throttle = {
    maxFailures: config.LOGIN_MAX_FAILURES,
    windowMs: config.LOGIN_THROTTLE_WINDOW_MINUTES * 60_000,
  };

  const startSession = async (c: Context<AppEnv>, user: SessionUser) => {
    const previous = c.get('sessionToken');
    if (previous) await revokeSession(db, previous);
    const session = await createSession(db, user.id, config.SESSION_TTL_DAYS);
    setAppCookie(c, config, SESSION_COOKIE, session.token, { httpOnly: true, expires: session.expiresAt });
  };

  return new Hono<AppEnv>()
    .post('/register', async (c) => {
      const input = await readJson(c, registerRequestSchema);
      const [taken] = await db
        .select({ username: users.username, email: users.email })
        .from(users)
        .where(
          sql`lower(${users.username}) = lower(${input.username}) or lower(${users.email}) = lower(${input.email})`,
        )
        .limit(1);
      if (taken)
        throw conflictFor(
          taken.username.toLowerCase() === input.username.toLowerCase() ? 'username' : 'email',
        );

      const passwordHash = await hashPassword(input.password);
      let user: SessionUser;
      try {
        const [row] = await db
          .insert(users)
          .values({ username: input.username, email: input.email, passwordHash })
          .returning({ id: users.id, username: users.username, email: users.email, plan: users.plan });
        if (!row) throw new Error('insert returned no row');
        user = row;
      } catch (error) {
        // Two registrations racing for one name: the unique index decides, the loser gets the same 409.
        const constraint = uniqueViolation(error);
        if (constraint) throw conflictFor(constraint.includes('email') ? 'email' : 'username');
        throw error;
      }
      await startSession(c, user);
      return c.json({ user }, 201);
    })
    .post('/login', async (c) => {
      const input = await readJson(c, loginRequestSchema);
      const usernameKey = input.username.toLowerCase();
      const clientAddress = c.get('clientAddress');
      const wait = await retryAfterSeconds(db, usernameKey, clientAddress, throttle);
      if (wait !== null) {
        const minutes = Math.ceil(wait / 60);
        throw new ApiError(
          429,
          `Too many failed sign-in attempts. Try again in ${wait < 90 ? `${wait} seconds` : `${minutes} minutes`}.`,
          { 'Retry-After': String(wait) },
        );
      }

      const [row] = await db
        .select()
        .from(users)
        .where(sql`lower(${users.username}) = ${usernameKey}`)
        .limit(1);
      const valid = await verifyPassword(row?.passwordHash ?? (await timingSafeDummyHash()), input.password);
      if (!row || !valid) {
        await recordFailure(db, usernameKey, clientAddress, throttle.windowMs);
        throw unauthorized(INVALID_CREDENTIALS);
      }
      await clearFailures(db, usernameKey);
      const user: SessionUser = { id: row.id, username: row.username, email: row.email, plan: row.plan };
      await startSession(c, user);
      return c.json({ user });
    })
    .post('/logout', async (c) => {
      const token = c.get('sessionToken');
      if (token) await revokeSession(db, token);
      deleteCookie(c, SESSION_COOKIE, { path: '/' });
      return c.body(null, 204);
    })
    .get('/status', async (c) => {
      const user = c.get('user');
      const connected = user
        ? await db
            .select({ service: providerConnections.service })
            .from(providerConnections)
            .where(eq(providerConnections.userId, user.id))
        : [];
      const has = (service: string) => connected.some((row) => row.service === service);
      const status: AuthStatus = {
        authenticated: user !== null,
        isAuthenticated: user !== null,
        spotifyConnected: has('spotify'),
        appleConnected: has('apple'),
        user,
      };
      return c.json(status);
    });
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
