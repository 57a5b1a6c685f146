/**
 * `npm run lint` step: fails when an import boundary is crossed (rules in import-rules.ts). Entries below
 * name violations another engineer is removing in parallel; delete an entry once its fix is merged (the
 * check reports entries that no longer match anything).
 */
import { fileURLToPath } from 'node:url';
import { type AllowEntry, applyAllowList, findViolations, formatViolation } from './import-rules';

const store = (file: string, owner: string): AllowEntry => ({
  rule: 'sql-outside-store',
  file,
  todo: `${owner} moves its SQL into a store (issue 26)`,
});

/**
 * PENDING_STORE_MOVES: files still importing drizzle-orm outside a store while their owners move the SQL
 * out in parallel (session of issues 21-26). The lead empties this list at merge: every entry must be gone
 * (a stale entry fails the check, so a fixed file cannot stay listed).
 */
const PENDING_STORE_MOVES: readonly AllowEntry[] = [
  store('src/server/vault/backup-job.ts', 'H2 (vault)'),
  store('src/server/vault/backup-scheduler.ts', 'H2 (vault)'),
];

const ALLOWED: readonly AllowEntry[] = PENDING_STORE_MOVES;

const root = fileURLToPath(new URL('..', import.meta.url));
const { failing, allowed, stale } = applyAllowList(findViolations(root), ALLOWED);

for (const violation of allowed)
  console.warn(`allowed (see scripts/check-imports.ts): ${formatViolation(violation)}`);
for (const entry of stale)
  console.error(`allow-list entry matches nothing, remove it: ${entry.rule} ${entry.file}`);
for (const violation of failing) console.error(formatViolation(violation));
if (failing.length > 0 || stale.length > 0) {
  console.error(`\n${failing.length} import-rule violation(s).`);
  process.exit(1);
}
