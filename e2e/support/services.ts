import { expect, type Page } from '@playwright/test';
import { expectToast } from './toasts';

/** Connects the signed-in page's user through the sandbox consent page, from the transfer wizard. */
export async function connectThroughUi(page: Page, service: 'Spotify' | 'Apple Music') {
  await page.goto('/transfer');
  await page.getByRole('button', { name: `Connect ${service}` }).click();
  await page.getByRole('button', { name: service === 'Spotify' ? 'Agree' : 'Allow', exact: true }).click();
  await expect(page).toHaveURL(/\/transfer$/);
  await expectToast(page, `Connected to ${service}`);
}
