/**
 * The durable job queue: its operations live in `job-store.ts` (the only SQL on the `jobs` table); this
 * module keeps the name other modules import it by.
 */
export * from './job-store';
