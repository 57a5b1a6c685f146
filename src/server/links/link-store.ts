import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, gt, gte, inArray, sql } from 'drizzle-orm';
import {
  LINK_STATS_DAYS,
  type LinkDto,
  type LinkStats,
  type LinkTarget,
  linkTargetSchema,
} from '../../shared/api/links';
import type { Database } from '../db/client';
import { linkSignups, links, linkViews } from '../db/schema';
import { isUuid } from '../db/uuid';

/** A visitor counts once per hour per link. */
export const VIEW_DEDUPE_MS = 60 * 60_000;
const SLUG_LENGTH = 8;
const SLUG_ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const DAY_MS = 24 * 60 * 60_000;

type LinkRow = typeof links.$inferSelect;

/** Unambiguous characters only (no 0/O, 1/l/I), since people read these links aloud and retype them. */
export function newSlug(): string {
  const bytes = randomBytes(SLUG_LENGTH);
  let slug = '';
  for (const byte of bytes) slug += SLUG_ALPHABET[byte % SLUG_ALPHABET.length];
  return slug;
}

export function readTarget(value: unknown): LinkTarget | null {
  const parsed = linkTargetSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function signupRate(followers: number, views: number): number {
  return views === 0 ? 0 : followers / views;
}

function toDto(row: LinkRow, views: number, followers: number): LinkDto {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    target: readTarget(row.target),
    views,
    followers,
    signupRate: signupRate(followers, views),
  };
}

export async function createLink(
  db: Database,
  input: { userId: string; name: string; targetUrl: string | null; target: LinkTarget | null },
): Promise<LinkDto> {
  // Eight characters from 56 make a collision vanishingly rare; retry anyway rather than fail.
  for (let attempt = 0; ; attempt++) {
    const rows = await db
      .insert(links)
      .values({ ...input, slug: newSlug() })
      .onConflictDoNothing()
      .returning();
    const row = rows[0];
    if (row) return toDto(row, 0, 0);
    if (attempt >= 4) throw new Error('could not find a free slug');
  }
}

async function countsFor(db: Database, linkIds: string[]) {
  if (linkIds.length === 0) return { views: new Map<string, number>(), signups: new Map<string, number>() };
  const [viewRows, signupRows] = await Promise.all([
    db
      .select({ linkId: linkViews.linkId, n: count() })
      .from(linkViews)
      .where(inArray(linkViews.linkId, linkIds))
      .groupBy(linkViews.linkId),
    db
      .select({ linkId: linkSignups.linkId, n: count() })
      .from(linkSignups)
      .where(inArray(linkSignups.linkId, linkIds))
      .groupBy(linkSignups.linkId),
  ]);
  return {
    views: new Map(viewRows.map((row) => [row.linkId, Number(row.n)])),
    signups: new Map(signupRows.map((row) => [row.linkId, Number(row.n)])),
  };
}

export async function listLinks(db: Database, userId: string): Promise<LinkDto[]> {
  const rows = await db.select().from(links).where(eq(links.userId, userId)).orderBy(desc(links.createdAt));
  const { views, signups } = await countsFor(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toDto(row, views.get(row.id) ?? 0, signups.get(row.id) ?? 0));
}

/** The owner's link, or undefined (someone else's link is as absent as a missing one). */
export async function findOwnLink(db: Database, userId: string, linkId: string) {
  if (!isUuid(linkId)) return undefined;
  const [row] = await db
    .select()
    .from(links)
    .where(and(eq(links.id, linkId), eq(links.userId, userId)));
  return row;
}

export async function setActive(db: Database, row: LinkRow, active: boolean): Promise<LinkDto> {
  const [updated] = await db.update(links).set({ active }).where(eq(links.id, row.id)).returning();
  const current = updated ?? row;
  const { views, signups } = await countsFor(db, [current.id]);
  return toDto(current, views.get(current.id) ?? 0, signups.get(current.id) ?? 0);
}

export async function findBySlug(db: Database, slug: string) {
  if (!/^[A-Za-z0-9]{1,32}$/.test(slug)) return undefined;
  const [row] = await db.select().from(links).where(eq(links.slug, slug));
  return row;
}

/** Records a view unless this visitor already viewed the link within the hour; true when counted. */
export async function recordView(db: Database, linkId: string, visitorHash: string, now = new Date()) {
  const since = new Date(now.getTime() - VIEW_DEDUPE_MS);
  const [recent] = await db
    .select({ id: linkViews.id })
    .from(linkViews)
    .where(and(eq(linkViews.linkId, linkId), eq(linkViews.visitorHash, visitorHash), gt(linkViews.at, since)))
    .limit(1);
  if (recent) return false;
  await db.insert(linkViews).values({ linkId, visitorHash, at: now });
  return true;
}

/** True when the address is new for this link; the same address in any letter case counts once. */
export async function addSignup(db: Database, linkId: string, email: string): Promise<boolean> {
  const rows = await db
    .insert(linkSignups)
    .values({ linkId, email })
    .onConflictDoNothing()
    .returning({ id: linkSignups.id });
  return rows.length > 0;
}

const dayKey = (date: Date) => date.toISOString().slice(0, 10);

/** Views and signups per UTC day for the last 30 days, oldest first, days without activity as zeros. */
export async function linkStats(db: Database, linkId: string, now = new Date()): Promise<LinkStats> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const start = new Date(today - (LINK_STATS_DAYS - 1) * DAY_MS);
  const day = (column: typeof linkViews.at | typeof linkSignups.at) =>
    sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
  const [viewRows, signupRows] = await Promise.all([
    db
      .select({ day: day(linkViews.at), n: count() })
      .from(linkViews)
      .where(and(eq(linkViews.linkId, linkId), gte(linkViews.at, start)))
      .groupBy(day(linkViews.at)),
    db
      .select({ day: day(linkSignups.at), n: count() })
      .from(linkSignups)
      .where(and(eq(linkSignups.linkId, linkId), gte(linkSignups.at, start)))
      .groupBy(day(linkSignups.at)),
  ]);
  const views = new Map(viewRows.map((row) => [row.day, Number(row.n)]));
  const signups = new Map(signupRows.map((row) => [row.day, Number(row.n)]));
  return {
    days: Array.from({ length: LINK_STATS_DAYS }, (_, index) => {
      const date = dayKey(new Date(start.getTime() + index * DAY_MS));
      return { date, views: views.get(date) ?? 0, signups: signups.get(date) ?? 0 };
    }),
  };
}
