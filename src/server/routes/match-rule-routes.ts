import { Hono } from 'hono';
import { type MatchRuleList, matchRuleEditSchema } from '../../shared/api/match-rules';
import { searchQuerySchema } from '../../shared/api/transfer';
import type { AppDeps, AppEnv } from '../app-context';
import { requireUser } from '../http/require-user';
import { readJson, validate } from '../http/validation';
import { deleteRule, editRule, listRules, searchForRule } from '../transfers/match-rules';

/** The person's remembered match fixes (issue 14): list, edit (with a search to choose from) and delete. */
export function matchRuleRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .get('/match-rules', async (c) => {
      const user = requireUser(c);
      return c.json({ rules: await listRules(deps.db, user.id) } satisfies MatchRuleList);
    })
    .get('/match-rules/:id/search', async (c) => {
      const user = requireUser(c);
      const text = validate(searchQuerySchema, c.req.query('q') ?? '');
      return c.json(await searchForRule(deps, user.id, c.req.param('id'), text));
    })
    .patch('/match-rules/:id', async (c) => {
      const user = requireUser(c);
      const edit = await readJson(c, matchRuleEditSchema);
      return c.json(await editRule(deps, user.id, c.req.param('id'), edit));
    })
    .delete('/match-rules/:id', async (c) => {
      const user = requireUser(c);
      await deleteRule(deps.db, user.id, c.req.param('id'));
      return c.body(null, 204);
    });
}
