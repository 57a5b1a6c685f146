import { type RestoreResult, type RestoreStarted, restoreResultSchema } from '../../shared/api/history';
import type { JobView } from '../../shared/api/transfer';
import type { ServiceId } from '../../shared/services';
import type { AppDeps } from '../app-context';
import { notFound } from '../domain-errors';
import { enqueue } from '../jobs/define-job';
import { getJob } from '../jobs/job-store';
import { toJobView } from '../jobs/job-view';
import { syncRunOrigin, transferOrigin } from './history-hooks';
import { findVersionsByOrigin } from './history-store';
import { restoreJob } from './restore-job';
import { findOwnVersion, planRestore, type RestoreMode } from './restore-plan';

/** Plans (dry run) or starts a restore or an undo of one of the person's versions. */
async function start(
  deps: AppDeps,
  userId: string,
  input: { versionId: string; mode: RestoreMode; dryRun: boolean },
  expected?: { service: ServiceId; playlistId: string },
): Promise<RestoreStarted> {
  const { version, history } = await findOwnVersion(deps.db, userId, input.versionId);
  if (expected && (history.service !== expected.service || history.playlistId !== expected.playlistId)) {
    throw notFound('That version is not one of this playlist.');
  }
  const provider = await deps.providers.forUser(userId, history.service);
  const contents = await provider.getPlaylist(history.playlistId);
  const planned = await planRestore(
    deps.db,
    {
      userId,
      versionId: version.id,
      mode: input.mode,
      version,
      name: history.name,
      service: history.service,
      playlistId: history.playlistId,
    },
    provider,
    contents,
  );
  if (input.dryRun) return { dryRun: true, jobId: null, plan: planned.plan, otherSides: [] };
  const job = await enqueue(deps.db, restoreJob, {
    userId,
    payload: { userId, versionId: version.id, mode: input.mode },
    maxAttempts: 5,
  });
  deps.jobs.poke();
  return { dryRun: false, jobId: job.id, plan: planned.plan, otherSides: [] };
}

/** POST /api/history/{service}/{playlistId}/restore */
export function restoreVersion(
  deps: AppDeps,
  userId: string,
  where: { service: ServiceId; playlistId: string },
  input: { versionId: string; dryRun: boolean },
) {
  return start(deps, userId, { ...input, mode: 'restore' }, where);
}

/**
 * POST /api/transfers/{id}/undo and /api/syncs/{id}/runs/{runId}/undo: exactly what that writer recorded,
 * on every playlist it wrote (a two-way run: both sides). The side written in place (Spotify) answers as
 * `jobId`/`plan`; an Apple Music side is undone into a new playlist, in `otherSides`.
 */
export async function undoWriter(
  deps: AppDeps,
  userId: string,
  writer: { transferId: string } | { syncId: string; runId: string },
  dryRun: boolean,
): Promise<RestoreStarted> {
  const origin =
    'transferId' in writer ? transferOrigin(writer.transferId) : syncRunOrigin(writer.syncId, writer.runId);
  const versions = await findVersionsByOrigin(deps.db, userId, origin);
  const main = versions.find((version) => version.origin === origin) ?? versions[0];
  if (!main) {
    throw notFound(
      'transferId' in writer
        ? 'Crossfade has no record of what that transfer wrote.'
        : 'That sync run wrote nothing Crossfade has a record of.',
    );
  }
  const started = await start(deps, userId, { versionId: main.id, mode: 'undo', dryRun });
  const otherSides: RestoreStarted['otherSides'] = [];
  for (const version of versions) {
    if (version.id === main.id) continue;
    const side = await start(deps, userId, { versionId: version.id, mode: 'undo', dryRun });
    otherSides.push({ jobId: side.jobId, plan: side.plan });
  }
  return { ...started, otherSides };
}

/** GET /api/history/restores/{jobId}: the job, and once done what it verified. */
export async function restoreStatus(
  deps: AppDeps,
  userId: string,
  jobId: string,
): Promise<{ job: JobView; result: RestoreResult | null }> {
  const job = await getJob(deps.db, jobId);
  if (!job || job.userId !== userId || job.kind !== restoreJob.kind)
    throw notFound('That restore does not exist.');
  const result = restoreResultSchema.safeParse(job.result);
  return { job: toJobView(job), result: result.success ? result.data : null };
}
