import type { AppDeps } from '../app-context';
import { findBillingAccount, listPlanChanges } from '../billing/billing-store';
import type { KeysetCursor, KeysetPage } from '../db/keyset';
import { notFound } from '../domain-errors';
import { lazyObject, PagedArray } from '../export/json-stream';
import { keysetPages } from '../export/streamed-download';
import { listJobsOfUserPage } from '../jobs/job-store';
import { listBackups } from '../vault/backup-store';
import {
  type ExportRow,
  exportPages,
  findUserRow,
  linkCounts,
  listExportConnections,
  matchSetCounts,
  type UserRow,
} from './account-store';

/** Rows of a list read per query while the file is written (decision 0042). */
export const EXPORT_PAGE_ROWS = 500;
/** Rows that carry a whole track list (imports, merged playlists, a sync's recordings): fewer per query. */
export const PLAYLIST_PAGE_ROWS = 20;

/** A list of the document read a page at a time, each page shaped by `shape`. */
function pagedList<T>(
  read: (cursor: KeysetCursor | undefined, limit: number) => Promise<KeysetPage<T>>,
  limit: number,
  shape: (rows: T[]) => unknown[] | Promise<unknown[]> = (rows) => rows,
): PagedArray {
  return new PagedArray(
    (async function* () {
      for await (const rows of keysetPages((cursor: KeysetCursor | undefined) => read(cursor, limit))) {
        yield await shape(rows);
      }
    })(),
  );
}

/**
 * "Download my data": everything Crossfade keeps about a person, as one JSON document written while it is
 * read (`jsonPieces`): the lists come a page at a time, oldest first, so a long history costs the server no
 * more than a page. Secrets are left out (password hash, provider tokens, invitation tokens), and so are
 * blobs that are downloadable on their own (saved export files, backup contents: listed with their sizes
 * and counts). Answers not found before anything is read when the account is gone.
 */
export async function accountExportDocument(deps: AppDeps, userId: string, now = new Date()) {
  const { db } = deps;
  const user = await findUserRow(db, userId);
  if (!user) throw notFound('This account no longer exists.');
  // A person has at most one connection per service; backups and changes of plan are a few rows a day at most.
  const [connections, backups, billing] = await Promise.all([
    listExportConnections(db, userId),
    listBackups(deps, userId),
    exportBilling(deps, userId),
  ]);
  const list = <K extends Exclude<keyof typeof exportPages, 'syncRuns'>>(
    kind: K,
    shape?: (rows: ExportRow<K>[]) => unknown[] | Promise<unknown[]>,
    limit = EXPORT_PAGE_ROWS,
  ) =>
    pagedList<ExportRow<K>>(
      (cursor, n) => exportPages[kind](db, userId, cursor, n) as Promise<KeysetPage<ExportRow<K>>>,
      limit,
      shape,
    );
  return lazyObject({
    exportedAt: now.toISOString(),
    about:
      'Everything Crossfade stores about you. Passwords and service tokens are stored only in protected form and are not included.',
    profile: profileSection(user),
    connections,
    transfers: list('transfers', (rows) => rows.map(transferSection)),
    matchSets: list('matchSets', (rows) => matchSetSection(deps, rows)),
    ...activitySections(deps, list),
    imports: list('imports', undefined, PLAYLIST_PAGE_ROWS),
    exports: list('exports'),
    backups,
    merges: lazyObject({
      invitations: list('invitations'),
      mergedPlaylists: list('merged', undefined, PLAYLIST_PAGE_ROWS),
    }),
    links: list('links', (rows) => linkSection(deps, rows)),
    billing,
    jobs: pagedList((cursor, n) => listJobsOfUserPage(db, userId, cursor, n), EXPORT_PAGE_ROWS),
    messagesSent: list('outbox'),
    analyticsEvents: list('events'),
  });
}

const profileSection = (user: UserRow) => ({
  id: user.id,
  username: user.username,
  email: user.email,
  plan: user.plan,
  publicProfile: user.publicProfile,
  createdAt: user.createdAt.toISOString(),
});

const transferSection = (row: ExportRow<'transfers'>) => ({
  id: row.id,
  name: row.name,
  sourceService: row.sourceService,
  destinationService: row.destinationService,
  sourcePlaylistId: row.sourcePlaylistId,
  status: row.status,
  destinationUrl: row.destinationUrl,
  totalTracks: row.totalTracks,
  matchedTracks: row.matchedTracks,
  unmatchedTracks: row.unmatchedTracks,
  addedTracks: row.addedTracks,
  overallConfidence: row.overallConfidence,
  verifiedTracks: row.verifiedTracks,
  verificationMissing: row.verificationMissing,
  includeUnmatched: row.includeUnmatched,
  error: row.error,
  createdAt: row.createdAt,
  completedAt: row.completedAt,
});

const countOf = (rows: { id: string; n: number }[], id: string) =>
  Number(rows.find((candidate) => candidate.id === id)?.n ?? 0);

async function matchSetSection(deps: AppDeps, sets: ExportRow<'matchSets'>[]) {
  const counts = await matchSetCounts(
    deps.db,
    sets.map((set) => set.id),
  );
  return sets.map((set) => ({
    id: set.id,
    sourceService: set.sourceService,
    destinationService: set.destinationService,
    sourcePlaylistId: set.sourcePlaylistId,
    sourcePlaylistName: set.sourcePlaylistName,
    status: set.status,
    createdAt: set.createdAt,
    rows: countOf(counts.rows, set.id),
    yourChoices: counts.decisions
      .filter((row) => row.id === set.id && row.decidedBy === 'person')
      .reduce((sum, row) => sum + Number(row.n), 0),
  }));
}

/** Batches, match rules and syncs (issue 14) with every run's history: what each added, removed and listed. */
function activitySections(
  deps: AppDeps,
  list: <K extends 'batches' | 'rules' | 'syncs'>(
    kind: K,
    shape?: (rows: ExportRow<K>[]) => unknown[],
    limit?: number,
  ) => PagedArray,
) {
  return {
    batches: list('batches', (rows) =>
      rows.map((batch) => ({
        id: batch.id,
        sourceService: batch.sourceService,
        destinationService: batch.destinationService,
        status: batch.status,
        playlists: batch.items,
        createdAt: batch.createdAt,
      })),
    ),
    matchRules: list('rules', (rows) =>
      rows.map((rule) => ({
        id: rule.id,
        sourceService: rule.sourceService,
        destinationService: rule.destinationService,
        sourceKey: rule.sourceKey,
        source: rule.source,
        action: rule.action,
        destination: rule.destination,
        createdAt: rule.createdAt,
        updatedAt: rule.updatedAt,
      })),
    ),
    syncs: list('syncs', (rows) =>
      rows.map((sync) =>
        lazyObject({
          ...sync,
          runs: pagedList((cursor, n) => exportPages.syncRuns(deps.db, sync.id, cursor, n), EXPORT_PAGE_ROWS),
        }),
      ),
    ),
  };
}

async function linkSection(deps: AppDeps, links: ExportRow<'links'>[]) {
  const counts = await linkCounts(
    deps.db,
    links.map((link) => link.id),
  );
  return links.map((link) => ({
    id: link.id,
    slug: link.slug,
    name: link.name,
    targetUrl: link.targetUrl,
    target: link.target,
    active: link.active,
    createdAt: link.createdAt,
    views: countOf(counts.views, link.id),
    signups: countOf(counts.signups, link.id),
  }));
}

/** The person's Stripe customer and subscription as last reported, and every change of plan. */
async function exportBilling(deps: AppDeps, userId: string) {
  const [account, changes] = await Promise.all([
    findBillingAccount(deps.db, userId),
    listPlanChanges(deps.db, userId),
  ]);
  return {
    stripeCustomerId: account?.customerId ?? null,
    subscription: account?.subscriptionId
      ? {
          id: account.subscriptionId,
          plan: account.subscriptionPlan,
          interval: account.billingInterval,
          status: account.subscriptionStatus,
          currentPeriodEnd: account.currentPeriodEnd,
          cancelAtPeriodEnd: account.cancelAtPeriodEnd,
          lastInvoice: account.lastInvoice,
        }
      : null,
    planChanges: changes.map((change) => ({
      from: change.fromPlan,
      to: change.toPlan,
      reason: change.reason,
      effectiveAt: change.effectiveAt,
      syncsPaused: change.syncsPaused,
      syncsResumed: change.syncsResumed,
      backupsKeptUntil: change.backupsKeptUntil,
    })),
  };
}
