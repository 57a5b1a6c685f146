import { and, desc, eq } from 'drizzle-orm';
import type { ServiceId } from '../../shared/services';
import type { Database } from '../db/client';
import { matchRules } from '../db/schema';
import type { NormalizedTrack } from '../providers/types';

/** The SQL of match rules (issue 14); what a rule means is in match-rules.ts. */

export type RuleRecord = typeof matchRules.$inferSelect;

export interface RuleScope {
  userId: string;
  sourceService: ServiceId;
  destinationService: ServiceId;
}

/** Inserts or replaces the rule for one source key in one scope. */
export async function upsertRule(
  db: Database,
  scope: RuleScope,
  sourceKey: string,
  source: NormalizedTrack,
  destination: NormalizedTrack | null,
): Promise<void> {
  const action = destination ? ('choose' as const) : ('skip' as const);
  await db
    .insert(matchRules)
    .values({ ...scope, sourceKey, source, action, destination })
    .onConflictDoUpdate({
      target: [
        matchRules.userId,
        matchRules.sourceService,
        matchRules.destinationService,
        matchRules.sourceKey,
      ],
      set: { source, action, destination, updatedAt: new Date() },
    });
}

export async function deleteRuleByKey(db: Database, scope: RuleScope, sourceKey: string): Promise<void> {
  await db
    .delete(matchRules)
    .where(
      and(
        eq(matchRules.userId, scope.userId),
        eq(matchRules.sourceService, scope.sourceService),
        eq(matchRules.destinationService, scope.destinationService),
        eq(matchRules.sourceKey, sourceKey),
      ),
    );
}

/** Every rule of one pair of services. */
export function selectScopeRules(db: Database, scope: RuleScope): Promise<RuleRecord[]> {
  return db
    .select()
    .from(matchRules)
    .where(
      and(
        eq(matchRules.userId, scope.userId),
        eq(matchRules.sourceService, scope.sourceService),
        eq(matchRules.destinationService, scope.destinationService),
      ),
    );
}

/** Every rule of the person, newest first. */
export function selectUserRules(db: Database, userId: string): Promise<RuleRecord[]> {
  return db
    .select()
    .from(matchRules)
    .where(eq(matchRules.userId, userId))
    .orderBy(desc(matchRules.updatedAt));
}

export async function findUserRule(
  db: Database,
  userId: string,
  ruleId: string,
): Promise<RuleRecord | undefined> {
  const [rule] = await db
    .select()
    .from(matchRules)
    .where(and(eq(matchRules.id, ruleId), eq(matchRules.userId, userId)));
  return rule;
}

export async function updateUserRule(
  db: Database,
  userId: string,
  ruleId: string,
  destination: NormalizedTrack | null,
): Promise<RuleRecord | undefined> {
  const [updated] = await db
    .update(matchRules)
    .set({ action: destination ? 'choose' : 'skip', destination, updatedAt: new Date() })
    .where(and(eq(matchRules.id, ruleId), eq(matchRules.userId, userId)))
    .returning();
  return updated;
}

/** True when the person's rule existed and is gone. */
export async function deleteUserRule(db: Database, userId: string, ruleId: string): Promise<boolean> {
  const deleted = await db
    .delete(matchRules)
    .where(and(eq(matchRules.id, ruleId), eq(matchRules.userId, userId)))
    .returning({ id: matchRules.id });
  return deleted.length > 0;
}
