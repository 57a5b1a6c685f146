import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import type { Database, DatabaseHandle } from '../db/client';
import * as schema from '../db/schema';

/** Told every statement (its text and parameters) before it is sent; the statement waits for it. */
export type QueryObserver = (text: string, params: readonly unknown[]) => void | Promise<void>;

/**
 * The same database, through the same driver (PGlite or the PostgreSQL pool), with every statement shown
 * to `observe` first: a test counts the real queries a request sends, holds one back until something
 * else happened, or makes one fail as a lost database would. Nothing of the app is replaced.
 */
export function observedDatabase(handle: DatabaseHandle, observe: QueryObserver): DatabaseHandle {
  const client = (handle.db as unknown as { $client: object }).$client;
  const watched = new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property !== 'query') return value.bind(target);
      return async (...args: unknown[]) => {
        const [query, params] = args;
        const text = typeof query === 'string' ? query : String((query as { text?: unknown }).text ?? '');
        await observe(text, Array.isArray(params) ? params : []);
        return value.apply(target, args);
      };
    },
  });
  const db =
    handle.kind === 'pglite'
      ? drizzlePglite(watched as PGlite, { schema })
      : drizzlePostgres(watched as pg.Pool, { schema });
  return { db: db as unknown as Database, kind: handle.kind, close: () => handle.close() };
}
