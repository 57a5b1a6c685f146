import { z } from 'zod';
import { text } from '../text';

/**
 * Account request and response schemas, shared by the server (validation) and the web app (types).
 * Messages mirror the spec's /auth toasts (section 5) so a server-side rejection reads the same as the
 * client-side one.
 */
export const MIN_PASSWORD_LENGTH = 6;
export const MAX_USERNAME_LENGTH = 64;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_PASSWORD_LENGTH = 256;

const requiredText = (field: string, max: number) =>
  text({
    error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be text`),
  }).max(max, `${field} must be at most ${max} characters`);

export const usernameSchema = requiredText('Username', MAX_USERNAME_LENGTH)
  .trim()
  .min(1, 'Username is required')
  .regex(/^[\p{L}\p{N}_.-]+$/u, 'Username may contain only letters, digits, "_", "." and "-"');

export const registerRequestSchema = z.object({
  username: usernameSchema,
  email: requiredText('Email', MAX_EMAIL_LENGTH)
    .trim()
    .min(1, 'Email is required')
    .pipe(z.email('Please enter a valid email address')),
  password: requiredText('Password', MAX_PASSWORD_LENGTH).min(
    MIN_PASSWORD_LENGTH,
    `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`,
  ),
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

export const loginRequestSchema = z.object({
  username: requiredText('Username', MAX_USERNAME_LENGTH)
    .trim()
    .min(1, 'Please enter both username and password'),
  password: requiredText('Password', MAX_PASSWORD_LENGTH).min(1, 'Please enter both username and password'),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const planSchema = z.enum(['free', 'pro', 'vault']);
export type Plan = z.infer<typeof planSchema>;
export const PLAN_LABELS: Record<Plan, string> = { free: 'Free', pro: 'Pro', vault: 'Vault+' };

export const sessionUserSchema = z.object({
  id: text(),
  username: text(),
  email: text(),
  plan: planSchema,
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

/** GET /api/auth/status. `authenticated` and `isAuthenticated` are the same flag under both spec names. */
export const authStatusSchema = z.object({
  authenticated: z.boolean(),
  isAuthenticated: z.boolean(),
  spotifyConnected: z.boolean(),
  appleConnected: z.boolean(),
  user: sessionUserSchema.nullable(),
});
export type AuthStatus = z.infer<typeof authStatusSchema>;

/** Answer of a successful register or login. */
export const authSuccessSchema = z.object({ user: sessionUserSchema });
export type AuthSuccess = z.infer<typeof authSuccessSchema>;

/** Name of the cookie the CSRF token is mirrored in; the web app echoes it in this header. */
export const CSRF_COOKIE = 'cf_csrf';
export const CSRF_HEADER = 'x-csrf-token';
export const SESSION_COOKIE = 'cf_session';
