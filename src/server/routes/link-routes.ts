import { Hono } from 'hono';
import {
  createLinkRequestSchema,
  LINK_MESSAGES,
  type LinkSignupResponse,
  linkSignupRequestSchema,
  type PublicLink,
  updateLinkRequestSchema,
} from '../../shared/api/links';
import type { AppDeps, AppEnv } from '../app-context';
import { notFound } from '../domain-errors';
import { requireUser } from '../http/require-user';
import { readJson } from '../http/validation';
import { visitorId } from '../http/visitor-cookie';
import {
  addSignup,
  createLink,
  findBySlug,
  findOwnLink,
  linkStats,
  listLinks,
  readTarget,
  recordView,
  setActive,
} from '../links/link-store';
import { linkStorefront, openLinks } from '../links/public-link';
import { resolveLinkTarget } from '../links/resolve-target';
import { visitorHash } from '../links/visitor';
import { enforceRateLimit, HOUR_MS } from '../security/rate-limit';

/** Sniper links: the owner's /api/links and the public /api/public/links/:slug. */
export function linkRoutes(deps: AppDeps) {
  const activeLink = async (slug: string) => {
    const link = await findBySlug(deps.db, slug);
    if (!link) throw notFound(LINK_MESSAGES.notFound);
    if (!link.active) throw notFound(LINK_MESSAGES.inactive);
    return link;
  };

  // The public page's e-mail signup needs no account: limited per link and address.
  const signups = {
    bucket: 'link-signup',
    limit: deps.config.LINK_SIGNUP_LIMIT_PER_HOUR,
    windowMs: HOUR_MS,
    message: 'Too many signups from your network for this link.',
  };

  return new Hono<AppEnv>()
    .post('/links', async (c) => {
      const user = requireUser(c);
      const { name, url } = await readJson(c, createLinkRequestSchema);
      const targetUrl = url === undefined || url === '' ? null : url;
      const target = targetUrl === null ? null : await resolveLinkTarget(deps, user, targetUrl);
      const link = await createLink(deps.db, { userId: user.id, name, targetUrl, target });
      return c.json(link, 201);
    })
    .get('/links', async (c) => {
      const user = requireUser(c);
      return c.json(await listLinks(deps.db, user.id));
    })
    .get('/links/:id/stats', async (c) => {
      const user = requireUser(c);
      const link = await findOwnLink(deps.db, user.id, c.req.param('id'));
      if (!link) throw notFound(LINK_MESSAGES.notFound);
      return c.json(await linkStats(deps.db, link.id));
    })
    .patch('/links/:id', async (c) => {
      const user = requireUser(c);
      const { active } = await readJson(c, updateLinkRequestSchema);
      const link = await findOwnLink(deps.db, user.id, c.req.param('id'));
      if (!link) throw notFound(LINK_MESSAGES.notFound);
      return c.json(await setActive(deps.db, link, active));
    })
    .get('/public/links/:slug', async (c) => {
      const link = await activeLink(c.req.param('slug'));
      await recordView(deps.db, link.id, visitorHash(link.id, visitorId(c, deps.config)));
      const target = readTarget(link.target);
      const answer: PublicLink = {
        slug: link.slug,
        name: link.name,
        target,
        open: openLinks(
          link.name,
          target,
          deps.providers.sandboxPages,
          await linkStorefront(deps, link.userId, c.get('user')?.id),
        ),
      };
      c.header('cache-control', 'no-store');
      return c.json(answer);
    })
    .post('/public/links/:slug/signup', async (c) => {
      const { email } = await readJson(c, linkSignupRequestSchema);
      const link = await activeLink(c.req.param('slug'));
      await enforceRateLimit(deps.db, signups, `${link.id} ${c.get('clientNetwork')}`);
      const added = await addSignup(deps.db, link.id, email);
      const answer: LinkSignupResponse = added
        ? { message: LINK_MESSAGES.signedUp, alreadySignedUp: false }
        : { message: LINK_MESSAGES.alreadySignedUp, alreadySignedUp: true };
      return c.json(answer, added ? 201 : 200);
    });
}
