import { randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { CSRF_COOKIE, CSRF_HEADER } from '../../src/shared/api/auth';

export interface TestUser {
  username: string;
  email: string;
  password: string;
}

/** A user no earlier test (or run against the same server) has taken. */
export function uniqueUser(prefix = 'user'): TestUser {
  const suffix = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  return {
    username: `${prefix}_${suffix}`,
    email: `${prefix}.${suffix}@example.com`,
    password: `pw-${randomBytes(6).toString('hex')}`,
  };
}

export async function openSignIn(page: Page): Promise<void> {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign In' }).click();
}

export async function openSignUp(page: Page): Promise<void> {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
}

export const signUpForm = (page: Page) => page.getByRole('form', { name: 'Sign up' });
export const signInForm = (page: Page) => page.getByRole('form', { name: 'Sign in' });

export async function fillSignUp(page: Page, values: Partial<TestUser> & { confirmPassword?: string }) {
  const form = signUpForm(page);
  await form.getByLabel('Username').fill(values.username ?? '');
  await form.getByLabel('Email').fill(values.email ?? '');
  await form.getByLabel('Password', { exact: true }).fill(values.password ?? '');
  await form.getByLabel('Confirm Password').fill(values.confirmPassword ?? values.password ?? '');
}

export async function signUpThroughUi(page: Page, user: TestUser): Promise<void> {
  await openSignUp(page);
  await fillSignUp(page, user);
  await signUpForm(page).getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/onboarding$/);
}

export async function signInThroughUi(page: Page, user: Pick<TestUser, 'username' | 'password'>) {
  await openSignIn(page);
  const form = signInForm(page);
  await form.getByLabel('Username').fill(user.username);
  await form.getByLabel('Password', { exact: true }).fill(user.password);
  await form.getByRole('button', { name: 'Sign In' }).click();
}

/**
 * Registers over the API inside the page's browser context, so the session cookie lands where the page
 * can use it. The first call obtains the CSRF cookie that the register call must echo.
 */
export async function registerThroughApi(page: Page, user: TestUser = uniqueUser()): Promise<TestUser> {
  const status = await page.request.get('/api/auth/status');
  expect(status.ok()).toBe(true);
  const cookies = await page.context().cookies();
  const csrf = cookies.find((cookie) => cookie.name === CSRF_COOKIE)?.value ?? '';
  const response = await page.request.post('/api/auth/register', {
    data: user,
    headers: { [CSRF_HEADER]: csrf },
  });
  expect(response.status(), await response.text()).toBe(201);
  return user;
}

/** Signs the page's session out over the API, as another tab would: the page still shows it signed in. */
export async function signOutThroughApi(page: Page): Promise<void> {
  const cookies = await page.context().cookies();
  const csrf = cookies.find((cookie) => cookie.name === CSRF_COOKIE)?.value ?? '';
  const response = await page.request.post('/api/auth/logout', { headers: { [CSRF_HEADER]: csrf } });
  expect(response.status(), await response.text()).toBe(204);
}
