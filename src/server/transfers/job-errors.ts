import { DomainError } from '../domain-errors';
import { PermanentJobError, RetryLater } from '../jobs/job-runner';
import { ProviderError } from '../providers/http';

/**
 * How a provider failure inside a job is handled: a long rate-limit wait requeues the job (freeing the
 * worker), problems only the person can fix fail it at once with their message, and passing failures
 * (5xx, timeouts) go through the runner's retries.
 */
export function classifyJobError(error: unknown): unknown {
  if (error instanceof ProviderError) {
    if (error.kind === 'rate_limited') {
      return new RetryLater(error.retryAfterMs ?? 30_000, error.message, false);
    }
    if (
      [
        'reconnect_required',
        'forbidden',
        'not_registered',
        'not_found',
        'bad_request',
        'unauthorized',
      ].includes(error.kind)
    ) {
      return new PermanentJobError(error.message);
    }
  }
  if (error instanceof DomainError && error.kind !== 'not_configured')
    return new PermanentJobError(error.message);
  return error;
}

/** Inline waits in job clients stay short; anything longer becomes a requeue (see classifyJobError). */
export const JOB_INLINE_WAIT_MS = 5_000;
