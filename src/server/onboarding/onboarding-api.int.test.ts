import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_CHAT_MESSAGE_LENGTH,
  MAX_CHAT_MESSAGES,
  type OnboardingChatResponse,
} from '../../shared/api/onboarding';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const chat = (messages: unknown) => server.newClient().post('/api/claude/onboarding-chat', { messages });
const user = (content: string) => ({ id: '1', type: 'user', content, timestamp: new Date().toISOString() });
const message = (body: unknown) => (body as { message?: string }).message;

describe('POST /api/claude/onboarding-chat', () => {
  it('answers a question about a lost playlist and suggests /recreate (local engine)', async () => {
    const response = await chat([
      { type: 'assistant', content: 'Hi! What would you like to do?' },
      user('I lost my favourite mix and want it back'),
    ]);
    expect(response.status).toBe(200);
    const reply = response.body as OnboardingChatResponse;
    expect(reply.engine).toBe('local');
    expect(reply.suggestedRoute).toBe('/recreate');
    expect(reply.content.length).toBeGreaterThan(0);
  });

  it('suggests /merge when the person talks about a friend', async () => {
    const response = await chat([user('I want to combine music with a friend')]);
    expect((response.body as OnboardingChatResponse).suggestedRoute).toBe('/merge');
  });

  it('greets an empty conversation with quick replies', async () => {
    const response = await chat([]);
    expect(response.status).toBe(200);
    const reply = response.body as OnboardingChatResponse;
    expect(reply.options?.length).toBeGreaterThan(0);
    expect(reply.suggestedRoute).toBe('/transfer');
  });

  it.each([
    ['no messages field', undefined, 'messages must be a list of chat messages'],
    ['a wrong type', [{ type: 'system', content: 'x' }], 'Each message needs a type: "assistant" or "user"'],
    ['no content', [{ type: 'user' }], 'Each message needs its text as content'],
    [
      'a message over 2,000 characters',
      [user('a'.repeat(MAX_CHAT_MESSAGE_LENGTH + 1))],
      'A message can be at most 2,000 characters',
    ],
    [
      'more than 50 messages',
      Array.from({ length: MAX_CHAT_MESSAGES + 1 }, () => user('hi')),
      'A conversation can have at most 50 messages',
    ],
  ])('refuses %s', async (_label, messages, expected) => {
    const response = await server
      .newClient()
      .post('/api/claude/onboarding-chat', messages === undefined ? {} : { messages });
    expect(response.status).toBe(400);
    expect(message(response.body)).toBe(expected);
  });

  it('accepts exactly 50 messages of 2,000 characters', async () => {
    const response = await chat(
      Array.from({ length: MAX_CHAT_MESSAGES }, () => user('b'.repeat(MAX_CHAT_MESSAGE_LENGTH))),
    );
    expect(response.status).toBe(200);
  });
});
