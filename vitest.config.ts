import { defineConfig } from 'vitest/config';

// Unit and integration tests sit beside the code (`*.test.ts`). Database tests use PGlite in memory by
// default; `npm run test:pg` runs the same files against the real PostgreSQL (TEST_DATABASE=postgres).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
