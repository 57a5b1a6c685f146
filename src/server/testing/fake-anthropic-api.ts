import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';

/**
 * A local stand-in for the Anthropic Messages API, for tests and offline runs: `POST /v1/messages` checks the
 * headers and body the real API requires and answers in its shapes, following a script the test sets.
 */

export type FakeAnthropicBehaviour =
  | { kind: 'text'; text: string }
  | { kind: 'error'; status: ContentfulStatusCode; message?: string }
  /** Never answers until the fake is closed: for timeout tests. */
  | { kind: 'hang' };

export interface RecordedAnthropicRequest {
  /** From `x-api-key`, or from `Authorization: Bearer …`. */
  apiKey: string | undefined;
  anthropicVersion: string | undefined;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
}

const messagesBodySchema = z.object({
  model: z.string().min(1),
  max_tokens: z.number().int().positive(),
  system: z.union([z.string(), z.array(z.object({ type: z.literal('text'), text: z.string() }))]).optional(),
  messages: z
    .array(
      z.object({
        role: z.enum(['user', 'assistant']),
        content: z.union([z.string().min(1), z.array(z.object({ type: z.string() })).min(1)]),
      }),
    )
    .min(1),
});

const errorTypes: Partial<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

function errorBody(status: number, message: string) {
  return { type: 'error', error: { type: errorTypes[status] ?? 'api_error', message } };
}

function roughTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

export class FakeAnthropicScript {
  readonly requests: RecordedAnthropicRequest[] = [];
  private readonly queue: FakeAnthropicBehaviour[] = [];
  private fallbackBehaviour: FakeAnthropicBehaviour = {
    kind: 'error',
    status: 500,
    message: 'The fake Anthropic API has no scripted answer for this request.',
  };
  private readonly hanging: (() => void)[] = [];

  constructor(readonly apiKey: string) {}

  /** Answers the next requests, one behaviour each, in order. */
  enqueue(...behaviours: FakeAnthropicBehaviour[]): void {
    this.queue.push(...behaviours);
  }

  /** Answers every request once the queue is empty. */
  always(behaviour: FakeAnthropicBehaviour): void {
    this.fallbackBehaviour = behaviour;
  }

  answerJson(value: unknown): void {
    this.enqueue({ kind: 'text', text: JSON.stringify(value) });
  }

  answerText(text: string): void {
    this.enqueue({ kind: 'text', text });
  }

  answerError(status: ContentfulStatusCode, message = 'Scripted failure.'): void {
    this.enqueue({ kind: 'error', status, message });
  }

  hang(): void {
    this.enqueue({ kind: 'hang' });
  }

  nextBehaviour(): FakeAnthropicBehaviour {
    return this.queue.shift() ?? this.fallbackBehaviour;
  }

  waitUntilReleased(): Promise<void> {
    return new Promise((resolve) => this.hanging.push(resolve));
  }

  releaseHanging(): void {
    for (const release of this.hanging.splice(0)) release();
  }
}

export function createFakeAnthropicApp(script: FakeAnthropicScript): Hono {
  const app = new Hono();
  let counter = 0;

  app.post('/v1/messages', async (c) => {
    const rawBody = await c.req.text();
    let body: unknown = rawBody;
    try {
      body = JSON.parse(rawBody);
    } catch (error) {
      // Not JSON: kept as text so a test can see what was sent.
      if (!(error instanceof SyntaxError)) throw error;
    }
    // The documented header is `x-api-key`; SDK 1.x sends the same key as `Authorization: Bearer`.
    const apiKey = c.req.header('x-api-key') ?? c.req.header('authorization')?.replace(/^Bearer\s+/i, '');
    const anthropicVersion = c.req.header('anthropic-version');
    script.requests.push({ apiKey, anthropicVersion, body });

    if (apiKey !== script.apiKey) return c.json(errorBody(401, 'invalid x-api-key'), 401);
    if (!anthropicVersion || !/^\d{4}-\d{2}-\d{2}$/.test(anthropicVersion)) {
      return c.json(errorBody(400, 'anthropic-version: header is required'), 400);
    }
    const parsed = messagesBodySchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join('.') || 'body';
      return c.json(errorBody(400, `${field}: ${issue?.message ?? 'invalid request body'}`), 400);
    }

    const behaviour = script.nextBehaviour();
    counter += 1;
    const requestId = `req_fake_${counter}`;
    c.header('request-id', requestId);
    if (behaviour.kind === 'hang') {
      await script.waitUntilReleased();
      return c.json(errorBody(500, 'The fake Anthropic API was closed.'), 500);
    }
    if (behaviour.kind === 'error') {
      if (behaviour.status === 429) c.header('retry-after', '0');
      return c.json(errorBody(behaviour.status, behaviour.message ?? 'Scripted failure.'), behaviour.status);
    }
    const prompt = JSON.stringify(parsed.data.messages) + JSON.stringify(parsed.data.system ?? '');
    return c.json({
      id: `msg_fake_${counter}`,
      type: 'message',
      role: 'assistant',
      model: parsed.data.model,
      content: [{ type: 'text', text: behaviour.text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: roughTokens(prompt), output_tokens: roughTokens(behaviour.text) },
    });
  });

  app.notFound((c) => c.json(errorBody(404, `Not found: ${c.req.method} ${c.req.path}`), 404));
  return app;
}

export interface FakeAnthropicApi {
  /** Base URL for the SDK's `baseURL` (no `/v1`). */
  url: string;
  script: FakeAnthropicScript;
  close(): Promise<void>;
}

export async function startFakeAnthropicApi(options: { apiKey?: string } = {}): Promise<FakeAnthropicApi> {
  const script = new FakeAnthropicScript(options.apiKey ?? 'sk-ant-fake-key');
  const app = createFakeAnthropicApp(script);
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>(
    (resolve) => {
      const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
        resolve({ server: started, port: info.port }),
      );
    },
  );
  return {
    url: `http://127.0.0.1:${port}`,
    script,
    close: () =>
      new Promise<void>((resolve, reject) => {
        script.releaseHanging();
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets from the SDK would otherwise hold `close` open.
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
