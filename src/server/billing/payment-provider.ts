import type { Plan, SessionUser } from '../../shared/api/auth';
import type { Config } from '../config';

/** The plans a person can buy; Free is where everyone starts and needs no checkout. */
export type PaidPlan = Exclude<Plan, 'free'>;

/**
 * Where upgrades are paid. A Stripe-like implementation creates a hosted checkout session for the plan
 * and answers its URL; the provider's webhook (added with it) then sets `users.plan` once payment
 * clears, so a plan never changes on the browser's word alone.
 */
export interface PaymentProvider {
  readonly name: string;
  createCheckout(user: SessionUser, plan: PaidPlan): Promise<{ url: string }>;
}

/**
 * The payment provider this server is configured for, or null. No payment settings exist yet, so this
 * is always null; a provider is chosen here from `config` once they do (e.g. STRIPE_SECRET_KEY).
 */
export function resolvePaymentProvider(_config: Config): PaymentProvider | null {
  return null;
}
