import type { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../app-context';
import { accountRoutes } from './account-routes';
import { backupRoutes } from './backup-routes';
import { exportRoutes } from './export-routes';
import { insightRoutes } from './insight-routes';
import { linkRoutes } from './link-routes';
import { mergeRoutes } from './merge-routes';
import { onboardingRoutes } from './onboarding-routes';
import { recreateRoutes } from './recreate-routes';
import { regionRoutes } from './region-routes';

/**
 * Feature route modules mounted under /api, one line each. Kept apart from app.ts so a feature is added
 * by adding its module here, without touching the app's middleware order.
 */
type RouteModule = { path: string; routes: (deps: AppDeps) => Hono<AppEnv> };

export const featureRoutes: RouteModule[] = [
  // feature routes: add one line per module below this comment
  { path: '/', routes: accountRoutes },
  { path: '/', routes: backupRoutes },
  { path: '/', routes: linkRoutes },
  { path: '/', routes: onboardingRoutes },
  { path: '/', routes: recreateRoutes },
  { path: '/', routes: insightRoutes },
  { path: '/', routes: exportRoutes },
  { path: '/', routes: mergeRoutes },
  { path: '/', routes: regionRoutes },
];
