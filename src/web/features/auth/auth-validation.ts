import { MIN_PASSWORD_LENGTH } from '../../../shared/api/auth';
import { isAppPage } from '../../../shared/app-pages';
import { safeRedirectPath } from '../../../shared/safe-redirect';

/** A validation failure as the toast shows it (spec section 5, verbatim). */
export interface FormProblem {
  title: string;
  description: string;
}

export interface SignInForm {
  username: string;
  password: string;
}

export interface SignUpForm {
  username: string;
  email: string;
  password: string;
  confirmPassword: string;
}

const blank = (value: string) => value.trim() === '';

export function validateSignIn(form: SignInForm): FormProblem | null {
  if (blank(form.username) || form.password === '') {
    return { title: 'Missing information', description: 'Please enter both username and password' };
  }
  return null;
}

/** Checks in the spec's order: required fields, then the confirmation, then the length. */
export function validateSignUp(form: SignUpForm): FormProblem | null {
  if (blank(form.username) || blank(form.email) || form.password === '') {
    return { title: 'Missing information', description: 'Please fill in all required fields' };
  }
  if (form.password !== form.confirmPassword) {
    return { title: 'Password mismatch', description: 'Passwords do not match' };
  }
  if (form.password.length < MIN_PASSWORD_LENGTH) {
    return {
      title: 'Password too short',
      description: `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`,
    };
  }
  return null;
}

/** Spec section 8: the server's message when it gave one, else the generic advice. */
export const LOGIN_FAILED = {
  title: 'Login failed',
  description: 'Please check your credentials and try again',
} as const;
export const REGISTRATION_FAILED = {
  title: 'Registration failed',
  description: 'Please try again with different details',
} as const;

/**
 * Where to go after signing in when a page sent the person to /auth with `?next=` (an invitation, say):
 * only a page of this app, never another site ("//evil.example") or an unknown path.
 */
export function returnPathFrom(search: string): string | null {
  const next = safeRedirectPath(new URLSearchParams(search).get('next'), '');
  if (next === '') return null;
  return isAppPage(new URL(next, 'http://crossfade.invalid').pathname) ? next : null;
}

/** The sign-in address that brings the person back to `path` afterwards. */
export const signInPathFor = (path: string) => `/auth?next=${encodeURIComponent(path)}`;
