import type { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../app-context';

/**
 * Feature route modules mounted under /api, one line each. Kept apart from app.ts so a feature is added
 * by adding its module here, without touching the app's middleware order.
 */
type RouteModule = { path: string; routes: (deps: AppDeps) => Hono<AppEnv> };

export const featureRoutes: RouteModule[] = [
  // feature routes: add one line per module below this comment
];
