import { expect, type Page, test } from '@playwright/test';
import { expectAxeClean } from './support/axe';
import { csrfHeaders } from './support/own-server';
import { connectThroughUi } from './support/services';
import { notifications } from './support/toasts';
import { signUpThroughUi, uniqueUser } from './support/users';

const card = (page: Page, title: string) =>
  page.locator('div.rounded-2xl').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

/**
 * Issue 22's "done when", as a new person in sandbox mode: sign up, "Upgrade to Pro" on /pricing, pay
 * with 4242 4242 4242 4242 on the sandbox's checkout page, be Pro on /account within 10 seconds with the
 * renewal date; start a batch; "Manage billing", cancel, move the sandbox's clock past the period end,
 * and be on Free with the sync paused and told so. Plans change only by Stripe's webhooks here: nothing in
 * this test touches the database.
 */
async function payWithCard(page: Page, card: string) {
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiration (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Cardholder name').fill('Test Person');
  await page.getByLabel('ZIP (United States only)').fill('94107');
  await page.getByRole('button', { name: 'Subscribe' }).click();
}

async function createSync(page: Page) {
  const playlists = (await (await page.request.get('/api/playlists/spotify')).json()) as {
    id: string;
    name: string;
  }[];
  const roadTrip = playlists.find((playlist) => playlist.name === 'Road Trip');
  const created = await page.request.post('/api/syncs', {
    data: {
      sourceService: 'spotify',
      sourcePlaylistId: roadTrip?.id,
      destinationService: 'apple',
      schedule: 'daily',
      removals: false,
    },
    headers: await csrfHeaders(page, new URL(page.url()).origin),
  });
  expect(created.status(), await created.text()).toBe(201);
}

test.describe('buying, using and cancelling Pro', () => {
  test.describe.configure({ timeout: 180_000 });

  test('upgrade with a test card, start a batch, cancel, and be on Free at the period end', async ({
    page,
  }) => {
    const user = uniqueUser('payer');
    await signUpThroughUi(page, user);
    await connectThroughUi(page, 'Spotify');
    await connectThroughUi(page, 'Apple Music');

    // /pricing says what Pro does before the person pays, and leads to the hosted checkout.
    await page.goto('/pricing');
    const pro = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Pro', exact: true }) });
    await expect(pro).toContainText('$5.00');
    await expect(pro).toContainText('Pro starts as soon as your payment goes through');
    await pro.getByRole('button', { name: 'Upgrade to Pro' }).click();
    await expect(page).toHaveURL(/\/sandbox\/stripe\/c\/pay\/cs_test_/);
    await expect(page.getByText('Subscribe to Crossfade Pro')).toBeVisible();
    await expectAxeClean(page, 'checkout');

    // A declined card stays on the page with Stripe's message; 4242 pays.
    await payWithCard(page, '4000 0000 0000 0002');
    await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
    await payWithCard(page, '4242 4242 4242 4242');
    await expect(page).toHaveURL(/\/billing\/return\?session_id=cs_test_/);
    const paidAt = Date.now();
    await expect(page.getByRole('heading', { name: 'You are on Pro' })).toBeVisible({ timeout: 10_000 });
    await expectAxeClean(page, 'checkout return');

    await page.getByRole('link', { name: 'See your plan' }).click();
    await expect(page).toHaveURL(/\/account$/);
    const billing = card(page, 'Billing');
    await expect(billing.getByText('Pro (billed monthly)')).toBeVisible();
    await expect(billing.getByText('Renews on')).toBeVisible();
    expect(Date.now() - paidAt).toBeLessThan(10_000);
    await expectAxeClean(page, 'account on Pro');

    // Pro features work: a sync, and a batch of two playlists.
    await createSync(page);
    await page.goto('/transfer?from=spotify&to=apple');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Move several playlists at once' }).click();
    const picker = page.getByRole('region', { name: /Move several playlists to Apple Music/ });
    for (const name of ['Road Trip', 'Late Night Jazz']) {
      await picker.getByRole('checkbox', { name: new RegExp(`^${name}`) }).check();
    }
    await picker.getByRole('button', { name: 'Move 2 playlists' }).click();
    await expect(page).toHaveURL(/\/batches\/[0-9a-f-]+$/);

    // What cancelling does is said on /account before the person goes to Stripe to do it.
    await page.goto('/account');
    await expect(page.getByText(/If you cancel, you keep Pro until/)).toBeVisible();
    await expect(page.getByText('Your syncs pause: they are kept, not deleted')).toBeVisible();
    await page.getByRole('button', { name: 'Manage billing' }).click();
    await expect(page).toHaveURL(/\/sandbox\/stripe\/p\/session\/test_/);
    await expectAxeClean(page, 'portal');
    await page.getByRole('link', { name: 'Cancel plan' }).click();
    await page.getByRole('button', { name: 'Cancel plan' }).click();
    await expect(page.getByRole('status')).toContainText('Your plan is canceled. You keep it until');

    // The sandbox's clock moves past the end of the period.
    await page.getByRole('button', { name: /^Move to the end of the period/ }).click();
    await expect(page.getByRole('status')).toContainText('The clock moved to');
    await page.getByRole('link', { name: '← Return to Crossfade' }).click();
    await expect(page).toHaveURL(/\/account$/);
    const notice = page.getByRole('region', { name: 'Latest plan change' });
    await expect(notice).toContainText(
      /Your plan changed from Pro to Free on .*: your subscription ended\./,
      {
        timeout: 15_000,
      },
    );
    await expect(notice).toContainText('Your sync is paused (kept, not deleted)');
    await expect(card(page, 'Plan and usage')).toContainText('Free');
    await expect(card(page, 'Billing')).not.toContainText('Renews on');
    await expectAxeClean(page, 'account on Free');
  });

  test('a failed renewal keeps Pro with a banner on every page, until the card is updated', async ({
    page,
  }) => {
    await signUpThroughUi(page, uniqueUser('renewal'));
    await page.goto('/pricing');
    await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
    await payWithCard(page, '4000 0000 0000 0341');
    await expect(page.getByRole('heading', { name: 'You are on Pro' })).toBeVisible({ timeout: 10_000 });
    await page.goto('/account');
    await page.getByRole('button', { name: 'Manage billing' }).click();
    await page.getByRole('button', { name: /^Move to the end of the period/ }).click();
    await expect(page.getByRole('status')).toContainText('The clock moved to');
    await expect(page.getByText('Payment failed.')).toBeVisible();
    await page.getByRole('link', { name: '← Return to Crossfade' }).click();

    const banner = page.getByRole('region', { name: 'Payment problem' });
    await expect(banner).toContainText(/Your last payment did not go through\. You keep Pro until/, {
      timeout: 15_000,
    });
    await expect(card(page, 'Plan and usage')).toContainText('Pro');
    await page.goto('/pricing');
    await expect(banner).toBeVisible();
    await expectAxeClean(page, 'payment banner');

    // A new card pays the open invoice: the banner goes.
    await banner.getByRole('button', { name: 'Update card' }).click();
    await expect(page).toHaveURL(/\/sandbox\/stripe\/p\/session\/test_/);
    await page.getByRole('link', { name: 'Update payment method' }).click();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiration (MM / YY)').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await page.getByLabel('Cardholder name').fill('Test Person');
    await page.getByLabel('ZIP').fill('94107');
    await page.getByRole('button', { name: 'Add card' }).click();
    await page.getByRole('button', { name: /^Pay .* now$/ }).click();
    await expect(page.getByRole('status')).toContainText('Payment received. Thank you!');
    await page.getByRole('link', { name: '← Return to Crossfade' }).click();
    await expect(page.getByRole('heading', { name: 'My Account' })).toBeVisible();
    await expect(banner).toHaveCount(0, { timeout: 15_000 });
  });

  test('after leaving Vault+, backups stay readable and downloadable on /vault', async ({ page }) => {
    await signUpThroughUi(page, uniqueUser('vaulter'));
    await connectThroughUi(page, 'Spotify');
    await page.goto('/pricing');
    await page.getByRole('button', { name: 'Upgrade to Vault+' }).click();
    await payWithCard(page, '4242 4242 4242 4242');
    await expect(page.getByRole('heading', { name: 'You are on Vault+' })).toBeVisible({ timeout: 10_000 });
    await page.goto('/vault');
    await page.getByRole('button', { name: 'Back up now' }).click();
    // A backup of the whole library can take a while on a busy machine.
    await expect(notifications(page).getByText('Backup complete', { exact: true })).toBeVisible({
      timeout: 60_000,
    });

    // Cancelling says what happens to the backups before the person goes to Stripe.
    await page.goto('/account');
    await expect(
      page.getByText(/backups stay readable and downloadable for 30 days, then they are deleted/),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Manage billing' }).click();
    await page.getByRole('link', { name: 'Cancel plan' }).click();
    await page.getByRole('button', { name: 'Cancel plan' }).click();
    await page.getByRole('button', { name: /^Move to the end of the period/ }).click();
    await page.getByRole('link', { name: '← Return to Crossfade' }).click();
    await expect(page.getByRole('region', { name: 'Latest plan change' })).toContainText(
      /from Vault\+ to Free/,
      {
        timeout: 15_000,
      },
    );

    await page.goto('/vault');
    await expect(page.getByRole('alert')).toContainText(
      /You are no longer on Vault\+: your backups stay readable and downloadable until .*, then they are deleted\./,
    );
    const snapshot = page
      .getByRole('list', { name: 'Backups' })
      .getByRole('listitem')
      .filter({ hasText: 'Spotify backup' });
    const download = snapshot.getByRole('link', { name: /^Download Spotify backup/ });
    await expect(download).toHaveAttribute('href', /\/api\/vault\/backups\/[0-9a-f-]+\/download$/);
    const file = await page.request.get((await download.getAttribute('href')) ?? '');
    expect(file.status()).toBe(200);
    expect(file.headers()['content-disposition']).toMatch(/^attachment; filename="crossfade-backup-/);
    await expectAxeClean(page, 'vault after leaving');
  });

  test('signed out, a plan leads to sign-in first and then straight to its checkout', async ({ page }) => {
    await page.goto('/pricing');
    await page.getByRole('link', { name: 'Sign up for Vault+' }).click();
    await expect(page).toHaveURL(/\/auth\?next=/);
    const user = uniqueUser('later');
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    const form = page.getByRole('form', { name: 'Sign up' });
    await form.getByLabel('Username').fill(user.username);
    await form.getByLabel('Email').fill(user.email);
    await form.getByLabel('Password', { exact: true }).fill(user.password);
    await form.getByLabel('Confirm Password').fill(user.password);
    await form.getByRole('button', { name: 'Create Account' }).click();
    await expect(page).toHaveURL(/\/sandbox\/stripe\/c\/pay\/cs_test_/);
    await expect(page.getByText('Subscribe to Crossfade Vault+')).toBeVisible();
    await page.getByRole('link', { name: '← Back' }).click();
    await expect(page).toHaveURL(/\/pricing\?checkout=canceled$/);
    await expect(page.getByRole('alert')).toHaveText('Checkout was canceled: nothing was charged.');
  });
});
