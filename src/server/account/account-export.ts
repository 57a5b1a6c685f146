import type { AppDeps } from '../app-context';
import { findBillingAccount, listPlanChanges } from '../billing/billing-store';
import { notFound } from '../domain-errors';
import { listJobsOfUser } from '../jobs/job-store';
import { listBackups } from '../vault/backup-store';
import {
  type ExportRows,
  findUserRow,
  linkCounts,
  matchSetCounts,
  readExportRows,
  type UserRow,
} from './account-store';

/**
 * "Download my data": everything Crossfade keeps about a person, in one JSON document. Secrets are left
 * out (password hash, provider tokens, invitation tokens), and so are blobs that are downloadable on
 * their own (saved export files, backup contents: listed with their sizes and counts).
 */
export async function buildAccountExport(deps: AppDeps, userId: string, now = new Date()) {
  const user = await findUserRow(deps.db, userId);
  if (!user) throw notFound('This account no longer exists.');
  const [rows, jobs, backups, billing] = await Promise.all([
    readExportRows(deps.db, userId),
    listJobsOfUser(deps.db, userId),
    listBackups(deps, userId),
    exportBilling(deps, userId),
  ]);
  return {
    exportedAt: now.toISOString(),
    about:
      'Everything Crossfade stores about you. Passwords and service tokens are stored only in protected form and are not included.',
    profile: profileSection(user),
    connections: rows.connections,
    transfers: rows.transfers.map(transferSection),
    matchSets: await matchSetSection(deps, rows.matchSets),
    ...activitySections(rows),
    imports: rows.imports.map((row) => ({
      id: row.id,
      name: row.name,
      originService: row.originService,
      createdAt: row.createdAt,
      tracks: row.tracks,
    })),
    exports: rows.exports,
    backups,
    merges: { invitations: rows.invitations, mergedPlaylists: rows.merged },
    links: await linkSection(deps, rows.links),
    billing,
    jobs,
    messagesSent: rows.outbox,
    analyticsEvents: rows.events,
  };
}

export type AccountExport = Awaited<ReturnType<typeof buildAccountExport>>;

const profileSection = (user: UserRow) => ({
  id: user.id,
  username: user.username,
  email: user.email,
  plan: user.plan,
  publicProfile: user.publicProfile,
  createdAt: user.createdAt.toISOString(),
});

const transferSection = (row: ExportRows['transfers'][number]) => ({
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

async function matchSetSection(deps: AppDeps, sets: ExportRows['matchSets']) {
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
function activitySections({ rules, syncs, syncRuns, batches }: ExportRows) {
  return {
    batches: batches.map((batch) => ({
      id: batch.id,
      sourceService: batch.sourceService,
      destinationService: batch.destinationService,
      status: batch.status,
      playlists: batch.items,
      createdAt: batch.createdAt,
    })),
    matchRules: rules.map((rule) => ({
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
    syncs: syncs.map((sync) => ({
      ...sync,
      runs: syncRuns.filter((run) => run.syncId === sync.id),
    })),
  };
}

async function linkSection(deps: AppDeps, links: ExportRows['links']) {
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
