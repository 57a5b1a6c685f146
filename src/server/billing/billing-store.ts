import { and, desc, eq, isNotNull, lt, lte, or } from 'drizzle-orm';
import type { Database } from '../db/client';
import {
  billingAccounts,
  billingEvents,
  planChanges,
  type StoredInvoice,
  stripeWebhookEndpoints,
} from '../db/schema';

/** The SQL of billing: a person's Stripe customer and subscription, events processed, plan changes. */

export type BillingAccount = typeof billingAccounts.$inferSelect;
export type PlanChangeRecord = typeof planChanges.$inferSelect;

export async function findBillingAccount(db: Database, userId: string): Promise<BillingAccount | undefined> {
  const [row] = await db.select().from(billingAccounts).where(eq(billingAccounts.userId, userId));
  return row;
}

export async function findBillingAccountByCustomer(
  db: Database,
  customerId: string,
): Promise<BillingAccount | undefined> {
  const [row] = await db.select().from(billingAccounts).where(eq(billingAccounts.customerId, customerId));
  return row;
}

export async function findBillingAccountByTestClock(
  db: Database,
  testClockId: string,
): Promise<BillingAccount | undefined> {
  const [row] = await db.select().from(billingAccounts).where(eq(billingAccounts.testClockId, testClockId));
  return row;
}

/** Ties the person to their Stripe customer (a row an operator's downgrade left gets the customer too). */
export async function saveCustomer(
  db: Database,
  input: { userId: string; customerId: string; testClockId: string | null },
): Promise<void> {
  await db
    .insert(billingAccounts)
    .values(input)
    .onConflictDoUpdate({
      target: billingAccounts.userId,
      set: { customerId: input.customerId, testClockId: input.testClockId, updatedAt: new Date() },
    });
}

/**
 * Stripe no longer knows the person's customer (deleted in the dashboard, or the sandbox's state reset):
 * the customer and its subscription are forgotten, so the next purchase starts afresh.
 */
export async function forgetCustomer(db: Database, userId: string, customerId: string): Promise<void> {
  await db
    .update(billingAccounts)
    .set({
      customerId: null,
      testClockId: null,
      subscriptionId: null,
      subscriptionPlan: null,
      billingInterval: null,
      subscriptionStatus: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      paymentFailedAt: null,
      graceEndsAt: null,
      stripeTime: null,
      updatedAt: new Date(),
    })
    .where(and(eq(billingAccounts.userId, userId), eq(billingAccounts.customerId, customerId)));
}

/** The subscription's state as Stripe last reported it. */
export interface SubscriptionFields {
  subscriptionId: string | null;
  subscriptionPlan: 'pro' | 'vault' | null;
  billingInterval: 'month' | 'year' | null;
  subscriptionStatus: string | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  paymentFailedAt: Date | null;
  graceEndsAt: Date | null;
  lastInvoice: StoredInvoice | null;
}

export async function saveSubscription(
  tx: Database,
  userId: string,
  fields: SubscriptionFields,
): Promise<void> {
  await tx
    .update(billingAccounts)
    .set({ ...fields, updatedAt: new Date() })
    .where(eq(billingAccounts.userId, userId));
}

/** Moves the customer's Stripe time on (never back): a test clock's frozen time. */
export async function saveStripeTime(tx: Database, userId: string, time: Date): Promise<void> {
  const account = await findBillingAccount(tx, userId);
  if (account?.stripeTime && account.stripeTime >= time) return;
  await tx.update(billingAccounts).set({ stripeTime: time }).where(eq(billingAccounts.userId, userId));
}

export async function saveBackupsKeptUntil(tx: Database, userId: string, until: Date | null): Promise<void> {
  await tx
    .insert(billingAccounts)
    .values({ userId, backupsKeptUntil: until })
    .onConflictDoUpdate({ target: billingAccounts.userId, set: { backupsKeptUntil: until } });
}

/**
 * Records a Stripe event as processed; false when it already was. Run inside the transaction of the
 * event's effect: a second process inserting the same id waits on the first one's row and then finds it,
 * so whichever commits first has the only effect.
 */
export async function recordEventOnce(
  tx: Database,
  event: { id: string; type: string; userId: string | null },
): Promise<boolean> {
  const inserted = await tx
    .insert(billingEvents)
    .values(event)
    .onConflictDoNothing({ target: billingEvents.id })
    .returning({ id: billingEvents.id });
  return inserted.length > 0;
}

/**
 * Forgets processed events older than `before`. Stripe retries a delivery for at most 3 days and a
 * signature is good for 5 minutes, so an id older than that can never be acted on again anyway.
 */
export async function pruneEventsBefore(db: Database, before: Date): Promise<number> {
  const removed = await db
    .delete(billingEvents)
    .where(lt(billingEvents.receivedAt, before))
    .returning({ id: billingEvents.id });
  return removed.length;
}

export async function isEventRecorded(db: Database, eventId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: billingEvents.id })
    .from(billingEvents)
    .where(eq(billingEvents.id, eventId));
  return Boolean(row);
}

export async function insertPlanChange(
  tx: Database,
  change: Omit<typeof planChanges.$inferInsert, 'id' | 'createdAt'>,
): Promise<PlanChangeRecord> {
  const [row] = await tx.insert(planChanges).values(change).returning();
  if (!row) throw new Error('plan change insert returned no row');
  return row;
}

export async function findPlanChange(db: Database, id: string): Promise<PlanChangeRecord | undefined> {
  const [row] = await db.select().from(planChanges).where(eq(planChanges.id, id));
  return row;
}

export async function latestPlanChange(db: Database, userId: string): Promise<PlanChangeRecord | undefined> {
  const [row] = await db
    .select()
    .from(planChanges)
    .where(eq(planChanges.userId, userId))
    .orderBy(desc(planChanges.createdAt))
    .limit(1);
  return row;
}

export async function listPlanChanges(db: Database, userId: string): Promise<PlanChangeRecord[]> {
  return db
    .select()
    .from(planChanges)
    .where(eq(planChanges.userId, userId))
    .orderBy(desc(planChanges.createdAt));
}

/**
 * Accounts with something due by time: a grace period that may have ended, or backups kept after
 * leaving Vault+ whose time may be up. Each is checked against the person's own time by the caller.
 */
export async function accountsWithDeadlines(db: Database, before: Date): Promise<BillingAccount[]> {
  return db
    .select()
    .from(billingAccounts)
    .where(
      or(
        and(isNotNull(billingAccounts.graceEndsAt), lte(billingAccounts.graceEndsAt, before)),
        and(isNotNull(billingAccounts.backupsKeptUntil), lte(billingAccounts.backupsKeptUntil, before)),
        // Test clocks run ahead of real time: their accounts are checked in their own time.
        and(
          isNotNull(billingAccounts.stripeTime),
          or(isNotNull(billingAccounts.graceEndsAt), isNotNull(billingAccounts.backupsKeptUntil)),
        ),
      ),
    );
}

export async function findWebhookEndpoint(db: Database, url: string) {
  const [row] = await db.select().from(stripeWebhookEndpoints).where(eq(stripeWebhookEndpoints.url, url));
  return row;
}

export async function saveWebhookEndpoint(
  db: Database,
  row: { url: string; endpointId: string; secretEncrypted: string },
): Promise<void> {
  await db
    .insert(stripeWebhookEndpoints)
    .values(row)
    .onConflictDoUpdate({
      target: stripeWebhookEndpoints.url,
      set: { endpointId: row.endpointId, secretEncrypted: row.secretEncrypted, createdAt: new Date() },
    });
}
