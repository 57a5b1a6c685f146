import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { routePath } from 'hono/route';
import { isAppPage } from '../shared/app-pages';
import { IDEMPOTENT_CREATES } from '../shared/idempotency';
import type { AppDeps, AppEnv } from './app-context';
import { clientAddressMiddleware } from './http/client-address';
import { ApiError, renderError } from './http/errors';
import { idempotency } from './http/idempotency';
import { redactPath } from './http/log-redaction';
import { requestContext } from './http/request-context';
import { securityHeaders } from './http/security-headers';
import { MAX_IMPORT_BYTES } from './import/csv-playlist';
import { requestLineLogger } from './logger';
import { apiRoutes } from './routes/api-routes';

export interface AppOptions {
  /** Built front end (dist/web); without it the API still works and pages say how to build. */
  webRoot?: string;
  /** Extra apps mounted beside the API, such as the sandbox emulators at /sandbox. */
  mounts?: { path: string; app: Hono }[];
}

/** Room for a 1 MB field to reach validation (and a clear 400); anything larger is refused unread. */
export const MAX_JSON_BODY = 2 * 1024 * 1024;

/** Composes the HTTP application: API under /api, sandbox emulators, and the single-page front end. */
export function createApp(deps: AppDeps, options: AppOptions = {}) {
  const { logger } = deps;
  const requestLog = requestLineLogger(logger);
  const app = new Hono<AppEnv>();

  // Who the client is, first: the request log, every limit and the sandbox's limits use it.
  app.use('*', clientAddressMiddleware(deps.config.TRUST_PROXY));
  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    // API requests are logged by route pattern (ids and tokens in paths are values), other paths with any
    // token-like segment replaced; never the query string (OAuth codes and states).
    requestLog.info(
      {
        method: c.req.method,
        path: c.req.path.startsWith('/api/') ? routePath(c) : redactPath(c.req.path),
        status: c.res.status,
        ms: Math.round(performance.now() - started),
        address: c.get('clientAddress'),
      },
      'request',
    );
  });
  app.use('*', securityHeaders(deps.config));
  app.onError((error, c) => renderError(error, c, logger));

  const api = new Hono<AppEnv>();
  // Every body is read through its limit, whoever reads it first (a route, or the idempotency check).
  const jsonLimit = bodyLimit({
    maxSize: MAX_JSON_BODY,
    onError: () => {
      throw new ApiError(413, 'The request is too large (2 MB at most).');
    },
  });
  const fileLimit = bodyLimit({
    maxSize: MAX_IMPORT_BYTES,
    onError: () => {
      throw new ApiError(413, 'The file is too large (5 MB at most).');
    },
  });
  // GET and HEAD carry no body; asking for one would build a full Request object for nothing.
  api.use('*', (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    return c.req.path.startsWith('/api/import/') ? fileLimit(c, next) : jsonLimit(c, next);
  });
  for (const mount of apiRoutes.filter((route) => route.beforeSession))
    api.route(mount.path, mount.routes(deps));
  api.use('*', requestContext(deps));
  // Creates run once per Idempotency-Key (decision 0023): checked after the session, before the route.
  const onceByKey = idempotency(deps);
  for (const path of IDEMPOTENT_CREATES) api.post(path.replace(/^\/api/, ''), onceByKey);
  for (const mount of apiRoutes.filter((route) => !route.beforeSession))
    api.route(mount.path, mount.routes(deps));
  api.all('*', (c) => c.json({ message: `No API route for ${c.req.method} ${c.req.path}.` }, 404));
  app.route('/api', api);

  for (const mount of options.mounts ?? []) app.route(mount.path, mount.app);

  if (options.webRoot && existsSync(join(options.webRoot, 'index.html'))) {
    const webRoot = options.webRoot;
    const indexHtml = readFileSync(join(webRoot, 'index.html'), 'utf8');
    app.use('/assets/*', serveStatic({ root: webRoot }));
    app.use(
      '*',
      serveStatic({ root: webRoot, rewriteRequestPath: (path) => (path === '/' ? '/index.html' : path) }),
    );
    // Client-side routes: the app's pages answer the app shell, so deep links and reloads work; any
    // other path gets the same shell (which shows the 404 page) with status 404.
    app.get('*', (c) => c.html(indexHtml, isAppPage(c.req.path) ? 200 : 404));
  } else {
    app.get('*', (c) =>
      c.text(
        'The web app is not built. Run `npm start` (it builds it) or `npm run dev` for development.',
        503,
      ),
    );
  }
  return app;
}
