import { describe, expect, it } from 'vitest';
import { ReadCache } from './read-cache';

const user = { id: 'u1', username: 'ada', email: 'ada@example.com', plan: 'free' as const };
const later = new Date(Date.now() + 60_000);

describe('read cache', () => {
  it('keeps an answer, and forgets everything on a write to the tables it depends on', () => {
    const cache = new ReadCache();
    const writes = [
      'update "users" set "plan" = $1 where "users"."id" = $2',
      'delete from "sessions" where "sessions"."token_hash" = $1',
      'insert into "provider_connections" ("user_id") values ($1)',
      "update sessions set expires_at = now() - interval '1 minute'",
      'DELETE FROM public.users WHERE id = $1',
    ];
    for (const write of writes) {
      cache.storeSession('hash', user, later, cache.generation);
      cache.storeConnected('u1', ['spotify'], cache.generation);
      cache.noteQuery('select "id" from "users" where "id" = $1');
      cache.noteQuery('update "users_archive" set x = 1');
      expect(cache.session('hash')).toEqual(user);
      expect(cache.connected('u1')).toEqual(['spotify']);
      cache.noteQuery(write);
      expect(cache.session('hash'), write).toBeUndefined();
      expect(cache.connected('u1'), write).toBeUndefined();
    }
  });

  it('forgets again when a transaction that wrote commits (a read in between saw the old row)', () => {
    const cache = new ReadCache();
    cache.noteQuery('begin');
    cache.noteQuery('update "users" set "plan" = $1 where "users"."id" = $2');
    // Another connection reads before the commit: the old plan, stored under the new generation.
    cache.storeSession('hash', { ...user, plan: 'pro' }, later, cache.generation);
    expect(cache.session('hash')?.plan).toBe('pro');
    cache.noteQuery('commit');
    expect(cache.session('hash')).toBeUndefined();
    // With no watched write in the window, other transactions' commits keep the cache.
    const quiet = new ReadCache();
    quiet.noteQuery('begin');
    quiet.noteQuery('update "jobs" set "state" = $1');
    quiet.storeSession('hash', user, later, quiet.generation);
    quiet.noteQuery('commit');
    expect(quiet.session('hash')).toEqual(user);
  });

  it('does not store an answer read across a clear, nor one past the session’s expiry', () => {
    const cache = new ReadCache();
    const readAt = cache.generation;
    cache.clear();
    cache.storeSession('hash', user, later, readAt);
    expect(cache.session('hash')).toBeUndefined();
    cache.storeSession('hash', user, new Date(Date.now() - 1), cache.generation);
    expect(cache.session('hash')).toBeUndefined();
  });
});
