import { z } from 'zod';
import { text } from '../text';
import { planSchema } from './auth';

/** Spec sections 1 and 9: the free plan allows one transfer per month; Pro and Vault+ are unlimited. */
export const FREE_TRANSFERS_PER_PERIOD = 1;
export const PLAN_PERIOD_DAYS = 30;

export const usageSchema = z.object({
  plan: planSchema,
  transfersUsed: z.number(),
  /** null = unlimited. */
  transfersAllowed: z.number().nullable(),
  /** When the oldest counted transfer leaves the window (ISO), null when nothing is counted. */
  resetsAt: text().nullable(),
});
export type Usage = z.infer<typeof usageSchema>;
