import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSAFE_TEXT_MESSAGE } from '../../shared/text';
import { capturedLog } from '../testing/captured-log';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';

/**
 * Issue 10, point 1: the 37 answers that were 500s. Each endpoint the report named gets a body that is
 * right in every way but one string holding a NUL or a lone surrogate (written as JSON escapes, as a
 * client would send them), signed in. The answer is a 400 with the text rule's message, and the log holds
 * neither an unhandled error nor the value sent.
 */
const MARK = 'TEXTRULEMARK';
const NUL = `${MARK}\\u0000`;
const LONE = `${MARK}\\ud800`;
const ANY_ID = '00000000-0000-4000-8000-000000000000';

const { logger, lines: logLines } = capturedLog();
let server: TestServer;
let client: TestClient;

beforeAll(async () => {
  server = await startTestServer({ logger });
  client = server.newClient();
  const registered = await client.post('/api/auth/register', {
    username: 'textrule',
    email: 'textrule@example.com',
    password: 'secret-words',
  });
  expect(registered.status).toBe(201);
});
afterAll(() => server.close());

/** [method, path, raw JSON body] for every case of the report, each with NUL and with a lone surrogate. */
const cases = (bad: string): [string, string, string][] => [
  ['POST', '/api/auth/login', `{"username": "${bad}", "password": "secret-words"}`],
  ['POST', '/api/auth/login', `{"username": "textrule", "password": "${bad}"}`],
  [
    'POST',
    '/api/match',
    `{"sourceService": "spotify", "destinationService": "apple", "playlistId": "${bad}"}`,
  ],
  ['PATCH', `/api/match/${ANY_ID}/rows/0`, `{"action": "choose", "trackId": "${bad}"}`],
  ['POST', '/api/links', `{"name": "${bad}", "url": "https://open.spotify.com/track/x"}`],
  ['POST', '/api/recreate', `{"name": "Mine", "text": "Song - ${bad}"}`],
  [
    'POST',
    '/api/events',
    `{"events": [{"event": "page_view", "properties": {"${bad}": 1}, "timestamp": "2026-01-01T00:00:00Z"}]}`,
  ],
  [
    'POST',
    '/api/events',
    `{"events": [{"event": "page_view", "properties": {"k": "${bad}"}, "timestamp": "2026-01-01T00:00:00Z"}]}`,
  ],
  [
    'POST',
    '/api/merge/invitations',
    `{"playlistId": "p", "service": "spotify", "friendEmail": "${bad}@x.example"}`,
  ],
  ['POST', '/api/export/playlist', `{"service": "spotify", "playlistId": "${bad}", "format": "csv"}`],
  [
    'POST',
    '/api/export/cloud',
    `{"service": "spotify", "playlistId": "${bad}", "format": "csv", "target": "crossfade"}`,
  ],
  ['POST', '/api/claude/merge-playlists', `{"userPlaylistId": "${bad}", "friendPlaylistId": "p"}`],
  ['POST', '/api/claude/merge-playlists', `{"userPlaylistId": "p", "friendPlaylistId": "${bad}"}`],
];

describe('the text rule on the endpoints of the report', () => {
  it.each([
    ['NUL', NUL],
    ['a lone surrogate', LONE],
  ])('answers %s in any of their strings with a 400 that says why', async (_label, bad) => {
    for (const [method, path, raw] of cases(bad)) {
      const answer = await client.send(method, path, undefined, { raw });
      expect(`${method} ${path} ${answer.status} ${answer.text}`).toBe(
        `${method} ${path} 400 ${JSON.stringify({ message: UNSAFE_TEXT_MESSAGE })}`,
      );
    }
  });

  it('answers NUL and a lone surrogate in a path id or a query with a 400', async () => {
    const paths = [
      '/api/export/csv/%00',
      `/api/export/csv/${MARK}%ED%A0%80`,
      `/api/playlists/spotify?q=${MARK}%00`,
    ];
    for (const path of paths) {
      const answer = await client.get(path);
      expect(answer.status, `${path} ${answer.text}`).toBe(400);
      expect((answer.body as { message: string }).message).toMatch(
        /^(Text may not contain NUL characters or broken Unicode|The address holds a broken %-escape)/,
      );
    }
  });

  it('logs neither an unhandled error nor the values sent', () => {
    expect(logLines.filter((line) => line.includes('unhandled error'))).toEqual([]);
    expect(logLines.filter((line) => line.includes(MARK))).toEqual([]);
  });
});
