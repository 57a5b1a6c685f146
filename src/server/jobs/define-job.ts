import type { z } from 'zod';
import type { Database } from '../db/client';
import { type JobContext, type JobHandler, PermanentJobError } from './job-runner';
import { enqueueJob, type JobRow } from './job-store';

/**
 * One kind of background job: its name in the `jobs` table, the schemas of its payload and of its
 * checkpoint, and its handler. Each feature defines its jobs; the composition root (runtime.ts) lists
 * them, so this folder never imports a feature. The stored payload and the saved checkpoint are parsed
 * before the handler sees them, and `enqueue` accepts only a payload of the job's schema.
 */
export interface JobDefinition<Kind extends string, Payload, Deps, State = unknown> {
  readonly kind: Kind;
  readonly payloadSchema: z.ZodType<Payload>;
  /** What the job checkpoints; a saved checkpoint is parsed with it before a resumed run sees it. */
  readonly stateSchema: z.ZodType<State>;
  /** The runner's handler for this kind, bound to the app's dependencies. */
  createHandler(deps: Deps): JobHandler;
}

/**
 * A saved checkpoint of this job, parsed (undefined when none was saved). One this version cannot read
 * would fail the same way on every retry, so the job fails for good, saying so.
 */
export function parseCheckpoint<State>(
  job: Pick<JobDefinition<string, unknown, never, State>, 'kind' | 'stateSchema'>,
  saved: unknown,
): State | undefined {
  if (saved === undefined || saved === null) return undefined;
  const state = job.stateSchema.safeParse(saved);
  if (!state.success) throw new PermanentJobError(`The ${job.kind} job's saved progress is not valid.`);
  return state.data;
}

export function defineJob<Kind extends string, Payload, State, Deps>(definition: {
  kind: Kind;
  payloadSchema: z.ZodType<Payload>;
  stateSchema: z.ZodType<State>;
  /** Builds the handler from the app's dependencies; it receives the parsed payload and checkpoint. */
  handler: (deps: Deps) => (payload: Payload, context: JobContext<State>) => Promise<unknown>;
}): JobDefinition<Kind, Payload, Deps, State> {
  const { kind, payloadSchema, stateSchema, handler } = definition;
  return {
    kind,
    payloadSchema,
    stateSchema,
    createHandler(deps) {
      const run = handler(deps);
      return (context) => {
        const payload = payloadSchema.safeParse(context.job.payload);
        // A payload this version cannot read would fail the same way on every retry.
        if (!payload.success) throw new PermanentJobError(`The ${kind} job's payload is not valid.`);
        const state = parseCheckpoint({ kind, stateSchema }, context.state);
        // The same context (the runner keeps its `state` current after each checkpoint), with the
        // checkpoint just parsed; the handler checkpoints only values of its own `State`.
        context.state = state;
        return run(payload.data, context as JobContext<State>);
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
