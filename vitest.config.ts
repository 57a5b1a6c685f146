import { availableParallelism } from 'node:os';
import { relative, sep } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Tests sit beside the code, in three tiers named by their file suffix:
//   unit         `*.test.ts`          pure: no database, no network, no child process (`npm run test:unit`)
//   integration  `*.int.test.ts`      the real database and real HTTP on loopback
//   process      `*.process.test.ts`  child processes, SIGKILL, real rate-limit waits
// `npm test` runs all three. Database tests use PGlite in memory by default; `npm run test:pg` runs the
// integration and process tiers against the real PostgreSQL (TEST_DATABASE=postgres).
const INTEGRATION = ['src/**/*.int.test.ts', 'scripts/**/*.int.test.ts'];
// Migrates one PGlite database per run; every database test file starts from a copy of it.
const TEMPLATE = 'src/server/testing/pglite-template.ts';
const SERVER_BUNDLE = 'src/server/testing/server-bundle.ts';
const PROCESS = ['src/**/*.process.test.ts', 'scripts/**/*.process.test.ts'];
// `.ci/run` asks each tier for a JSON report (CROSSFADE_TEST_REPORT names the file) beside the usual
// output, for its check that every test ran in some tier (scripts/check-tiers.ts).
const REPORT = process.env.CROSSFADE_TEST_REPORT;

/**
 * The slowest files, slowest first, with their seconds alone on a 2-core machine: they start before any
 * other, so none of them begins late and ends the run (a 55 s file begun at 100 s ends it at 155 s).
 * Vitest's own order knows durations only from a local cache, which a fresh clone (CI) does not have.
 * Re-measure with `npx vitest run --reporter=json` when a file gets much slower or faster.
 */
const SLOWEST: Record<string, number> = {
  'src/server/transfers/huge-library.process.test.ts': 600,
  'src/server/transfers/fault-storm.process.test.ts': 69,
  'src/server/batches/batch-kill-and-resume.process.test.ts': 65,
  'src/server/syncs/two-way-sync.int.test.ts': 55,
  'src/server/syncs/two-way-kill-random.process.test.ts': 60,
  'src/server/syncs/two-way-kill.process.test.ts': 46,
  'src/server/account/account-api.int.test.ts': 38,
  'src/server/links/links-api.int.test.ts': 38,
  'src/server/syncs/two-way-property.int.test.ts': 35,
  'src/cli/match-files.process.test.ts': 30,
  'src/sandbox/main.process.test.ts': 25,
  'src/server/service-urls/open-links.int.test.ts': 21,
};

/**
 * The slowest files first (SLOWEST), then the other process-tier files: they spend most of their time
 * waiting on child processes and emulator latency, so the short integration and unit files fill the other
 * workers meanwhile. (Vitest's own order is by project name, which put them last and made them the tail of
 * every run.)
 */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const seconds = (spec: TestSpecification) =>
      SLOWEST[relative(spec.project.config.root, spec.moduleId).split(sep).join('/')] ?? 0;
    const tier = (spec: TestSpecification) => (spec.project.name === 'process' ? 0 : 1);
    return sorted.sort((a, b) => seconds(b) - seconds(a) || tier(a) - tier(b));
  }
}

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker per core minus one: a single worker on a 2-core machine, so every
    // file ran after the other. Most database and process tests wait on I/O, so four share two cores well.
    maxWorkers: Math.min(8, Math.max(4, availableParallelism())),
    sequence: { sequencer: SlowestFirst },
    // Property tests from a fixed seed: no run depends on luck.
    setupFiles: ['src/server/testing/fast-check-seed.ts'],
    ...(REPORT ? { reporters: ['default', 'json'], outputFile: { json: REPORT } } : {}),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: [...INTEGRATION, ...PROCESS],
          isolate: false,
        },
      },
      {
        extends: true,
        // Files share their worker's module cache (each still builds its own app, database and emulators):
        // loading the server's modules once per worker instead of once per file saves minutes of CPU.
        test: { name: 'integration', include: INTEGRATION, globalSetup: [TEMPLATE], isolate: false },
      },
      // The process tier's child processes run the compiled server, built once per run (server-bundle.ts).
      // Its files share their worker's module cache too: each imports the test helpers (and through them
      // the server's modules) once per worker, not once per file (process tier 183 s -> 153 s of CPU).
      {
        extends: true,
        test: { name: 'process', include: PROCESS, globalSetup: [TEMPLATE, SERVER_BUNDLE], isolate: false },
      },
    ],
  },
});
