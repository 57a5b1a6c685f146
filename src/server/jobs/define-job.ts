import type { z } from 'zod';
import type { Database } from '../db/client';
import { enqueueJob, type JobRow } from './job-queue';
import { type JobContext, type JobHandler, PermanentJobError } from './job-runner';

/**
 * One kind of background job: its name in the `jobs` table, the schema of its payload and its handler.
 * Each feature defines its jobs; the composition root (runtime.ts) lists them, so this folder never
 * imports a feature. The stored payload is parsed before the handler sees it, and `enqueue` accepts only
 * a payload of the job's schema.
 */
export interface JobDefinition<Kind extends string, Payload, Deps> {
  readonly kind: Kind;
  readonly payloadSchema: z.ZodType<Payload>;
  /** The runner's handler for this kind, bound to the app's dependencies. */
  createHandler(deps: Deps): JobHandler;
}

export function defineJob<Kind extends string, Payload, Deps>(definition: {
  kind: Kind;
  payloadSchema: z.ZodType<Payload>;
  /** Builds the handler from the app's dependencies; it receives the parsed payload. */
  handler: (deps: Deps) => (payload: Payload, context: JobContext) => Promise<unknown>;
}): JobDefinition<Kind, Payload, Deps> {
  const { kind, payloadSchema, handler } = definition;
  return {
    kind,
    payloadSchema,
    createHandler(deps) {
      const run = handler(deps);
      return (context) => {
        const payload = payloadSchema.safeParse(context.job.payload);
        // A payload this version cannot read would fail the same way on every retry.
        if (!payload.success) throw new PermanentJobError(`The ${kind} job's payload is not valid.`);
        return run(payload.data, context);
      };
    },
  };
}

/** Kinds and handlers of the given jobs, typed from their definitions; two jobs of one kind are a bug. */
export function jobRegistry<Deps, const Jobs extends readonly JobDefinition<string, unknown, Deps>[]>(
  jobs: Jobs,
  deps: Deps,
): Record<Jobs[number]['kind'], JobHandler> {
  const handlers: Record<string, JobHandler> = {};
  for (const job of jobs) {
    if (handlers[job.kind]) throw new Error(`two jobs are defined with the kind "${job.kind}"`);
    handlers[job.kind] = job.createHandler(deps);
  }
  return handlers;
}

/** Queues a job of this definition; the payload is checked against its schema before it is stored. */
export async function enqueue<Payload>(
  db: Database,
  job: JobDefinition<string, Payload, never>,
  input: {
    payload: Payload;
    userId?: string | null;
    dedupeKey?: string;
    runAfter?: Date;
    maxAttempts?: number;
  },
): Promise<JobRow> {
  return enqueueJob(db, { ...input, kind: job.kind, payload: job.payloadSchema.parse(input.payload) });
}
