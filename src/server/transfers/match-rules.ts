import {
  type MatchRule,
  type MatchRuleEdit,
  matchRuleIdSchema,
  YOUR_RULE_REASON,
} from '../../shared/api/match-rules';
import type { AppDeps } from '../app-context';
import type { Database } from '../db/client';
import type { StoredCandidate } from '../db/stored-json';
import { badRequest, notFound } from '../domain-errors';
import { normalizeIsrc } from '../matching/isrc';
import { foldText } from '../matching/normalize';
import { prepareTrack } from '../matching/prepare';
import { scoreCandidate } from '../matching/score';
import { toTrackDto } from '../playlists/source-playlists';
import type { NormalizedTrack } from '../providers/types';
import { searchAgainstSource } from './manual-search';
import {
  deleteRuleByKey,
  deleteUserRule,
  findUserRule,
  type RuleRecord,
  type RuleScope,
  selectScopeRules,
  selectUserRules,
  updateUserRule,
  upsertRule,
} from './match-rule-store';

/**
 * Match rules (issue 14): every fix a person makes on a match row is remembered, keyed by the source
 * recording (its ISRC when known, else its folded title and artists), and every later match from the same
 * source service to the same destination applies it before anyone has to look at the row again.
 */

/** The key a source track's rule is stored under: `isrc:<ISRC>`, or `text:<title>|<artists>`. */
export function ruleKeyOf(track: Pick<NormalizedTrack, 'isrc' | 'name' | 'artists'>): string {
  const isrc = normalizeIsrc(track.isrc);
  if (isrc) return `isrc:${isrc}`;
  const artists = track.artists.map(foldText).sort().join(',');
  return `text:${foldText(track.name)}|${artists}`;
}

/** Remembers the person's choice for this source track: a destination track, or null for "skip". */
export async function rememberRule(
  db: Database,
  scope: RuleScope,
  source: NormalizedTrack,
  destination: NormalizedTrack | null,
): Promise<void> {
  await upsertRule(db, scope, ruleKeyOf(source), source, destination);
}

/** Forgets the rule for this source track (the person reset the row to the engine's answer). */
export async function forgetRule(db: Database, scope: RuleScope, source: NormalizedTrack): Promise<void> {
  await deleteRuleByKey(db, scope, ruleKeyOf(source));
}

/** The person's rules for one pair of services, by source key, for a match run to apply. */
export async function loadRules(db: Database, scope: RuleScope): Promise<Map<string, RuleRecord>> {
  const rows = await selectScopeRules(db, scope);
  return new Map(rows.map((rule) => [rule.sourceKey, rule]));
}

/**
 * What a rule makes of a matched row: the person's destination track, accepted, or the row skipped.
 * The engine's candidates stay (after the rule's track), so resetting the row gives the engine's answer.
 */
export function ruledRow<Row extends { source: NormalizedTrack; candidates: StoredCandidate[] }>(
  row: Row,
  rule: RuleRecord,
) {
  if (rule.action === 'skip' || !rule.destination) {
    return {
      ...row,
      chosenId: null,
      confidence: 0,
      status: 'skipped' as const,
      reasons: [YOUR_RULE_REASON, 'Not on this service'],
      decidedBy: 'person' as const,
    };
  }
  const track = rule.destination;
  const scored = scoreCandidate(prepareTrack(row.source), prepareTrack(track));
  const picked: StoredCandidate = {
    track,
    confidence: scored.confidence,
    reasons: [YOUR_RULE_REASON, ...scored.reasons],
    versionLabels: [...scored.versionLabels],
    sameVersion: scored.sameVersion,
  };
  return {
    ...row,
    candidates: [picked, ...row.candidates.filter((candidate) => candidate.track.id !== track.id)],
    chosenId: track.id,
    confidence: picked.confidence,
    status: 'accepted' as const,
    reasons: picked.reasons,
    decidedBy: 'person' as const,
  };
}

function toMatchRule(rule: RuleRecord): MatchRule {
  return {
    id: rule.id,
    sourceService: rule.sourceService,
    destinationService: rule.destinationService,
    sourceTrack: toTrackDto(rule.source),
    action: rule.action,
    destinationTrack: rule.destination ? toTrackDto(rule.destination) : null,
    createdAt: rule.createdAt.toISOString(),
    updatedAt: rule.updatedAt.toISOString(),
  };
}

/** GET /api/match-rules: the person's rules, newest first. */
export async function listRules(db: Database, userId: string): Promise<MatchRule[]> {
  const rows = await selectUserRules(db, userId);
  return rows.map(toMatchRule);
}

const RULE_NOT_FOUND = 'That match rule does not exist.';

/** The person's own rule, or a 404 (another person's rule is as unknown as one that never existed). */
async function ownedRule(db: Database, userId: string, ruleId: string): Promise<RuleRecord> {
  const parsed = matchRuleIdSchema.safeParse(ruleId);
  if (!parsed.success) throw notFound(RULE_NOT_FOUND);
  const rule = await findUserRule(db, userId, parsed.data);
  if (!rule) throw notFound(RULE_NOT_FOUND);
  return rule;
}

/** GET /api/match-rules/:id/search?q=: destination tracks for the rule's song, scored against it. */
export async function searchForRule(deps: AppDeps, userId: string, ruleId: string, text: string) {
  const rule = await ownedRule(deps.db, userId, ruleId);
  return searchAgainstSource(deps, userId, rule.destinationService, rule.source, text);
}

/**
 * PATCH /api/match-rules/:id: "not on this service", or always this destination track. A chosen track is
 * read from the destination service by its id, so a rule only ever holds a track the service really has.
 */
export async function editRule(
  deps: AppDeps,
  userId: string,
  ruleId: string,
  edit: MatchRuleEdit,
): Promise<MatchRule> {
  const rule = await ownedRule(deps.db, userId, ruleId);
  let destination: NormalizedTrack | null = null;
  if (edit.action === 'choose') {
    const provider = await deps.providers.forUser(userId, rule.destinationService);
    destination = await provider.getTrack(edit.trackId);
    if (!destination) throw badRequest('That track was not found on the destination service.');
  }
  const updated = await updateUserRule(deps.db, userId, rule.id, destination);
  if (!updated) throw notFound(RULE_NOT_FOUND);
  return toMatchRule(updated);
}

/** DELETE /api/match-rules/:id: later matches no longer apply it (rows already matched keep their choice). */
export async function deleteRule(db: Database, userId: string, ruleId: string): Promise<void> {
  const parsed = matchRuleIdSchema.safeParse(ruleId);
  if (!parsed.success) throw notFound(RULE_NOT_FOUND);
  if (!(await deleteUserRule(db, userId, parsed.data))) throw notFound(RULE_NOT_FOUND);
}
