import type { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../app-context';
import { accountRoutes } from './account-routes';
import { authRoutes } from './auth-routes';
import { batchRoutes } from './batch-routes';
import { billingRoutes, billingWebhookRoutes } from './billing-routes';
import { connectionRoutes } from './connection-routes';
import { eventRoutes } from './event-routes';
import { exportRoutes } from './export-routes';
import { geoLockRoutes } from './geo-lock-routes';
import { healthRoutes } from './health-routes';
import { historyRoutes } from './history-routes';
import { linkRoutes } from './link-routes';
import { matchRuleRoutes } from './match-rule-routes';
import { mergeRoutes } from './merge-routes';
import { onboardingRoutes } from './onboarding-routes';
import { playlistRoutes } from './playlist-routes';
import { recreateRoutes } from './recreate-routes';
import { syncRoutes } from './sync-routes';
import { transferRoutes } from './transfer-routes';
import { vaultRoutes } from './vault-routes';
import { visualizationRoutes } from './visualization-routes';

/**
 * Every route module of /api, mounted by app.ts in one loop, in this order. A module's own paths are
 * written in full (`/links/:id`, `/claude/merge-playlists`), so most mount at `/`; the prefix is used
 * where a module serves one area (`/auth`, `/events`).
 */
export interface RouteModule {
  path: string;
  routes: (deps: AppDeps) => Hono<AppEnv>;
  /** Mounted before the session and CSRF middleware (load balancers' health checks carry no cookies). */
  beforeSession?: true;
}

export const apiRoutes: readonly RouteModule[] = [
  { path: '/health', routes: healthRoutes, beforeSession: true },
  { path: '/billing/webhook', routes: billingWebhookRoutes, beforeSession: true },
  { path: '/auth', routes: authRoutes },
  { path: '/auth', routes: connectionRoutes },
  { path: '/events', routes: eventRoutes },
  { path: '/', routes: playlistRoutes },
  { path: '/', routes: transferRoutes },
  { path: '/', routes: matchRuleRoutes },
  { path: '/', routes: batchRoutes },
  { path: '/', routes: accountRoutes },
  { path: '/', routes: billingRoutes },
  { path: '/', routes: vaultRoutes },
  { path: '/', routes: syncRoutes },
  { path: '/', routes: historyRoutes },
  { path: '/', routes: linkRoutes },
  { path: '/', routes: onboardingRoutes },
  { path: '/', routes: recreateRoutes },
  { path: '/', routes: visualizationRoutes },
  { path: '/', routes: exportRoutes },
  { path: '/', routes: mergeRoutes },
  { path: '/', routes: geoLockRoutes },
];
