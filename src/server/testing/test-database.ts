import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { DatabaseHandle } from '../db/client';
import { openDatabase } from '../db/open';
import { PGLITE_TEMPLATE_ENV } from './pglite-template';

/**
 * A fresh, migrated database for one test file. PGlite in memory by default; with TEST_DATABASE=postgres
 * (`npm run test:pg`, CI) a new database on the real PostgreSQL server, dropped again afterwards, so the
 * same tests prove both engines. `stopAfter` (a migration's tag) leaves it as that migration did.
 */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export const usesRealPostgres = () => process.env.TEST_DATABASE === 'postgres';

/**
 * The template's bytes, read once per worker (its files share the module, vitest.config.ts) and handed
 * to each new PGlite as a copy. PGlite reads the dump with `arrayBuffer()`, which for a plain `Blob` of
 * the 42 MB dump cost 0.7 s of CPU on Node 20 (its reader copies the bytes chunk by chunk), a third of
 * the 1.9 s each test database's start-up took (measured on a loaded 2-core machine). This Blob answers
 * with one copy of the bytes; its other readers (`stream`, `text`, `slice`) give the same bytes.
 */
class DumpBytes extends Blob {
  readonly #content: Uint8Array<ArrayBuffer>;
  constructor(content: Uint8Array<ArrayBuffer>) {
    super();
    this.#content = content;
  }
  override get size() {
    return this.#content.byteLength;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#content.slice().buffer);
  }
  override stream() {
    return new Blob([this.#content]).stream();
  }
  override text() {
    return new Blob([this.#content]).text();
  }
  override slice(start?: number, end?: number, type?: string) {
    return new Blob([this.#content]).slice(start, end, type);
  }
}

let templateBytes: { path: string; bytes: Uint8Array<ArrayBuffer> } | undefined;
function templateDump(path: string): Blob {
  if (templateBytes?.path !== path) templateBytes = { path, bytes: new Uint8Array(readFileSync(path)) };
  return new DumpBytes(templateBytes.bytes);
}

export async function createTestDatabase(
  options: { stopAfter?: string } = {},
): Promise<DatabaseHandle & { url?: string }> {
  if (!usesRealPostgres() && options.stopAfter) {
    // A database as an older version left it (a test of an upgrade): migrated here, not from the template.
    return openDatabase({ memory: true }, options);
  }
  if (!usesRealPostgres()) {
    // Started from the migrated template of this run (see pglite-template.ts) when there is one.
    const template = process.env[PGLITE_TEMPLATE_ENV];
    return openDatabase(template ? { memory: true, from: templateDump(template) } : { memory: true });
  }

  const name = `crossfade_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();

  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString() }, options);
  return {
    ...handle,
    kind: 'postgres',
    url: url.toString(),
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
