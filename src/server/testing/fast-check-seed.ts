import fc from 'fast-check';

/**
 * Vitest set-up of every tier: property tests run from a fixed seed (issue 26), so a run never passes or
 * fails by luck and a counterexample found once is found every time. To explore, change the seed on
 * purpose, and keep any case it finds as a test of its own. A test may still give its own `seed`.
 */
fc.configureGlobal({ seed: 20_261_128 });
