import { expect, type Page } from '@playwright/test';
import { expectToast } from './toasts';

/**
 * Connects the signed-in page's user through the sandbox consent page, from the transfer wizard, to their
 * own sandbox account (`spotifyCountry` picks its country on Spotify's consent page), or to the second
 * demo listener everyone shares, whose library is the same in every run.
 */
export async function connectThroughUi(
  page: Page,
  service: 'Spotify' | 'Apple Music',
  options: { spotifyCountry?: 'US' | 'DE' | 'JP'; secondDemoListener?: boolean } = {},
) {
  await page.goto('/transfer');
  await page.getByRole('button', { name: `Connect ${service}` }).click();
  if (options.secondDemoListener) await page.getByRole('radio', { name: /Second demo listener/ }).check();
  if (service === 'Spotify' && options.spotifyCountry) {
    await page
      .getByRole('combobox', { name: 'Country of your account' })
      .selectOption(options.spotifyCountry);
  }
  await page.getByRole('button', { name: service === 'Spotify' ? 'Agree' : 'Allow', exact: true }).click();
  await expect(page).toHaveURL(/\/transfer$/);
  await expectToast(page, `Connected to ${service}`);
}
