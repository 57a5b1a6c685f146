import { defineConfig } from 'vitest/config';

// Tests sit beside the code, in three tiers named by their file suffix:
//   unit         `*.test.ts`          pure: no database, no network, no child process (`npm run test:unit`)
//   integration  `*.int.test.ts`      the real database and real HTTP on loopback
//   process      `*.process.test.ts`  child processes, SIGKILL, real rate-limit waits
// `npm test` runs all three. Database tests use PGlite in memory by default; `npm run test:pg` runs the
// integration and process tiers against the real PostgreSQL (TEST_DATABASE=postgres).
const INTEGRATION = ['src/**/*.int.test.ts', 'scripts/**/*.int.test.ts'];
// Migrates one PGlite database per run; every database test file starts from a copy of it.
const TEMPLATE = 'src/server/testing/pglite-template.ts';
const PROCESS = ['src/**/*.process.test.ts', 'scripts/**/*.process.test.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: [...INTEGRATION, ...PROCESS],
        },
      },
      { extends: true, test: { name: 'integration', include: INTEGRATION, globalSetup: [TEMPLATE] } },
      { extends: true, test: { name: 'process', include: PROCESS, globalSetup: [TEMPLATE] } },
    ],
  },
});
