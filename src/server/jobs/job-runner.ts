import { randomBytes } from 'node:crypto';
import type { Database } from '../db/client';
import type { Logger } from '../logger';
import {
  claimNextJob,
  finishJob,
  type JobProgress,
  type JobRow,
  LEASE_MS,
  renewLease,
  requeueJob,
  saveCheckpoint,
} from './job-store';

/**
 * Runs durable jobs in this process. Several runners (in one or many processes) can share one
 * PostgreSQL: claiming uses row locks, so a job runs in one place at a time. Each runner has `concurrency`
 * slots; a job that must wait long for a rate limit gives its slot back (requeue) instead of sleeping
 * in it, so one person's 429 does not stall anyone else's work.
 */

export interface JobContext<State = unknown> {
  job: JobRow;
  /** The checkpoint the last run saved (undefined on the first run). */
  state: State | undefined;
  /** Persists a checkpoint; throws `LeaseLostError` if another worker has taken the job over. */
  checkpoint(state: State, progress?: JobProgress): Promise<void>;
  progress(progress: JobProgress): Promise<void>;
  /**
   * Renews the lease now; throws `LeaseLostError` if another worker holds the job. Called right before a
   * write that must happen once (an add to a playlist): the lease then outlasts the write, so no other
   * worker can take the job over and repeat it while this one's request is still on its way.
   */
  holdLease(): Promise<void>;
  /** Aborted when the lease is lost or the runner stops. */
  signal: AbortSignal;
}

export type JobHandler = (context: JobContext) => Promise<unknown>;

/** Thrown by a handler to come back later without failing: `countAttempt` false for rate-limit waits. */
export class RetryLater extends Error {
  override readonly name = 'RetryLater';
  constructor(
    readonly delayMs: number,
    readonly reason: string,
    readonly countAttempt = false,
    readonly progress?: JobProgress,
  ) {
    super(reason);
  }
}

/** Thrown by a handler for failures no retry can fix (playlist gone, account disconnected). */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError';
}

export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
}

export interface JobRunnerOptions {
  db: Database;
  logger: Logger;
  handlers: Record<string, JobHandler>;
  concurrency: number;
  pollIntervalMs?: number;
  /** How long a claim lasts without a heartbeat: how soon another runner resumes the job of a dead one. */
  leaseMs?: number;
  /** Backoff for failed attempts: base * 2^(attempt-1), capped. */
  retryBaseMs?: number;
}

export class JobRunner {
  readonly workerId = `${process.pid}-${randomBytes(4).toString('hex')}`;
  private running = false;
  private readonly loops: Promise<void>[] = [];
  private readonly active = new Set<AbortController>();
  private wake: (() => void) | undefined;

  constructor(private readonly options: JobRunnerOptions) {}

  private get leaseMs() {
    return this.options.leaseMs ?? LEASE_MS;
  }

  start() {
    if (this.running) return;
    this.running = true;
    for (let slot = 0; slot < this.options.concurrency; slot++) this.loops.push(this.loop());
  }

  /** Lets idle slots look for work now (after an enqueue in this process). */
  poke() {
    this.wake?.();
  }

  /** Stops claiming, aborts running jobs (their leases expire and another runner resumes them). */
  async stop() {
    this.running = false;
    for (const controller of this.active) controller.abort();
    this.poke();
    await Promise.allSettled(this.loops);
    this.loops.length = 0;
  }

  private async loop() {
    const kinds = Object.keys(this.options.handlers);
    while (this.running) {
      let job: JobRow | undefined;
      try {
        job = await claimNextJob(this.options.db, this.workerId, kinds, this.leaseMs);
      } catch (error) {
        this.options.logger.error({ err: error }, 'claiming a job failed');
      }
      if (job) await this.run(job);
      else await this.idle();
    }
  }

  private idle() {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, this.options.pollIntervalMs ?? 500);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  private async run(job: JobRow) {
    const { db, logger } = this.options;
    const handler = this.options.handlers[job.kind];
    const controller = new AbortController();
    this.active.add(controller);
    const heartbeat = setInterval(() => {
      renewLease(db, job.id, this.workerId, this.leaseMs)
        .then((held) => {
          if (!held) controller.abort(new LeaseLostError('lease lost'));
        })
        .catch((error) => logger.warn({ err: error, jobId: job.id }, 'lease renewal failed'));
    }, this.leaseMs / 3);

    // Each progress report carries when its phase began in this run and how far it was then, so the ETA
    // is the pace of the work now under way (not of the queue wait, the source read or an earlier run).
    let phase: { name: string; startedAt: string; startDone: number } | undefined;
    const stamped = (progress: JobProgress): JobProgress => {
      if (phase?.name !== progress.phase) {
        phase = { name: progress.phase, startedAt: new Date().toISOString(), startDone: progress.done };
      }
      return { ...progress, phaseStartedAt: phase.startedAt, phaseStartDone: phase.startDone };
    };

    const context: JobContext = {
      job,
      state: job.state ?? undefined,
      signal: controller.signal,
      checkpoint: async (state, progress) => {
        if (
          !(await saveCheckpoint(db, job.id, this.workerId, {
            state,
            ...(progress ? { progress: stamped(progress) } : {}),
          }))
        ) {
          throw new LeaseLostError('Another worker has taken over this job.');
        }
        context.state = state;
      },
      progress: async (progress) => {
        await saveCheckpoint(db, job.id, this.workerId, { progress: stamped(progress) });
      },
      holdLease: async () => {
        if (!(await renewLease(db, job.id, this.workerId, this.leaseMs))) {
          controller.abort(new LeaseLostError('lease lost'));
          throw new LeaseLostError('Another worker has taken over this job.');
        }
      },
    };

    try {
      if (!handler) throw new PermanentJobError(`No handler for job kind ${job.kind}`);
      const result = await handler(context);
      await finishJob(db, job.id, this.workerId, { status: 'succeeded', result: result ?? null });
    } catch (error) {
      await this.handleFailure(job, error, controller.signal.aborted && !this.running);
    } finally {
      clearInterval(heartbeat);
      this.active.delete(controller);
    }
  }

  private async handleFailure(job: JobRow, error: unknown, stoppedByShutdown: boolean) {
    const { db, logger } = this.options;
    if (error instanceof LeaseLostError) {
      logger.warn({ jobId: job.id }, 'job lease lost; another worker continues it');
      return;
    }
    if (stoppedByShutdown) {
      // A graceful stop hands the job back at once; a crash leaves the lease to run out instead.
      await requeueJob(db, job.id, this.workerId, new Date(), { countAttempt: false });
      return;
    }
    if (error instanceof RetryLater) {
      await requeueJob(db, job.id, this.workerId, new Date(Date.now() + error.delayMs), {
        countAttempt: error.countAttempt,
        error: error.reason,
        ...(error.progress ? { progress: error.progress } : {}),
      });
      // Look again when it is due rather than at the next poll: a long transfer waits out a rate
      // limit many times, and each poll interval would add to every wait.
      setTimeout(() => this.poke(), error.delayMs).unref();
      return;
    }
    const message = storedErrorMessage(error);
    if (error instanceof PermanentJobError || job.attempts >= job.maxAttempts) {
      logger.warn({ jobId: job.id, kind: job.kind, err: error }, 'job failed');
      await finishJob(db, job.id, this.workerId, { status: 'failed', error: message });
      return;
    }
    const delay = Math.min((this.options.retryBaseMs ?? 2_000) * 2 ** (job.attempts - 1), 5 * 60_000);
    logger.warn(
      { jobId: job.id, kind: job.kind, attempt: job.attempts, err: error },
      'job attempt failed; retrying',
    );
    await requeueJob(db, job.id, this.workerId, new Date(Date.now() + delay), {
      countAttempt: true,
      error: message,
    });
  }
}

/** What a failed job shows the person when a database error stopped it. */
export const DATABASE_ERROR_MESSAGE = 'A database error stopped this job. Please try again.';

/** A PostgreSQL error code (SQLSTATE): five characters, digits among them (unlike Node's EPIPE, EPERM…). */
const SQLSTATE = /^(?=.*\d)[0-9A-Z]{5}$/;

/**
 * The message a failed job stores (and the person sees). A database error's message holds its query and
 * parameters (people's data, token hashes), so it is stored as a plain sentence; the log has its kind.
 */
function storedErrorMessage(error: unknown): string {
  const candidates = [error, (error as { cause?: unknown })?.cause];
  const fromDatabase = candidates.some(
    (candidate) =>
      candidate instanceof Error &&
      (candidate.name === 'DrizzleQueryError' ||
        SQLSTATE.test(String((candidate as { code?: unknown }).code ?? ''))),
  );
  if (fromDatabase) return DATABASE_ERROR_MESSAGE;
  return error instanceof Error ? error.message : String(error);
}
