import { availableParallelism } from 'node:os';
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
 * Process-tier files first: they are the longest and spend most of their time waiting on child processes
 * and emulator latency, so the short integration and unit files fill the other workers meanwhile.
 * (Vitest's own order is by project name, which put them last and made them the tail of every run.)
 */
class ProcessTierFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const first = (spec: TestSpecification) => (spec.project.name === 'process' ? 0 : 1);
    return sorted.sort((a, b) => first(a) - first(b));
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
    sequence: { sequencer: ProcessTierFirst },
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
