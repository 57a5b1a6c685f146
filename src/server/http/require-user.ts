import type { Context } from 'hono';
import type { SessionUser } from '../../shared/api/auth';
import type { AppEnv } from '../app-context';
import { unauthorized } from '../domain-errors';

/** The signed-in person, or a 401 telling them to sign in. */
export function requireUser(c: Context<AppEnv>): SessionUser {
  const user = c.get('user');
  if (!user) throw unauthorized();
  return user;
}
