import { expect, type Request, test } from '@playwright/test';
import { eventBatchSchema } from '../src/shared/api/events';
import { signUpThroughUi, uniqueUser } from './support/users';

/** Collects every event the page posts to our collector, failing on any other analytics destination. */
function recordEvents(page: import('@playwright/test').Page) {
  const events: { event: string; properties: Record<string, unknown> }[] = [];
  page.on('request', (request: Request) => {
    if (request.method() !== 'POST' || !request.url().endsWith('/api/events')) return;
    const batch = eventBatchSchema.parse(request.postDataJSON());
    events.push(...batch.events);
  });
  return events;
}

test('page views and sign-up reach the first-party collector', async ({ page }) => {
  const events = recordEvents(page);
  const external: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith('http://127.0.0.1')) external.push(request.url());
  });
  const collected = page.waitForResponse(
    (response) => response.url().endsWith('/api/events') && response.status() === 202,
  );

  await signUpThroughUi(page, uniqueUser('analytics'));
  await collected;
  await expect
    .poll(() => events.map((event) => event.event), { timeout: 15_000 })
    .toEqual(expect.arrayContaining(['$pageview', 'user_signed_up']));

  expect(events.find((event) => event.event === 'user_signed_up')?.properties).toEqual({
    method: 'password',
  });
  expect(
    events.filter((event) => event.event === '$pageview').map((event) => event.properties.page_name),
  ).toEqual(expect.arrayContaining(['/auth', '/onboarding']));
  expect(external).toEqual([]);
});
