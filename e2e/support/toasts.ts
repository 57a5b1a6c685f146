import { expect, type Locator, type Page } from '@playwright/test';

/**
 * The toast viewport. Radix also mirrors each toast into a visually hidden live region for screen
 * readers, so looking inside the viewport keeps every text match unique.
 */
export const notifications = (page: Page): Locator => page.getByRole('region', { name: /Notifications/ });

export async function expectToast(page: Page, title: string, description?: string): Promise<void> {
  const region = notifications(page);
  await expect(region.getByText(title, { exact: true })).toBeVisible();
  if (description !== undefined) await expect(region.getByText(description, { exact: true })).toBeVisible();
}
