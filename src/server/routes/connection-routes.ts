import { type Context, Hono } from 'hono';
import { SANDBOX_SCENARIO } from '../../sandbox/accounts';
import {
  appleInitRequestSchema,
  connectionRegionRequestSchema,
  connectQuerySchema,
} from '../../shared/api/connections';
import { SERVICE_LABELS, type ServiceId } from '../../shared/services';
import type { AppDeps, AppEnv } from '../app-context';
import { ConnectionFailed, DEFAULT_RETURN_PATH, safeReturnPath } from '../connections/provider-runtime';
import { badRequest, conflict, DomainError } from '../domain-errors';
import { requireUser } from '../http/require-user';
import { readJson, validate } from '../http/validation';
import { ProviderError } from '../providers/http';

/**
 * Connecting Spotify and Apple Music (spec sections 3, 4, 7): the connect calls answer where to send the
 * browser; the callbacks come back from the services' consent pages and return the person to the page
 * they started from, with `?connected=` or `?connectError=` for the page to announce.
 */
/** Tests only (SANDBOX_TEST_SCENARIOS): the header naming a sandbox scenario. */
export const SANDBOX_SCENARIO_HEADER = 'x-sandbox-scenario';

export function connectionRoutes({ providers, logger, config }: AppDeps) {
  const origin = config.publicUrl;
  const returnPath = (query: Record<string, string>) =>
    safeReturnPath(validate(connectQuerySchema, query).returnTo ?? DEFAULT_RETURN_PATH, origin);

  /** Checked again on the way out: the stored path and the added parameters must stay on our origin. */
  const backTo = (path: string, params: Record<string, string>) => {
    const url = new URL(safeReturnPath(path, origin), origin);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return safeReturnPath(`${url.pathname}${url.search}`, origin);
  };

  const callback =
    (service: ServiceId, finish: (userId: string, url: URL) => Promise<string>) =>
    async (c: Context<AppEnv>) => {
      const user = c.get('user');
      if (!user)
        return c.redirect(
          backTo('/auth', { connectError: `Sign in before connecting ${SERVICE_LABELS[service]}.` }),
        );
      try {
        const returnTo = await finish(user.id, new URL(c.req.url));
        return c.redirect(backTo(returnTo, { connected: service }));
      } catch (error) {
        // A failure after the request was found goes back to where the person started (/transfer, /account).
        const returnTo = error instanceof ConnectionFailed ? error.returnTo : DEFAULT_RETURN_PATH;
        const cause = error instanceof ConnectionFailed ? error.cause : error;
        const message =
          error instanceof DomainError || error instanceof ProviderError
            ? error.message
            : `Failed to connect to ${SERVICE_LABELS[service]}`;
        if (!(cause instanceof DomainError || cause instanceof ProviderError)) {
          logger.warn({ err: cause, service }, 'connection callback failed');
        }
        return c.redirect(backTo(returnTo, { connectError: message }));
      }
    };

  /**
   * Tests only: with SANDBOX_TEST_SCENARIOS the `X-Sandbox-Scenario` header names the fixed library a new
   * sandbox account starts with (decision 0022); without the setting it is ignored.
   */
  const scenario = (c: Context<AppEnv>) => {
    const asked = c.req.header(SANDBOX_SCENARIO_HEADER);
    if (!config.SANDBOX_TEST_SCENARIOS || asked === undefined) return {};
    if (!SANDBOX_SCENARIO.test(asked))
      throw badRequest(`${SANDBOX_SCENARIO_HEADER} must be a scenario name.`);
    return { scenario: asked };
  };

  return new Hono<AppEnv>()
    .get('/spotify/connect', async (c) => {
      const user = requireUser(c);
      const returnTo = returnPath(c.req.query());
      return c.json({ authUrl: await providers.startSpotifyConnect(user.id, returnTo, scenario(c)) });
    })
    .get(
      '/spotify/callback',
      callback('spotify', (userId, url) => providers.finishSpotifyConnect(userId, url)),
    )
    .get('/apple/connect', async (c) => {
      const user = requireUser(c);
      // `?prepare=1`: the page asks ahead of the click (to have MusicKit ready); in sandbox mode that
      // must not open a consent request, so only the mode is answered.
      const prepareOnly = c.req.query('prepare') === '1';
      const options = { prepareOnly, ...scenario(c) };
      return c.json(await providers.startAppleConnect(user.id, returnPath(c.req.query()), options));
    })
    .get(
      '/apple/callback',
      callback('apple', (userId, url) => providers.finishAppleRedirect(userId, url)),
    )
    .post('/apple/init', async (c) => {
      const user = requireUser(c);
      const { token } = await readJson(c, appleInitRequestSchema);
      await providers.saveAppleConnection(user.id, token);
      return c.json({ appleConnected: true });
    })
    .put('/:service{spotify|apple}/region', async (c) => {
      const user = requireUser(c);
      const service = c.req.param('service') as ServiceId;
      const { region } = await readJson(c, connectionRegionRequestSchema);
      if (!(await providers.connections.setRegion(user.id, service, region.toLowerCase()))) {
        throw conflict(`Please connect to ${SERVICE_LABELS[service]} before continuing.`);
      }
      return c.json({ region: region.toLowerCase() });
    })
    .post('/:service{spotify|apple}/disconnect', async (c) => {
      const user = requireUser(c);
      await providers.disconnect(user.id, c.req.param('service') as ServiceId);
      return c.body(null, 204);
    });
}
