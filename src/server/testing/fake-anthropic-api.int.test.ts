import { describe, expect, it } from 'vitest';
import { createFakeAnthropicApp, FakeAnthropicScript } from './fake-anthropic-api';

const KEY = 'sk-ant-fake';
const validBody = { model: 'claude-x', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] };

function setup() {
  const script = new FakeAnthropicScript(KEY);
  const app = createFakeAnthropicApp(script);
  const post = (
    body: unknown,
    headers: Record<string, string> = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
  ) =>
    app.request('/v1/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return { script, post };
}

describe('fake Anthropic Messages API', () => {
  it('answers a valid request in the Messages API shape with the scripted text', async () => {
    const { script, post } = setup();
    script.answerJson({ ok: true });
    const response = await post(validBody);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [{ type: 'text', text: '{"ok":true}' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) },
    });
    expect(script.requests[0]).toMatchObject({
      apiKey: KEY,
      anthropicVersion: '2023-06-01',
      body: validBody,
    });
  });

  it('accepts the key as a bearer token too', async () => {
    const { script, post } = setup();
    script.answerText('hi');
    const response = await post(validBody, {
      authorization: `Bearer ${KEY}`,
      'anthropic-version': '2023-06-01',
    });
    expect(response.status).toBe(200);
  });

  it('refuses a wrong key, a missing version header and a malformed body with Anthropic error shapes', async () => {
    const { post } = setup();
    const wrongKey = await post(validBody, { 'x-api-key': 'nope', 'anthropic-version': '2023-06-01' });
    expect(wrongKey.status).toBe(401);
    expect(await wrongKey.json()).toEqual({
      type: 'error',
      error: { type: 'authentication_error', message: 'invalid x-api-key' },
    });

    const noVersion = await post(validBody, { 'x-api-key': KEY });
    expect(noVersion.status).toBe(400);

    const noMaxTokens = await post({ model: 'claude-x', messages: [{ role: 'user', content: 'Hi' }] });
    expect(noMaxTokens.status).toBe(400);
    expect(await noMaxTokens.json()).toMatchObject({ error: { type: 'invalid_request_error' } });

    const noMessages = await post({ model: 'claude-x', max_tokens: 10, messages: [] });
    expect(noMessages.status).toBe(400);
    expect((await post('not json')).status).toBe(400);
  });

  it('plays scripted errors in order, then falls back to its default', async () => {
    const { script, post } = setup();
    script.answerError(429, 'Slow down.');
    script.answerError(500);
    const limited = await post(validBody);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('0');
    expect(await limited.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Slow down.' },
    });
    expect(await (await post(validBody)).json()).toMatchObject({ error: { type: 'api_error' } });

    script.always({ kind: 'text', text: 'again' });
    expect(await (await post(validBody)).json()).toMatchObject({ content: [{ text: 'again' }] });
    expect(await (await post(validBody)).json()).toMatchObject({ content: [{ text: 'again' }] });
    expect(script.requests).toHaveLength(4);
  });

  it('holds a hanging request until released', async () => {
    const { script, post } = setup();
    script.hang();
    const pending = Promise.resolve(post(validBody));
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    script.releaseHanging();
    expect((await pending).status).toBe(500);
  });
});
