/**
 * `Idempotency-Key` (decision 0023), as Stripe's API has it: a create request sent again with the same
 * key and the same body (by the same person, to the same method and path) within 24 hours gets the first
 * answer again and creates nothing more; the same key with another request is refused (422); a repeat
 * that arrives while the first copy still runs is answered 409 with `Retry-After`.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set on an answer that is the stored answer of an earlier request with the same key. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
/** A key is 1 to 255 visible ASCII characters (a UUID is what the web app sends). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * Every API endpoint that creates something (all POST), in Hono's path syntax. The server deduplicates
 * exactly these (http/idempotency.ts), and the web app retries them after a lost answer with the same key.
 * A new create endpoint is one line here; `idempotency.int.test.ts` fails for a POST route that is in
 * neither this list nor its list of POSTs that create nothing.
 */
export const IDEMPOTENT_CREATES: readonly string[] = [
  '/api/match',
  '/api/transfer',
  '/api/transfers/:transferId/retry',
  '/api/batches',
  '/api/batches/:batchId/transfer',
  '/api/syncs',
  '/api/syncs/:id/run',
  '/api/syncs/:id/rebuild',
  '/api/links',
  '/api/claude/merge-playlists',
  '/api/save-playlist',
  '/api/merge/invitations',
  '/api/merge/invitations/:token/accept',
  '/api/create-region-optimized-playlist',
  '/api/vault/backups',
  '/api/vault/backups/:id/restore',
  '/api/export/cloud',
  '/api/recreate',
  '/api/recreate/from-link',
  '/api/import/csv',
  '/api/billing/checkout',
  '/api/billing/portal',
  '/api/history/:service/:playlistId/restore',
  '/api/transfers/:id/undo',
  '/api/syncs/:id/runs/:runId/undo',
];

const patterns = IDEMPOTENT_CREATES.map(
  (path) => new RegExp(`^${path.replace(/:[A-Za-z]+/g, '[^/]+').replaceAll('/', '\\/')}$`),
);

/** Whether a request (its method and path, without the query) is one of the creates above. */
export function isIdempotentCreate(method: string, path: string): boolean {
  return method.toUpperCase() === 'POST' && patterns.some((pattern) => pattern.test(path));
}
