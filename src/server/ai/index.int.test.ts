import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicApi, startFakeAnthropicApi } from '../testing/fake-anthropic-api';
import { type AiLogger, createAiEngine, DEFAULT_ANTHROPIC_MODEL } from './index';

// A real pino logger: the engine's logger type must accept it as is.
const silent: AiLogger = pino({ level: 'silent' });
let fake: FakeAnthropicApi | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('createAiEngine', () => {
  it('runs the local engine without a key', async () => {
    const engine = createAiEngine({}, silent);
    expect(engine.name).toBe('local');
    expect(createAiEngine({ anthropicApiKey: '  ' }, silent).name).toBe('local');
    expect((await engine.onboardingReply({ messages: [] })).content).toContain('Welcome');
  });

  it('runs the Anthropic engine with a key, against the configured base URL and model', async () => {
    fake = await startFakeAnthropicApi({ apiKey: 'sk-ant-abc' });
    fake.script.answerJson({ content: 'Hi! Ready when you are.', options: ["Let's start"] });
    const engine = createAiEngine(
      {
        anthropicApiKey: 'sk-ant-abc',
        anthropicBaseUrl: fake.url,
        anthropicModel: 'claude-custom',
        timeoutMs: 5_000,
      },
      silent,
    );
    expect(engine.name).toBe('anthropic');
    expect((await engine.onboardingReply({ messages: [] })).content).toBe('Hi! Ready when you are.');
    expect(fake.script.requests[0]?.body).toMatchObject({ model: 'claude-custom' });
  });

  it('uses the default model when none is configured', async () => {
    fake = await startFakeAnthropicApi({ apiKey: 'sk-ant-abc' });
    fake.script.answerJson({ explanation: 'Available.' });
    const engine = createAiEngine({ anthropicApiKey: 'sk-ant-abc', anthropicBaseUrl: fake.url }, silent);
    await engine.geoLockExplanation({
      track: { name: 'A', artists: [], album: 'B', durationMs: 1000, versionLabels: [] },
      targetRegion: 'JP',
      alternative: null,
      kind: 'none',
    });
    expect(fake.script.requests[0]?.body).toMatchObject({ model: DEFAULT_ANTHROPIC_MODEL });
  });
});
