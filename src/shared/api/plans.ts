import { z } from 'zod';
import { text } from '../text';
import { planSchema } from './auth';

/** Spec sections 1 and 9: the free plan allows one transfer per month; Pro and Vault+ are unlimited. */
export const FREE_TRANSFERS_PER_PERIOD = 1;
export const PLAN_PERIOD_DAYS = 30;

const DAY_MS = 24 * 60 * 60_000;

/**
 * "Resets in N days" as the spec words it: whole days still to wait, so right after a transfer the free
 * plan "resets in 29 days" (29 days and some hours of the rolling 30), and on the last day "in 1 day".
 */
export function daysUntilReset(resetsAt: Date, now = new Date()): number {
  return Math.max(1, Math.floor((resetsAt.getTime() - now.getTime()) / DAY_MS));
}

export const usageSchema = z.object({
  plan: planSchema,
  transfersUsed: z.number(),
  /** null = unlimited. */
  transfersAllowed: z.number().nullable(),
  /** When the oldest counted transfer leaves the window (ISO), null when nothing is counted. */
  resetsAt: text().nullable(),
});
export type Usage = z.infer<typeof usageSchema>;
