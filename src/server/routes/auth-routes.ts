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
import { connectedServices, createAccounts } from '../auth/accounts';
import { createSession, revokeSession } from '../auth/sessions';
import { setAppCookie } from '../http/cookies';
import { readJson } from '../http/validation';

/** POST /api/auth/register, /login, /logout and GET /api/auth/status (spec sections 2, 5, 7). */
export function authRoutes(deps: AppDeps) {
  const { db, config } = deps;
  const accounts = createAccounts(deps);

  const startSession = async (c: Context<AppEnv>, user: SessionUser) => {
    const previous = c.get('sessionToken');
    if (previous) await revokeSession(db, previous);
    const session = await createSession(db, user.id, config.SESSION_TTL_DAYS);
    setAppCookie(c, config, SESSION_COOKIE, session.token, { httpOnly: true, expires: session.expiresAt });
  };

  return new Hono<AppEnv>()
    .post('/register', async (c) => {
      const input = await readJson(c, registerRequestSchema);
      const user = await accounts.register(input, c.get('clientNetwork'));
      await startSession(c, user);
      return c.json({ user }, 201);
    })
    .post('/login', async (c) => {
      const input = await readJson(c, loginRequestSchema);
      const user = await accounts.signIn(input, c.get('clientNetwork'));
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
      const connected = user ? await connectedServices(db, user.id) : [];
      const status: AuthStatus = {
        authenticated: user !== null,
        isAuthenticated: user !== null,
        spotifyConnected: connected.includes('spotify'),
        appleConnected: connected.includes('apple'),
        user,
      };
      return c.json(status);
    });
}
