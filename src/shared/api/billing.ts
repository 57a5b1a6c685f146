import { z } from 'zod';
import { text } from '../text';
import { PLAN_LABELS, type Plan, planSchema } from './auth';

/**
 * Billing (issue 22, decision 0025): buying, changing and cancelling Pro and Vault+ through Stripe (or its
 * emulator in sandbox mode). Plans change only from Stripe's verified webhooks; these are the calls the
 * pages make and what a change does, in the words the pages and the e-mails use before and after it.
 */
export const paidPlanSchema = z.enum(['pro', 'vault'], { error: 'Choose the Pro or Vault+ plan' });
export type PaidPlan = z.infer<typeof paidPlanSchema>;

export const billingIntervalSchema = z.enum(['month', 'year'], { error: 'The interval is month or year' });
export type BillingInterval = z.infer<typeof billingIntervalSchema>;

/** POST /api/billing/checkout: answers the hosted checkout's address (or the portal's, to switch a plan). */
export const checkoutRequestSchema = z.object({
  plan: paidPlanSchema,
  interval: billingIntervalSchema.optional(),
});
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

/** POST /api/billing/checkout and POST /api/billing/portal answer where to send the browser. */
export const billingRedirectSchema = z.object({ url: text() });
export type BillingRedirect = z.infer<typeof billingRedirectSchema>;

/** One price of a paid plan, read from Stripe: amounts in the currency's minor unit (cents). */
export const planPriceSchema = z.object({
  plan: paidPlanSchema,
  interval: billingIntervalSchema,
  amount: z.number().int(),
  currency: text(),
});
export type PlanPrice = z.infer<typeof planPriceSchema>;

/** GET /api/billing/prices (signed out too): what /pricing shows, and whether payments are real. */
export const billingPricesSchema = z.object({
  payments: z.enum(['stripe', 'sandbox']),
  prices: z.array(planPriceSchema),
});
export type BillingPrices = z.infer<typeof billingPricesSchema>;

export const planChangeReasonSchema = z.enum([
  'checkout',
  'plan_changed',
  'subscription_ended',
  'grace_ended',
  'payment_recovered',
  'operator',
]);
export type PlanChangeReason = z.infer<typeof planChangeReasonSchema>;

/** GET /api/billing: the person's plan and subscription as the last verified webhook left them. */
export const billingSchema = z.object({
  plan: planSchema,
  payments: z.enum(['stripe', 'sandbox']),
  /** A Stripe customer exists: "Manage billing" opens the customer portal. */
  canManage: z.boolean(),
  subscription: z
    .object({
      plan: paidPlanSchema,
      interval: billingIntervalSchema.nullable(),
      status: text(),
      /** When it renews, or ends when `cancelAtPeriodEnd` (ISO). */
      currentPeriodEnd: text().nullable(),
      cancelAtPeriodEnd: z.boolean(),
    })
    .nullable(),
  /** A renewal failed: the plan stays until `graceEndsAt`, then the person is on Free. */
  paymentProblem: z.object({ failedAt: text(), graceEndsAt: text() }).nullable(),
  lastInvoice: z
    .object({
      amount: z.number().int(),
      currency: text(),
      status: text(),
      createdAt: text(),
      url: text().nullable(),
    })
    .nullable(),
  /** The latest change of plan and what it did. */
  lastChange: z
    .object({
      from: planSchema,
      to: planSchema,
      reason: planChangeReasonSchema,
      effectiveAt: text(),
      syncsPaused: z.number().int(),
      syncsResumed: z.number().int(),
      backupsKeptUntil: text().nullable(),
    })
    .nullable(),
  /** Syncs paused now because the plan does not include sync; they start again on Pro. */
  pausedSyncs: z.number().int(),
  /** After leaving Vault+: backups stay readable and downloadable until then (ISO). */
  backupsKeptUntil: text().nullable(),
});
export type Billing = z.infer<typeof billingSchema>;

/** GET /api/billing/checkout/{sessionId}: the return page waits for `done`. */
export const checkoutStatusSchema = z.object({
  /** `paid`: Stripe took the payment, Crossfade waits for its webhook; `done`: the plan changed. */
  status: z.enum(['open', 'paid', 'done', 'expired']),
  plan: planSchema,
  purchased: paidPlanSchema.nullable(),
});
export type CheckoutStatus = z.infer<typeof checkoutStatusSchema>;

// ── What a change does, said before it happens ──────────────────────────────────────────────────────

const RANK: Record<Plan, number> = { free: 0, pro: 1, vault: 2 };

export const isUpgrade = (from: Plan, to: Plan) => RANK[to] > RANK[from];

/** Days a person keeps the plan after a renewal fails, with a banner, before moving to Free. */
export const GRACE_DAYS = 7;
/** Days backups stay readable and downloadable after leaving Vault+, before they are deleted. */
export const BACKUP_KEEP_DAYS = 30;

/** What leaving `from` for `to` does, one sentence each (empty for an upgrade). */
export function downgradeEffects(from: Plan, to: Plan): string[] {
  const effects: string[] = [];
  if (from !== 'free' && to === 'free') {
    effects.push(
      'Your syncs pause: they are kept, not deleted, and start again when you are on Pro or Vault+.',
    );
    effects.push('Batches and restores already running finish.');
    effects.push('You are back to 1 transfer a month.');
  }
  if (from === 'vault' && to !== 'vault') {
    effects.push('Daily backups stop.');
    effects.push(
      `Your backups stay readable and downloadable for ${BACKUP_KEEP_DAYS} days, then they are deleted.`,
    );
  }
  return effects;
}

/** What the person gets with `plan` (shown after an upgrade). */
export const PLAN_GAINS: Record<PaidPlan, string[]> = {
  pro: ['Unlimited transfers', 'Several playlists in one batch', 'Playlists kept in sync'],
  vault: ['Everything in Pro', 'Daily backups of your playlists, and restore', 'ZIP export and cloud save'],
};

/** The sentence said before a plan is bought or switched to, on /pricing. */
export function changeSummary(from: Plan, to: PaidPlan, renews: BillingInterval): string {
  const name = PLAN_LABELS[to];
  if (from === 'free') {
    return `${name} starts as soon as your payment goes through and renews every ${renews} until you cancel.`;
  }
  if (isUpgrade(from, to)) {
    return `Switching to ${name} takes effect at once; you pay the difference for the rest of this period today.`;
  }
  return `Switching to ${name} takes effect at once; the unused part of ${PLAN_LABELS[from]} is credited to your next invoices.`;
}

export const BILLING_WEBHOOK_PATH = '/api/billing/webhook';
