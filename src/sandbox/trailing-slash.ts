import type { Env, Hono } from 'hono';

/**
 * Both services answer `/v1/me/` as `/v1/me`. Hono's `strict: false` belongs to whichever app the emulator
 * is finally mounted in (the server's), so instead each route gets a twin with a trailing slash. Call it
 * after the routes and before the catch-all 404, which would otherwise answer first.
 */
export function acceptTrailingSlashes<E extends Env>(app: Hono<E>): void {
  for (const route of [...app.routes]) {
    if (route.method === 'ALL' || route.path.endsWith('*') || route.path.endsWith('/')) continue;
    app.on(route.method, `${route.path}/`, route.handler);
  }
}
