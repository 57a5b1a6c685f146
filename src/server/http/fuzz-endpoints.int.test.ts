import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as sharedApi from '../../shared/api/account';
import * as authApi from '../../shared/api/auth';
import * as connectionsApi from '../../shared/api/connections';
import * as eventsApi from '../../shared/api/events';
import * as exportsApi from '../../shared/api/export';
import * as regionApi from '../../shared/api/geo-lock';
import * as linksApi from '../../shared/api/links';
import * as mergeApi from '../../shared/api/merge';
import * as onboardingApi from '../../shared/api/onboarding';
import * as playlistsApi from '../../shared/api/playlists';
import * as recreateApi from '../../shared/api/recreate';
import * as transferApi from '../../shared/api/transfer';
import * as backupsApi from '../../shared/api/vault';
import * as insightsApi from '../../shared/api/visualizations';
import { createApp, MAX_JSON_BODY } from '../app';
import { capturedLog } from '../testing/captured-log';
import { startTestServer, type TestClient, type TestServer } from '../testing/test-server';

/**
 * Every API route (enumerated from the app itself, so a new route is fuzzed without editing this file)
 * receives hostile input signed out and signed in: NUL, lone surrogates, 1 MB and 10 MB strings, wrong
 * types, deep nesting, broken and encoded-slash ids. No answer may be a 5xx, and nothing that was sent
 * may appear in the log. Inputs are sampled per route (rotating through the variants) to stay quick,
 * while every route gets ids, a query and (when it takes one) bodies of several kinds.
 */
const MARK = 'FUZZMARK';

const { logger, lines: logLines } = capturedLog();

let server: TestServer;
let signedIn: TestClient;
let routes: { method: string; path: string }[];

beforeAll(async () => {
  server = await startTestServer({ logger });
  signedIn = server.newClient();
  const username = `fuzz${Date.now().toString(36)}`;
  const registered = await signedIn.post('/api/auth/register', {
    username,
    email: `${username}@example.com`,
    password: 'correct horse',
  });
  expect(registered.status).toBe(201);
  const seen = new Set<string>();
  routes = createApp(server.deps)
    .routes.filter((route) => route.path.startsWith('/api/') && !route.path.endsWith('*'))
    .filter((route) => route.method !== 'ALL')
    .filter((route) => {
      const key = `${route.method} ${route.path}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map(({ method, path }) => ({ method, path }));
});
afterAll(() => server?.close());

/** Every field name any request schema of the API knows, so bodies reach the fields a route reads. */
function knownFieldNames(): string[] {
  const modules = [
    sharedApi,
    authApi,
    backupsApi,
    connectionsApi,
    eventsApi,
    exportsApi,
    insightsApi,
    linksApi,
    mergeApi,
    onboardingApi,
    playlistsApi,
    recreateApi,
    regionApi,
    transferApi,
  ];
  const names = new Set<string>();
  for (const module of modules) {
    for (const value of Object.values(module)) {
      if (value instanceof z.ZodObject) for (const key of Object.keys(value.shape)) names.add(key);
    }
  }
  return [...names];
}

const deep = (levels: number): unknown => (levels === 0 ? MARK : { a: deep(levels - 1) });
const oneMegabyte = `${MARK}${'x'.repeat(1024 * 1024)}`;
/** Bodies from this size on may be left partly unread by an early answer (the socket's buffer is 64 KiB). */
const LARGE_BODY = 64 * 1024;
const tenMegabytes = `${MARK}${'y'.repeat(10 * 1024 * 1024)}`;

/** Values put in every known field of a body, one kind per request. */
const fieldValues: unknown[] = [
  `${MARK}\u0000`,
  `${MARK}\ud800`,
  `\udc00${MARK}`,
  oneMegabyte,
  12345,
  [`${MARK}\u0000`, { [`${MARK}\u0000`]: 1 }],
  { nested: deep(50) },
  true,
];
/** Whole bodies of the wrong shape. */
const wholeBodies: string[] = [
  JSON.stringify([MARK]),
  JSON.stringify(`${MARK}\u0000`),
  `${'{"a":'.repeat(5000)}"${MARK}"${'}'.repeat(5000)}`,
  `{"${MARK}": "\\ud800", "x": "\\u0000"}`,
  `{not json ${MARK}`,
];
/** Ids in paths: NUL, a broken escape, encoded slashes, a lone surrogate's bytes, a long id, a UUID. */
const idValues = [
  `${MARK}%00`,
  `${MARK}%ED%A0%80`,
  `${MARK}%2F..%2F..%2Fhealth`,
  `${MARK}%5C%2F%2Fevil.example`,
  `${MARK}${'i'.repeat(3000)}`,
  `${MARK}%`,
  '00000000-0000-4000-8000-000000000000',
];
/** Idempotency-Key headers: a fine one, too long, not ASCII, blank, and one with spaces. */
const keyValues = [`${MARK}-key`, `${MARK}${'k'.repeat(300)}`, `${MARK}caf\u00e9`, '', `${MARK} key`];
const queryValues = [`q=${MARK}%00`, `q=${MARK}%ED%A0`, `returnTo=${MARK}%00&type=%FF`, `q[]=${MARK}&q=1`];

/**
 * A body with `value` in every known field. The 1 MB string goes into one field (rotating) with a short
 * hostile string in the others: in all ~160 fields it made a 160 MB body that only ever met the size
 * limit (the 10 MB bodies below cover that) and spent most of this test's time building and sending it.
 */
function bodyWith(value: unknown, fields: string[], turn: number) {
  if (value !== oneMegabyte) return JSON.stringify(Object.fromEntries(fields.map((field) => [field, value])));
  const big = fields[turn % fields.length];
  return JSON.stringify(
    Object.fromEntries(fields.map((field) => [field, field === big ? value : `${MARK}\u0000`])),
  );
}

describe('fuzzing every API endpoint', () => {
  it('answers hostile input on every route with a 4xx (or success), never a 5xx, and logs none of it', async () => {
    const fields = knownFieldNames();
    const anonymous = server.newClient();
    const failures: string[] = [];
    let requests = 0;
    const send = async (client: TestClient, method: string, path: string, raw?: string) => {
      requests++;
      const overLimit = raw !== undefined && raw.length > MAX_JSON_BODY;
      // The server may answer before it has read a body (a 401, a 413) and then close the connection,
      // which the client's pool could hand to the next request. A large body therefore goes on a
      // connection of its own, and every other request on a fresh or reusable one: no request is sent
      // twice, and a reset is a failure.
      const headers: Record<string, string> =
        raw !== undefined && raw.length > LARGE_BODY ? { connection: 'close' } : {};
      // Creates read the whole body for their Idempotency-Key: every POST carries one, good or bad.
      if (method === 'POST') headers['idempotency-key'] = keyValues[requests % keyValues.length] ?? '';
      const response = await client
        .send(method, path, undefined, raw === undefined ? { headers } : { raw, headers })
        .catch((error: unknown) => {
          // A body over the limit is answered 413 while it is still arriving; the client may see the
          // connection close instead. That is a refusal too, never for a body within the limit.
          if (overLimit) return undefined;
          throw error;
        });
      if (response && response.status >= 500)
        failures.push(`${method} ${path.slice(0, 120)} → ${response.status} ${response.text.slice(0, 160)}`);
    };

    expect(routes.length).toBeGreaterThan(40);
    let turn = 0;
    for (const route of routes) {
      const takesBody = route.method !== 'GET' && route.method !== 'HEAD';
      for (const client of [anonymous, signedIn]) {
        const params = route.path.match(/:[A-Za-z]+/g) ?? [];
        // Each route gets two id variants (rotating, so all variants are used across routes) plus a UUID.
        const ids = params.length
          ? [idValues[turn % idValues.length], idValues[(turn + 3) % idValues.length], idValues.at(-1)]
          : [''];
        for (const id of ids) {
          const path = route.path.replace(/:[A-Za-z]+/g, id ?? '');
          const query = queryValues[turn % queryValues.length];
          turn++;
          if (!takesBody) {
            await send(client, route.method, `${path}?${query}`);
            continue;
          }
          await send(
            client,
            route.method,
            path,
            bodyWith(fieldValues[turn % fieldValues.length], fields, turn),
          );
          await send(
            client,
            route.method,
            path,
            bodyWith(fieldValues[(turn + 4) % fieldValues.length], fields, turn),
          );
          await send(client, route.method, path, wholeBodies[turn % wholeBodies.length]);
        }
        if (takesBody && turn % 7 === 0) {
          await send(
            client,
            route.method,
            route.path.replace(/:[A-Za-z]+/g, 'x'),
            bodyWith(tenMegabytes, ['name'], turn),
          );
        }
      }
    }

    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(routes.length * 2);
    const leaked = logLines.filter((line) => line.includes(MARK));
    expect(leaked.map((line) => line.slice(0, 300))).toEqual([]);
  }, 120_000);
});
