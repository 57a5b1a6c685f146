/**
 * `npm run lint` step: fails when an import boundary is crossed (rules in import-rules.ts). An entry in
 * ALLOWED names a known exception with its reason; an entry that matches nothing fails the check.
 */
import { fileURLToPath } from 'node:url';
import { type AllowEntry, applyAllowList, findViolations, formatViolation } from './import-rules';

/** Known exceptions to the rules, each with its reason: none today. */
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
