import { expect, test } from '@playwright/test';
import { expectToast } from './support/toasts';
import {
  fillSignUp,
  openSignIn,
  openSignUp,
  registerThroughApi,
  signInForm,
  signInThroughUi,
  signUpForm,
  signUpThroughUi,
  uniqueUser,
} from './support/users';

test.describe('/auth', () => {
  test('shows Sign In and Sign Up tabs with the terms notice', async ({ page }) => {
    await page.goto('/auth');
    await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tab', { name: 'Sign Up' })).toBeVisible();
    await expect(page.getByText(/By continuing, you agree to our/)).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
      'href',
      '/terms',
    );
    await expect(page.getByRole('main').getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      '/privacy',
    );
  });

  test('the sign-in password can be shown and hidden', async ({ page }) => {
    await openSignIn(page);
    const password = signInForm(page).getByLabel('Password', { exact: true });
    await password.fill('hunter22');
    await expect(password).toHaveAttribute('type', 'password');
    await signInForm(page).getByRole('button', { name: 'Show password' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await signInForm(page).getByRole('button', { name: 'Hide password' }).click();
    await expect(password).toHaveAttribute('type', 'password');
  });

  test('sign in without a password asks for both fields', async ({ page }) => {
    await openSignIn(page);
    await signInForm(page).getByLabel('Username').fill('someone');
    await signInForm(page).getByRole('button', { name: 'Sign In' }).click();
    await expectToast(page, 'Missing information', 'Please enter both username and password');
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('sign up with a missing field asks for all required fields', async ({ page }) => {
    await openSignUp(page);
    await fillSignUp(page, { username: 'someone', password: 'secret1' });
    await signUpForm(page).getByRole('button', { name: 'Create Account' }).click();
    await expectToast(page, 'Missing information', 'Please fill in all required fields');
  });

  test('sign up with a different confirmation reports the mismatch', async ({ page }) => {
    await openSignUp(page);
    await fillSignUp(page, { ...uniqueUser(), password: 'secret1', confirmPassword: 'secret2' });
    await signUpForm(page).getByRole('button', { name: 'Create Account' }).click();
    await expectToast(page, 'Password mismatch', 'Passwords do not match');
  });

  test('sign up with a five-character password says it is too short', async ({ page }) => {
    await openSignUp(page);
    await fillSignUp(page, { ...uniqueUser(), password: 'abcde' });
    await signUpForm(page).getByRole('button', { name: 'Create Account' }).click();
    await expectToast(page, 'Password too short', 'Password must be at least 6 characters long');
  });

  test('signing up lands on onboarding with the welcome toast', async ({ page }) => {
    await signUpThroughUi(page, uniqueUser('signup'));
    await expectToast(page, 'Welcome to Crossfade!');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome');
  });

  test('signing up with a taken username shows the server message', async ({ page }) => {
    const user = await registerThroughApi(page, uniqueUser('taken'));
    await page.context().clearCookies();
    await openSignUp(page);
    await fillSignUp(page, { ...uniqueUser('other'), username: user.username });
    await signUpForm(page).getByRole('button', { name: 'Create Account' }).click();
    await expectToast(page, 'Registration failed', 'That username is already taken.');
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('signing in lands on service selection with a welcome back toast', async ({ page }) => {
    const user = await registerThroughApi(page, uniqueUser('signin'));
    await page.context().clearCookies();
    await signInThroughUi(page, user);
    await expect(page).toHaveURL(/\/service-selection$/);
    await expectToast(page, 'Welcome back!');
  });

  test('a wrong password keeps the user on /auth with a login failure toast', async ({ page }) => {
    const user = await registerThroughApi(page, uniqueUser('wrongpw'));
    await page.context().clearCookies();
    await signInThroughUi(page, { username: user.username, password: `${user.password}-wrong` });
    await expectToast(page, 'Login failed', 'Invalid username or password.');
    await expect(page).toHaveURL(/\/auth$/);
  });
});

test('the header shows My Account when signed in and Get Started after signing out', async ({ page }) => {
  const header = page.getByRole('banner');
  await page.goto('/');
  await expect(header.getByRole('link', { name: 'Get Started' })).toBeVisible();
  await expect(header.getByRole('link', { name: 'My Account' })).toHaveCount(0);

  const user = uniqueUser('header');
  await signUpThroughUi(page, user);
  await expect(header.getByRole('link', { name: 'My Account' })).toBeVisible();
  await expect(header.getByRole('link', { name: 'Get Started' })).toHaveCount(0);

  await header.getByRole('link', { name: 'My Account' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('main')).toContainText(user.username);
  await expect(page.getByRole('main')).toContainText(user.email);
  await expect(page.getByRole('main')).toContainText('Free');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(header.getByRole('link', { name: 'Get Started' })).toBeVisible();
  await expect(header.getByRole('link', { name: 'My Account' })).toHaveCount(0);

  // The session is really gone: a reload still shows the signed-out header.
  await page.reload();
  await expect(header.getByRole('link', { name: 'Get Started' })).toBeVisible();
});

test('a signed-out visitor to /account is sent to /auth', async ({ page }) => {
  await page.goto('/account');
  await expect(page).toHaveURL(/\/auth$/);
});

test('when the auth status cannot be checked the visitor is told and treated as signed out', async ({
  page,
}) => {
  await page.route('**/api/auth/status', (route) => route.abort('connectionrefused'));
  await page.goto('/');
  await expect(page.getByRole('region', { name: /Notifications/ })).toContainText(
    'Failed to verify authentication status',
  );
  await expect(page.getByRole('banner').getByRole('link', { name: 'Get Started' })).toBeVisible();
});
