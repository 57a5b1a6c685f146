/**
 * Rate limits for tests that are not about them: high enough that a test file signing up many accounts
 * from one address or sending many events never meets them, still on (the code path runs). Limit tests
 * pass their own tight values over these.
 */
export const ROOMY_LIMITS: Record<string, string> = {
  SIGNUP_LIMIT_PER_HOUR: '10000',
  LINK_SIGNUP_LIMIT_PER_HOUR: '10000',
  MERGE_INVITATIONS_PER_DAY: '10000',
  EVENTS_PER_10_SECONDS: '100000',
  ONBOARDING_REPLIES_PER_MINUTE: '10000',
  GEO_LOCK_TRACKS_PER_DAY: '1000000',
  SANDBOX_CONSENTS_PER_HOUR: '10000',
  // Tests change playlists on the emulators (and in other processes) and read step 2's list right after;
  // the short list cache (decision 0032) has tests of its own, which pass their own value.
  PLAYLISTS_CACHE_SECONDS: '0',
};

/**
 * The emulator shows Apple's library writes at once unless a test sets a lag (SANDBOX_FAULTS
 * apple-write-lag-ms), so test servers wait 1 s, not 6 s, for Apple's reads to settle: twice the lag of
 * the tests that set up to 500 ms; a test with a longer lag sets APPLE_WRITE_SETTLE_MS to twice its lag.
 * The settling code still runs (a wait of 0 would skip it).
 */
export const QUICK_APPLE_SETTLE: Record<string, string> = { APPLE_WRITE_SETTLE_MS: '1000' };

/** Test servers let a test name the fixed library of a sandbox account it connects (decision 0022). */
export const TEST_SANDBOX_SCENARIOS: Record<string, string> = { SANDBOX_TEST_SCENARIOS: 'true' };
