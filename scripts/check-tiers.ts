// `.ci/run` runs this after its test tiers: every test must have run in at least one of them. A test
// skipped in one tier (on PGlite, say, or without the archive CSV) is fine when another tier ran it; a
// test no tier ran is a failed CI run, and so is a tier whose report is missing or holds no test.
// Reports: Vitest's and Playwright's JSON reporters, written where CROSSFADE_TEST_REPORT says
// (vitest.config.ts, playwright.config.ts).
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface TestOutcome {
  /** The file (relative to the repository) and the titles down to the test. */
  id: string;
  ran: boolean;
}

interface VitestReport {
  testResults: {
    name: string;
    assertionResults: { ancestorTitles: string[]; title: string; status: string }[];
  }[];
}

interface PlaywrightSuite {
  title: string;
  file?: string;
  specs?: { title: string; file: string; tests: { status: string }[] }[];
  suites?: PlaywrightSuite[];
}
interface PlaywrightReport {
  config: { rootDir: string };
  suites: PlaywrightSuite[];
}

const idOf = (file: string, titles: string[]) => [file, ...titles].join(' > ');

/** A Vitest JSON report: a test ran when it passed or failed (not skipped, pending or todo). */
export function vitestOutcomes(report: VitestReport, root: string): TestOutcome[] {
  return report.testResults.flatMap((file) =>
    file.assertionResults.map((test) => ({
      id: idOf(relative(root, file.name), [...test.ancestorTitles, test.title]),
      ran: test.status === 'passed' || test.status === 'failed',
    })),
  );
}

/** A Playwright JSON report: a test ran unless its status is `skipped`. */
export function playwrightOutcomes(report: PlaywrightReport, root: string): TestOutcome[] {
  const walk = (suite: PlaywrightSuite, titles: string[]): TestOutcome[] => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests.map((test) => ({
        id: idOf(relative(root, join(report.config.rootDir, spec.file)), [...titles, spec.title]),
        ran: test.status !== 'skipped',
      })),
    ),
    ...(suite.suites ?? []).flatMap((inner) => walk(inner, [...titles, inner.title])),
  ];
  // The top suites are the files; their titles are the file names, already in the id.
  return report.suites.flatMap((file) => walk(file, []));
}

/** Reads one tier's report, whichever runner wrote it. */
export function outcomesOf(report: unknown, root: string): TestOutcome[] {
  if (report && typeof report === 'object' && 'testResults' in report)
    return vitestOutcomes(report as VitestReport, root);
  if (report && typeof report === 'object' && 'suites' in report && 'config' in report)
    return playwrightOutcomes(report as PlaywrightReport, root);
  throw new Error('not a Vitest or Playwright JSON report');
}

/** The tests that ran in no tier, and the tiers that ran no test at all. */
export function checkTiers(tiers: { name: string; outcomes: TestOutcome[] }[]) {
  const ranSomewhere = new Map<string, boolean>();
  for (const tier of tiers)
    for (const outcome of tier.outcomes)
      ranSomewhere.set(outcome.id, (ranSomewhere.get(outcome.id) ?? false) || outcome.ran);
  return {
    neverRan: [...ranSomewhere].filter(([, ran]) => !ran).map(([id]) => id),
    emptyTiers: tiers
      .filter((tier) => !tier.outcomes.some((outcome) => outcome.ran))
      .map((tier) => tier.name),
    total: ranSomewhere.size,
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
  const files = process.argv.slice(2);
  if (files.length === 0) {
    console.error('usage: tsx scripts/check-tiers.ts REPORT.json…  (one JSON report per test tier)');
    process.exit(2);
  }
  const tiers: { name: string; outcomes: TestOutcome[] }[] = [];
  for (const file of files) {
    try {
      tiers.push({ name: file, outcomes: outcomesOf(JSON.parse(readFileSync(file, 'utf8')), root) });
    } catch (error) {
      console.error(`check-tiers: the report ${file} cannot be read: ${(error as Error).message}`);
      process.exit(1);
    }
  }
  const { neverRan, emptyTiers, total } = checkTiers(tiers);
  for (const tier of emptyTiers) console.error(`check-tiers: the tier of ${tier} ran no test`);
  for (const id of neverRan) console.error(`check-tiers: ran in no tier: ${id}`);
  if (neverRan.length > 0 || emptyTiers.length > 0) {
    console.error(
      `check-tiers: ${neverRan.length} test(s) ran in none of the ${tiers.length} tiers, ${emptyTiers.length} tier(s) ran nothing.`,
    );
    process.exit(1);
  }
  console.log(`check-tiers: each of ${total} tests ran in at least one of ${tiers.length} tiers.`);
}
