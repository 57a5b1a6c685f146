import { PAYMENTS_NOT_SET_UP, planCommand } from '../../shared/api/account';
import type { SessionUser } from '../../shared/api/auth';
import { badRequest, notConfigured } from '../domain-errors';
import type { PaidPlan, PaymentProvider } from './payment-provider';

/**
 * Starts an upgrade. Without a payment provider the answer is a 503 that tells the person (and the
 * operator reading over their shoulder) how the plan can still be changed.
 */
export async function startCheckout(
  provider: PaymentProvider | null,
  user: SessionUser,
  plan: PaidPlan,
): Promise<{ url: string }> {
  if (user.plan === plan) throw badRequest('You are already on this plan.');
  if (!provider) {
    throw notConfigured(
      `${PAYMENTS_NOT_SET_UP} An operator can change your plan with: ${planCommand(user.username, plan)}`,
    );
  }
  return provider.createCheckout(user, plan);
}
