import { expect } from 'vitest';
import type { HistoryPage } from '../../shared/api/history';
import type { SyncRunList } from '../../shared/api/syncs';
import type { ServiceId } from '../../shared/services';
import type { TestClient } from './test-server';

/**
 * Issue 21 item 7: every change of a two-way sync's playlists is in their history with its cause. The
 * tests note the person's edits as they make them (`noteEdit`); each run takes what is pending
 * (`takeEdits`): its read records them as `outside`. The runs' writes are `sync` versions.
 */

/** What the person changed on each side since the last run read it: +1 added, -1 removed, by name. */
export type PendingEdits = Record<ServiceId, Map<string, number>>;
/** The person's changes a run saw: they must be in the history as `outside`. */
export type PersonChange = { service: ServiceId; how: 'added' | 'removed'; name: string };

export const noEdits = (): PendingEdits => ({ spotify: new Map(), apple: new Map() });

export function noteEdit(pending: PendingEdits, service: ServiceId, name: string, delta: number) {
  pending[service].set(name, (pending[service].get(name) ?? 0) + delta);
}

/** The net changes since the last run, which the next run's read records; then nothing is pending. */
export function takeEdits(pending: PendingEdits): PersonChange[] {
  const changes = (['spotify', 'apple'] as const).flatMap((service) =>
    [...pending[service]].flatMap(([name, delta]): PersonChange[] =>
      delta === 0 ? [] : [{ service, how: delta > 0 ? 'added' : 'removed', name }],
    ),
  );
  for (const service of ['spotify', 'apple'] as const) pending[service].clear();
  return changes;
}

/** A playlist's whole history, newest first (up to 200 versions). */
export async function historyOf(client: TestClient, service: ServiceId, playlistId: string) {
  const page = await client.get(`/api/history/${service}/${playlistId}?limit=200`);
  expect(page.status, page.text).toBe(200);
  const body = page.body as HistoryPage;
  expect(body.nextCursor).toBeNull();
  return body.versions;
}

/**
 * Every change is in the history with its cause: what the runs wrote on a side as `sync` versions, and
 * nothing else; the person's changes the runs read as `outside` versions, and nothing else. The Spotify
 * history's first version (the playlist as the person made it, read by the preview) is where it starts.
 */
export async function expectHistoryCauses(
  client: TestClient,
  syncId: string,
  ids: Record<ServiceId, string>,
  person: PersonChange[],
) {
  const runs = ((await client.get(`/api/syncs/${syncId}/runs`)).body as SyncRunList).runs.filter(
    (run) => !run.dryRun,
  );
  const wrote: Record<ServiceId, Record<'added' | 'removed', Set<string>>> = {
    spotify: {
      added: new Set(runs.flatMap((run) => run.addedToSource.map((track) => track.name))),
      removed: new Set(runs.flatMap((run) => run.removedFromSource.map((track) => track.name))),
    },
    apple: {
      added: new Set(runs.flatMap((run) => run.added.map((track) => track.name))),
      removed: new Set(runs.flatMap((run) => run.removed.map((track) => track.name))),
    },
  };
  for (const service of ['spotify', 'apple'] as const) {
    const versions = await historyOf(client, service, ids[service]);
    const changes = (service === 'spotify' ? versions.slice(0, -1) : versions).flatMap((version) =>
      (['added', 'removed'] as const).flatMap((how) =>
        version[how].map((track) => ({ cause: version.cause, how, name: track.name })),
      ),
    );
    const seen = (cause: string, how: 'added' | 'removed') =>
      new Set(changes.filter((item) => item.cause === cause && item.how === how).map((item) => item.name));
    const edited = new Set(person.filter((item) => item.service === service).map((item) => item.name));
    for (const how of ['added', 'removed'] as const) {
      const where = `${service} ${how}`;
      expect(
        [...wrote[service][how]].filter((name) => !seen('sync', how).has(name)),
        where,
      ).toEqual([]);
      expect(
        [...seen('sync', how)].filter((name) => !wrote[service][how].has(name)),
        where,
      ).toEqual([]);
      const made = person.filter((item) => item.service === service && item.how === how);
      expect(
        made.filter((item) => !seen('outside', how).has(item.name)),
        where,
      ).toEqual([]);
      expect(
        [...seen('outside', how)].filter((name) => !edited.has(name)),
        where,
      ).toEqual([]);
    }
    expect(changes.filter((item) => !['sync', 'outside'].includes(item.cause))).toEqual([]);
  }
}
