// TODO(issue 26, lead at merge): remove once src/server/matching/pipeline.emulators.int.test.ts (owned by
// another engineer this session) imports from src/server/testing/apple-sandbox.ts, where the helper lives.
export { startAppleSandbox } from '../../testing/apple-sandbox';
