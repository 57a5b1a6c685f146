import { and, desc, eq, sql } from 'drizzle-orm';
import type { ServiceId } from '../../shared/services';
import type { Database } from '../db/client';
import { importedPlaylists } from '../db/schema';
import type { NormalizedTrack } from '../providers/types';

/** The SQL of playlists imported from a file or a pasted list. */

/** The person's imported playlists, newest first, with their track counts. */
export function listImportedSummaries(db: Database, userId: string) {
  return (
    db
      // The count only: reading the tracks themselves would parse every imported file on each listing.
      .select({
        id: importedPlaylists.id,
        name: importedPlaylists.name,
        trackCount: sql<number>`jsonb_array_length(${importedPlaylists.tracks})`.mapWith(Number),
      })
      .from(importedPlaylists)
      .where(eq(importedPlaylists.userId, userId))
      .orderBy(desc(importedPlaylists.createdAt))
  );
}

/** Stores an imported playlist; its id. */
export async function insertImportedPlaylist(
  db: Database,
  input: { userId: string; name: string; originService: ServiceId | null; tracks: NormalizedTrack[] },
): Promise<string> {
  const [row] = await db.insert(importedPlaylists).values(input).returning({ id: importedPlaylists.id });
  if (!row) throw new Error('import insert returned no row');
  return row.id;
}

/** The person's imported playlist (the id must be a uuid). */
export async function findImportedPlaylist(db: Database, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(importedPlaylists)
    .where(and(eq(importedPlaylists.id, id), eq(importedPlaylists.userId, userId)));
  return row;
}
