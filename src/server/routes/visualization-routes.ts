import { type Context, Hono } from 'hono';
import {
  type TasteGraph,
  type TasteTimeline,
  tasteGraphTypeSchema,
  timelineRangeSchema,
} from '../../shared/api/visualizations';
import type { AppDeps, AppEnv } from '../app-context';
import { validate } from '../http/validation';
import { libraryForRequest } from '../visualizations/access';
import { librarySummary } from '../visualizations/library';
import { buildTasteGraph } from '../visualizations/taste-graph';
import { buildTasteTimeline } from '../visualizations/taste-timeline';

/** Taste graph and taste timeline (spec section 7), from the person's library or the sample. */
export function visualizationRoutes(deps: AppDeps) {
  const graph = async (c: Context<AppEnv>) => {
    const type = validate(tasteGraphTypeSchema, c.req.query('type') ?? 'genres');
    const library = await libraryForRequest(deps, c.get('user')?.id, c.req.param('userId'));
    const answer: TasteGraph = {
      ...buildTasteGraph(library, type),
      sample: library.sample,
      source: librarySummary(library),
    };
    return c.json(answer);
  };
  const timeline = async (c: Context<AppEnv>) => {
    const range = validate(timelineRangeSchema, c.req.query('timeRange') ?? '5years');
    const library = await libraryForRequest(deps, c.get('user')?.id, c.req.param('userId'));
    const answer: TasteTimeline = {
      ...buildTasteTimeline(library, range),
      sample: library.sample,
      basis: 'release-year',
      source: librarySummary(library),
    };
    return c.json(answer);
  };
  return new Hono<AppEnv>()
    .get('/taste-graph', graph)
    .get('/taste-graph/:userId', graph)
    .get('/taste-timeline', timeline)
    .get('/taste-timeline/:userId', timeline);
}
