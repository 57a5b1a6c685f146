import { describe, expect, it } from 'vitest';
import type { Sync, SyncList, SyncRun, SyncRunStatus } from '../../../shared/api/syncs';
import { destinationsWrittenSince } from './syncs-api';

const run = (id: string, status: SyncRunStatus, dryRun = false): SyncRun => ({
  id,
  syncId: 'sync-1',
  dryRun,
  trigger: 'manual',
  status,
  rebuild: false,
  added: [],
  removed: [],
  listedRemovals: [],
  notAdded: [],
  unchanged: 0,
  verifiedTracks: null,
  verificationMissing: [],
  addedToSource: [],
  removedFromSource: [],
  conflicts: [],
  error: null,
  jobId: null,
  createdAt: '2026-11-26T00:00:00.000Z',
  completedAt: null,
});

const list = (lastRun: SyncRun | null, direction: Sync['direction'] = 'one-way'): SyncList => {
  const sync: Sync = {
    id: 'sync-1',
    sourceService: 'spotify',
    sourcePlaylistId: 'source',
    sourcePlaylistName: 'Road Trip',
    destinationService: 'apple',
    destinationPlaylistId: null,
    destinationUrl: null,
    schedule: 'daily',
    removals: false,
    direction,
    paused: false,
    nextRunAt: null,
    lastRun,
    createdAt: '2026-11-26T00:00:00.000Z',
  };
  return { syncs: [sync] };
};

describe('the playlists a sync run wrote are read again', () => {
  it('when a run seen under way has stopped', () => {
    expect([...destinationsWrittenSince(list(run('r2', 'running')), list(run('r2', 'succeeded')))]).toEqual([
      'apple',
    ]);
  });

  it('when a run started and finished between two reads ("Run now" on a short sync)', () => {
    const before = list(run('r1', 'succeeded', true));
    expect([...destinationsWrittenSince(before, list(run('r2', 'succeeded')))]).toEqual(['apple']);
  });

  it('on both sides for a two-way sync', () => {
    const before = list(run('r2', 'running'), 'two-way');
    expect([...destinationsWrittenSince(before, list(run('r2', 'succeeded'), 'two-way'))].sort()).toEqual([
      'apple',
      'spotify',
    ]);
  });

  it('not for a preview, a run still under way, a run already seen stopped, or the first read', () => {
    const done = list(run('r2', 'succeeded'));
    expect(destinationsWrittenSince(list(null), list(run('r2', 'succeeded', true))).size).toBe(0);
    expect(destinationsWrittenSince(list(null), list(run('r2', 'running'))).size).toBe(0);
    expect(destinationsWrittenSince(done, done).size).toBe(0);
    expect(destinationsWrittenSince(undefined, done).size).toBe(0);
  });
});
