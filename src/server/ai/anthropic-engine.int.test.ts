import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicApi, startFakeAnthropicApi } from '../testing/fake-anthropic-api';
import { AnthropicAiEngine } from './anthropic-engine';
import type { BreakTieInput, MergeInsightInput, TrackSummary } from './engine';
import { LocalAiEngine } from './local-engine';

const API_KEY = 'sk-ant-test-123';
const MODEL = 'claude-test-model';

interface Warning {
  obj: Record<string, unknown>;
  msg: string;
}

function recordingLogger() {
  const warnings: Warning[] = [];
  return {
    warnings,
    warn(obj: object, msg: string) {
      warnings.push({ obj: { ...obj }, msg });
    },
  };
}

const source: TrackSummary = {
  name: 'Dreams',
  artists: ['Fleetwood Mac'],
  album: 'Rumours',
  durationMs: 257_800,
  explicit: false,
  versionLabels: [],
  albumType: 'album',
};
const tieInput: BreakTieInput = {
  source,
  candidates: [
    { ...source, id: 'live', name: 'Dreams (Live)', versionLabels: ['live'], score: 89 },
    { ...source, id: 'studio', score: 75, durationMs: 258_100 },
  ],
};
const mergeInput: MergeInsightInput = {
  yourName: 'Ana',
  friendName: 'Sam',
  sharedArtists: ['Radiohead'],
  sharedGenres: ['art rock'],
  yourTopGenres: ['art rock'],
  friendTopGenres: ['jazz'],
  overlapTrackCount: 5,
  totalTracks: 50,
  mixRatio: [50, 50],
  bridgeTrackCount: 3,
};

const local = new LocalAiEngine();
let fake: FakeAnthropicApi;
let logger: ReturnType<typeof recordingLogger>;

function engine(timeoutMs = 5_000): AnthropicAiEngine {
  return new AnthropicAiEngine({
    apiKey: API_KEY,
    baseUrl: fake.url,
    model: MODEL,
    timeoutMs,
    maxRetries: 0,
    logger,
  });
}

beforeEach(async () => {
  fake = await startFakeAnthropicApi({ apiKey: API_KEY });
  logger = recordingLogger();
});
afterEach(async () => {
  await fake.close();
});

describe('Anthropic engine, good answers', () => {
  it("uses the model's tie-break and sends the configured model, key and the input", async () => {
    fake.script.answerJson({
      chosenId: 'studio',
      confidence: 77,
      reason: 'Same studio recording, 0.3 s apart.',
    });
    const result = await engine().breakTie(tieInput);

    expect(result).toEqual({
      chosenId: 'studio',
      confidence: 77,
      reason: 'Same studio recording, 0.3 s apart.',
    });
    expect(logger.warnings).toEqual([]);
    const [request] = fake.script.requests;
    expect(request?.apiKey).toBe(API_KEY);
    expect(request?.anthropicVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(request?.body).toMatchObject({ model: MODEL, messages: [{ role: 'user' }] });
    const body = request?.body as { system: string; messages: { content: string }[]; max_tokens: number };
    expect(body.system).toContain('"chosenId"');
    expect(body.max_tokens).toBeGreaterThan(0);
    expect(JSON.parse(body.messages[0]?.content ?? '{}')).toEqual(tieInput);
  });

  it('rounds a fractional confidence instead of discarding the answer', async () => {
    fake.script.answerJson({ chosenId: null, confidence: 81.6, reason: 'Both are other versions.' });
    expect(await engine().breakTie(tieInput)).toEqual({
      chosenId: null,
      confidence: 82,
      reason: 'Both are other versions.',
    });
    expect(logger.warnings).toEqual([]);
  });

  it('accepts JSON wrapped in a code fence', async () => {
    const insight = {
      insightSummary:
        'You and Sam both love Radiohead and art rock; 5 of the 50 tracks (10%) are on both lists.',
      playlistName: 'Art Rock Handshake',
    };
    fake.script.answerText(`\`\`\`json\n${JSON.stringify(insight)}\n\`\`\``);
    // Written by the model, and marked so: the page may call it an AI Insight.
    expect(await engine().mergeInsight(mergeInput)).toEqual({ ...insight, writtenBy: 'anthropic' });
    expect(logger.warnings).toEqual([]);
  });

  it('cleans NUL and lone surrogates out of the answer before it is used or stored', async () => {
    fake.script.answerText(
      '{"insightSummary": "You and Sam both love Radiohead\\u0000 and art rock.", "playlistName": "Art \\ud800Rock"}',
    );
    expect(await engine().mergeInsight(mergeInput)).toEqual({
      insightSummary: 'You and Sam both love Radiohead and art rock.',
      playlistName: 'Art \ufffdRock',
      writtenBy: 'anthropic',
    });
    expect(logger.warnings).toEqual([]);
  });

  it('uses the model text for onboarding but the spec rule for the route', async () => {
    fake.script.answerJson({
      content: 'Vault+ keeps dated snapshots of your library.',
      options: ['Set up a backup'],
      suggestedRoute: '/merge',
    });
    const reply = await engine().onboardingReply({
      messages: [{ type: 'user', content: 'I need a backup' }],
    });
    expect(reply).toEqual({
      content: 'Vault+ keeps dated snapshots of your library.',
      options: ['Set up a backup'],
      suggestedRoute: '/vault',
    });
  });

  it('routes by the shared rule: the specific intent wins over the transfer words, sync goes to /syncs', async () => {
    const ask = async (...texts: string[]) => {
      fake.script.answerJson({ content: 'Sure.', options: [] });
      const messages = texts.map((content, index) => ({
        type: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
        content,
      }));
      return (await engine().onboardingReply({ messages })).suggestedRoute;
    };
    expect(await ask('Merge my playlist with a friend', 'Sure.', 'How are bridge tracks chosen?')).toBe(
      '/merge',
    );
    expect(await ask('I lost my Spotify playlist')).toBe('/recreate');
    expect(await ask('Keep my Apple Music playlist in sync with Spotify')).toBe('/syncs');
  });

  it('falls back to the local answer when the model repeats its previous reply to a follow-up', async () => {
    const merge = await local.onboardingReply({
      messages: [{ type: 'user', content: 'Merge with a friend' }],
    });
    fake.script.answerJson({ content: merge.content, options: [] });
    const messages = [
      { type: 'user' as const, content: 'Merge with a friend' },
      { type: 'assistant' as const, content: merge.content },
      { type: 'user' as const, content: 'How are bridge tracks chosen?' },
    ];
    const reply = await engine().onboardingReply({ messages });
    expect(reply.content).not.toBe(merge.content);
    expect(reply).toEqual(await local.onboardingReply({ messages }));
    expect(logger.warnings[0]?.obj).toMatchObject({ aiCall: 'onboardingReply', reason: 'repeated_answer' });
  });

  it('falls back when an insight for anyone to read says "you"', async () => {
    fake.script.answerJson({
      insightSummary: 'You and Sam both love Radiohead.',
      playlistName: 'Ana × Sam',
    });
    const input = { ...mergeInput, audience: 'public' as const };
    const insight = await engine().mergeInsight(input);
    expect(insight).toEqual(await local.mergeInsight(input));
    expect(insight.insightSummary).not.toMatch(/\byou\b/i);
    expect(logger.warnings[0]?.obj).toMatchObject({ aiCall: 'mergeInsight', reason: 'addressed_reader' });
  });

  it("uses the model's region explanation", async () => {
    fake.script.answerJson({
      explanation: '"Dreams" is not licensed in Japan; the same recording is on a deluxe edition.',
    });
    const result = await engine().geoLockExplanation({
      track: source,
      targetRegion: 'JP',
      alternative: { ...source, album: 'Rumours (Deluxe)' },
      kind: 'same_recording',
    });
    expect(result.explanation).toContain('deluxe edition');
  });
});

describe('Anthropic engine, falling back to the local engine', () => {
  it('falls back on malformed text and logs a warning', async () => {
    fake.script.answerText('I would pick the studio one, it sounds right.');
    expect(await engine().breakTie(tieInput)).toEqual(await local.breakTie(tieInput));
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]?.obj).toMatchObject({
      aiCall: 'breakTie',
      model: MODEL,
      reason: 'malformed_json',
    });
  });

  it("logs no part of an answer that is broken JSON (it may repeat the person's playlist names)", async () => {
    fake.script.answerText('{"chosenId": "studio", "reason": Secret Road Trip of Ada}');
    expect(await engine().breakTie(tieInput)).toEqual(await local.breakTie(tieInput));
    expect(logger.warnings[0]?.obj).toMatchObject({ reason: 'malformed_json' });
    expect(JSON.stringify(logger.warnings)).not.toContain('Secret');
  });

  it('falls back when the JSON has the wrong shape', async () => {
    fake.script.answerJson({ chosenId: 'studio', confidence: 150 });
    expect(await engine().breakTie(tieInput)).toEqual(await local.breakTie(tieInput));
    expect(logger.warnings[0]?.obj).toMatchObject({ reason: 'invalid_shape' });
  });

  it('falls back when the model picks an id that is not a candidate', async () => {
    fake.script.answerJson({ chosenId: 'spotify:track:made-up', confidence: 90, reason: 'Looks right.' });
    expect((await engine().breakTie(tieInput)).chosenId).toBe('studio');
    expect(logger.warnings[0]?.obj).toMatchObject({ reason: 'unknown_candidate' });
  });

  it('falls back when the insight invents a number', async () => {
    fake.script.answerJson({
      insightSummary: 'You and Sam are a 92% taste match around Radiohead.',
      playlistName: 'Sam and Ana',
    });
    expect(await engine().mergeInsight(mergeInput)).toEqual(await local.mergeInsight(mergeInput));
    expect(logger.warnings[0]?.obj).toMatchObject({ aiCall: 'mergeInsight', reason: 'invented_numbers' });
  });

  it.each([500, 429, 401] as const)('falls back on HTTP %i', async (status) => {
    fake.script.answerError(status, 'Scripted failure.');
    const reply = await engine().onboardingReply({
      messages: [{ type: 'user', content: 'How does matching work?' }],
    });
    expect(reply).toEqual(
      await local.onboardingReply({ messages: [{ type: 'user', content: 'How does matching work?' }] }),
    );
    expect(logger.warnings[0]?.obj).toMatchObject({
      aiCall: 'onboardingReply',
      reason: 'http_error',
      status,
    });
  });

  it('falls back when the API key is refused, without logging the key', async () => {
    const wrongKey = new AnthropicAiEngine({
      apiKey: 'sk-ant-wrong',
      baseUrl: fake.url,
      maxRetries: 0,
      logger,
    });
    expect(await wrongKey.mergeInsight(mergeInput)).toEqual(await local.mergeInsight(mergeInput));
    expect(logger.warnings[0]?.obj).toMatchObject({ reason: 'http_error', status: 401 });
    expect(JSON.stringify(logger.warnings)).not.toContain('sk-ant-wrong');
  });

  it('falls back when the API does not answer within timeoutMs', async () => {
    fake.script.hang();
    expect(await engine(300).breakTie(tieInput)).toEqual(await local.breakTie(tieInput));
    expect(logger.warnings[0]?.obj).toMatchObject({ aiCall: 'breakTie', reason: 'timeout' });
  });

  it('retries a 500 when retries are allowed, then uses the answer', async () => {
    fake.script.answerError(500);
    fake.script.answerJson({ explanation: 'Not licensed in Korea; no alternative found.' });
    const retrying = new AnthropicAiEngine({ apiKey: API_KEY, baseUrl: fake.url, maxRetries: 1, logger });
    const result = await retrying.geoLockExplanation({
      track: source,
      targetRegion: 'KR',
      alternative: null,
      kind: 'none',
    });
    expect(result.explanation).toBe('Not licensed in Korea; no alternative found.');
    expect(fake.script.requests).toHaveLength(2);
    expect(logger.warnings).toEqual([]);
  });
});
