import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk';
import { z } from 'zod';
import { onboardingRouteFor as routeFromMessages } from '../../shared/onboarding-routing';
import {
  type AiEngine,
  type AiLogger,
  type BreakTieInput,
  type BreakTieResult,
  breakTieResultSchema,
  type GeoLockExplanationInput,
  type GeoLockExplanationResult,
  geoLockExplanationResultSchema,
  type MergeInsightInput,
  type MergeInsightResult,
  mergeInsightAnswerSchema,
  type OnboardingReply,
  type OnboardingReplyInput,
} from './engine';
import { inventedNumbers } from './insight-numbers';
import { LocalAiEngine } from './local-engine';
import { ModelAnswerError, type ModelFailureReason, parseModelJson } from './model-answer';
import {
  breakTieSystem,
  breakTieUser,
  geoLockExplanationSystem,
  geoLockExplanationUser,
  mergeInsightSystem,
  mergeInsightUser,
  onboardingSystem,
  onboardingUser,
} from './prompts';

/** A current Sonnet: strong enough for these short structured answers, cheaper than Opus. A setting. */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-5-5';
/** Tie-breaks run inside a matching job, so a slow answer must not hold the job for long. */
export const DEFAULT_AI_TIMEOUT_MS = 15_000;

export interface AnthropicEngineOptions {
  apiKey: string;
  /** Without `/v1`; the SDK appends `/v1/messages`. */
  baseUrl?: string;
  model?: string;
  timeoutMs?: number;
  /** Retries of 408/409/429/5xx and timeouts inside the SDK, before falling back. */
  maxRetries?: number;
  logger: AiLogger;
  /** Answers every call the model cannot; the local engine unless a test passes another. */
  fallback?: AiEngine;
}

type AiCall = keyof AiEngine;

interface ModelRequest<T> {
  call: AiCall;
  system: string;
  user: string;
  maxTokens: number;
  schema: z.ZodType<T>;
  /** Checks beyond the shape that need the input (the chosen id is a candidate, no invented numbers). */
  check?: (value: T) => void;
  fallback: () => Promise<T>;
}

/** Models sometimes answer 82.5 where an integer was asked for; round rather than throw the answer away. */
const modelBreakTieSchema = breakTieResultSchema.extend({
  confidence: z
    .number()
    .min(0)
    .max(100)
    .transform((value) => Math.round(value)),
});

const onboardingAnswerSchema = z.object({
  content: z.string().min(1).max(1500),
  options: z.array(z.string().min(1).max(60)).max(5).optional(),
});

function failureOf(error: unknown): { reason: ModelFailureReason; status?: number; detail: string } {
  if (error instanceof ModelAnswerError) return { reason: error.reason, detail: error.message };
  if (error instanceof z.ZodError) {
    return { reason: 'invalid_shape', detail: z.prettifyError(error).slice(0, 500) };
  }
  if (error instanceof APIConnectionTimeoutError) return { reason: 'timeout', detail: error.message };
  if (error instanceof APIConnectionError) return { reason: 'connection_error', detail: error.message };
  if (error instanceof APIError) {
    return {
      reason: 'http_error',
      ...(error.status === undefined ? {} : { status: error.status }),
      detail: error.message.slice(0, 500),
    };
  }
  return { reason: 'unexpected_error', detail: error instanceof Error ? error.message : String(error) };
}

/**
 * Asks Claude for each answer as JSON and validates it; on any failure (HTTP error, timeout, malformed or
 * invalid JSON) it logs a warning and returns the local engine's answer, so a person never sees an AI error.
 */
export class AnthropicAiEngine implements AiEngine {
  readonly name = 'anthropic' as const;
  readonly model: string;
  private readonly client: Anthropic;
  private readonly logger: AiLogger;
  private readonly fallback: AiEngine;

  constructor(options: AnthropicEngineOptions) {
    this.model = options.model ?? DEFAULT_ANTHROPIC_MODEL;
    this.logger = options.logger;
    this.fallback = options.fallback ?? new LocalAiEngine();
    this.client = new Anthropic({
      apiKey: options.apiKey,
      // Explicit even for the default: the SDK would otherwise read ANTHROPIC_BASE_URL, and our settings
      // are meant to be the one place this is configured.
      baseURL: options.baseUrl ?? 'https://api.anthropic.com',
      timeout: options.timeoutMs ?? DEFAULT_AI_TIMEOUT_MS,
      maxRetries: options.maxRetries ?? 1,
      logLevel: 'off',
    });
  }

  breakTie(input: BreakTieInput): Promise<BreakTieResult> {
    const candidateIds = new Set(input.candidates.map((candidate) => candidate.id));
    return this.ask({
      call: 'breakTie',
      system: breakTieSystem,
      user: breakTieUser(input),
      maxTokens: 400,
      schema: modelBreakTieSchema,
      check: (value) => {
        if (value.chosenId !== null && !candidateIds.has(value.chosenId)) {
          throw new ModelAnswerError('unknown_candidate', `chosenId ${value.chosenId} is not a candidate.`);
        }
      },
      fallback: () => this.fallback.breakTie(input),
    });
  }

  mergeInsight(input: MergeInsightInput): Promise<MergeInsightResult> {
    return this.ask({
      call: 'mergeInsight',
      system: mergeInsightSystem,
      user: mergeInsightUser(input),
      maxTokens: 600,
      // Marked here, after the model answered: the fallback's answer says `local` itself.
      schema: mergeInsightAnswerSchema.transform((answer) => ({
        ...answer,
        writtenBy: 'anthropic' as const,
      })),
      check: (value) => {
        const invented = inventedNumbers(`${value.insightSummary} ${value.playlistName}`, input);
        if (invented.length > 0) {
          throw new ModelAnswerError('invented_numbers', `Numbers not in the input: ${invented.join(', ')}.`);
        }
        // Words for anyone must not speak to the reader: the friend and visitors are not "you".
        if (input.audience === 'public' && /\byou(?:r|rs|rself)?\b/i.test(value.insightSummary)) {
          throw new ModelAnswerError('addressed_reader', 'A public insight says "you".');
        }
      },
      fallback: () => this.fallback.mergeInsight(input),
    });
  }

  geoLockExplanation(input: GeoLockExplanationInput): Promise<GeoLockExplanationResult> {
    return this.ask({
      call: 'geoLockExplanation',
      system: geoLockExplanationSystem,
      user: geoLockExplanationUser(input),
      maxTokens: 400,
      schema: geoLockExplanationResultSchema,
      fallback: () => this.fallback.geoLockExplanation(input),
    });
  }

  async onboardingReply(input: OnboardingReplyInput): Promise<OnboardingReply> {
    // The route is the spec's keyword rule, never the model's opinion, so the web app and server agree.
    const suggestedRoute = routeFromMessages(input.messages);
    const answer = await this.ask({
      call: 'onboardingReply',
      system: onboardingSystem,
      user: onboardingUser(input),
      maxTokens: 700,
      schema: onboardingAnswerSchema,
      check: (value) => {
        // A follow-up gets its own answer: the previous reply said again is no answer (issue 23).
        const previous = input.messages.findLast((message) => message.type === 'assistant')?.content;
        if (previous !== undefined && value.content.trim() === previous.trim()) {
          throw new ModelAnswerError('repeated_answer', 'The reply repeats the previous one.');
        }
      },
      fallback: () => this.fallback.onboardingReply(input),
    });
    return {
      content: answer.content,
      ...(answer.options ? { options: answer.options } : {}),
      suggestedRoute,
    };
  }

  private async ask<T>(request: ModelRequest<T>): Promise<T> {
    try {
      const message = await this.client.messages.create({
        model: this.model,
        max_tokens: request.maxTokens,
        system: request.system,
        messages: [{ role: 'user', content: request.user }],
      });
      const text = message.content.find((block) => block.type === 'text')?.text;
      if (text === undefined)
        throw new ModelAnswerError('no_text', `No text block (stop_reason ${message.stop_reason}).`);
      const value = request.schema.parse(parseModelJson(text));
      request.check?.(value);
      return value;
    } catch (error) {
      this.logger.warn(
        { aiCall: request.call, model: this.model, ...failureOf(error) },
        'AI answer unusable; using the local engine',
      );
      return request.fallback();
    }
  }
}
