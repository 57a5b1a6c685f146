/**
 * `npm run lint` step: fails when an import boundary is crossed (rules in import-rules.ts). Entries below
 * name violations another engineer is removing in parallel; delete an entry once its fix is merged (the
 * check reports entries that no longer match anything).
 */
import { fileURLToPath } from 'node:url';
import { type AllowEntry, applyAllowList, findViolations, formatViolation } from './import-rules';

const ALLOWED: readonly AllowEntry[] = [];

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
