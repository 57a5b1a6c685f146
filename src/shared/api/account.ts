import { z } from 'zod';
import { serviceIdSchema } from '../services';
import { text } from '../text';
import { type Plan, planSchema } from './auth';
import { FREE_TRANSFERS_PER_PERIOD } from './plans';

/** GET /api/account: the signed-in person's profile and connected services (never their tokens). */
export const accountConnectionSchema = z.object({
  service: serviceIdSchema,
  displayName: text().nullable(),
  region: text().nullable(),
  authorizedAt: text(),
});
export type AccountConnection = z.infer<typeof accountConnectionSchema>;

export const accountProfileSchema = z.object({
  id: text(),
  username: text(),
  email: text(),
  plan: planSchema,
  publicProfile: z.boolean(),
  createdAt: text(),
  connections: z.array(accountConnectionSchema),
});
export type AccountProfile = z.infer<typeof accountProfileSchema>;

/** PATCH /api/account */
export const accountUpdateSchema = z.object({
  publicProfile: z.boolean({ error: 'publicProfile must be true or false' }),
});
export type AccountUpdate = z.infer<typeof accountUpdateSchema>;

/** DELETE /api/account: the person types their username to confirm. */
export const accountDeleteSchema = z.object({
  confirmUsername: text({ error: 'Type your username to confirm' })
    .trim()
    .min(1, 'Type your username to confirm')
    .max(64, 'Type your username to confirm'),
});
export type AccountDelete = z.infer<typeof accountDeleteSchema>;

/** The file GET /api/account/export downloads. */
export const ACCOUNT_EXPORT_FILE_NAME = 'crossfade-my-data.json';

/** Plans side by side, shown on /pricing; the server enforces them (src/server/plans/plan-limits.ts). */
export interface PlanOffer {
  plan: Plan;
  name: string;
  tagline: string;
}

export const PLAN_OFFERS: PlanOffer[] = [
  { plan: 'free', name: 'Free', tagline: 'Try Crossfade with one playlist a month.' },
  { plan: 'pro', name: 'Pro', tagline: 'Move your whole library, as often as you like.' },
  { plan: 'vault', name: 'Vault+', tagline: 'Everything in Pro, plus a safety net for your library.' },
];

/** A row of the comparison: text, or true/false for "included". */
export interface PlanFeature {
  label: string;
  values: Record<Plan, string | boolean>;
}

export const PLAN_FEATURES: PlanFeature[] = [
  {
    label: 'Playlist transfers',
    values: { free: `${FREE_TRANSFERS_PER_PERIOD} a month`, pro: 'Unlimited', vault: 'Unlimited' },
  },
  { label: 'Match review and fixing matches by hand', values: { free: true, pro: true, vault: true } },
  { label: 'CSV download of every transfer', values: { free: true, pro: true, vault: true } },
  {
    label: 'Playlists kept in sync (hourly, daily or weekly)',
    values: { free: false, pro: true, vault: true },
  },
  { label: 'Daily backups of your playlists', values: { free: false, pro: false, vault: true } },
  { label: 'Restore a backed-up playlist', values: { free: false, pro: false, vault: true } },
  { label: 'ZIP export and cloud save', values: { free: false, pro: false, vault: true } },
];
