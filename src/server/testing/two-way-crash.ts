import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { FetchPlaylistTracksResponse, PlaylistSummary } from '../../shared/api/playlists';
import type { ServiceId } from '../../shared/services';
import { openDatabase } from '../db/open';
import { users } from '../db/schema';
import type { CrashPlace } from './crash-place';
import { formsOf, playlistPagePath, submitForm } from './sandbox-page-edits';
import type { ServerProcess } from './server-process';
import type { TestClient } from './test-server';

/** What the two-way sync crash tests share: the plan, slow calls, read-backs and the sandbox pages. */

/** Sync is Pro: the plan is set in the database while no server holds it (PGlite allows one process). */
export async function makePro(username: string, where: CrashPlace) {
  const handle = where.database ?? (await openDatabase({ dataDir: where.dataDir }));
  try {
    await handle.db.update(users).set({ plan: 'pro' }).where(eq(users.username, username));
  } finally {
    if (!where.database) await handle.close();
  }
}

// Slow enough that the writes are still under way when the process is killed.
export const SLOW = { SANDBOX_LATENCY_MS: '300' };

export async function readBack(client: TestClient, url: string) {
  const answer = await client.post('/api/fetch-playlist-tracks', { playlistUrl: url });
  expect(answer.status, answer.text).toBe(200);
  return (answer.body as FetchPlaylistTracksResponse).tracks;
}

/** The songs on the first page of a sandbox playlist page, with their "Remove" forms. */
export async function pageRows(client: TestClient, service: ServiceId, playlistId: string) {
  const page = await client.get(playlistPagePath(service, playlistId));
  return formsOf(page.text).filter((form) => form.button === 'Remove');
}

/** Adds a song again on Spotify's page: searched by its title, the result that is the same track. */
export async function addOnSpotifyPage(
  client: TestClient,
  playlistId: string,
  song: { title: string; id: string },
) {
  const page = await client.get(
    `${playlistPagePath('spotify', playlistId)}?q=${encodeURIComponent(song.title)}`,
  );
  const form = formsOf(page.text).find(
    (item) => item.button === 'Add' && item.fields.get('track') === song.id,
  );
  if (!form) return false;
  const { status } = await submitForm(client, form);
  expect(status).toBe(303);
  return true;
}

/** A failure of a crash scenario, with what the last server said: a failed run told from a failed machine. */
export function withServerOutput(error: unknown, server: ServerProcess): Error {
  const { exitCode, signalCode } = server.child;
  const why = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return new Error(
    `${why}\n--- the last server (exit ${exitCode}, signal ${signalCode}) said ---\n${server.output().slice(-6000)}`,
  );
}

/** The person's own readable Spotify playlists of `min` to `max` songs (a sync's source). */
export async function ownSpotifyPlaylists(client: TestClient, min: number, max: number) {
  const playlists = (await client.get('/api/playlists/spotify')).body as PlaylistSummary[];
  return playlists.filter(
    (item) =>
      item.kind === 'playlist' &&
      item.isOwned !== false &&
      !item.id.startsWith('import:') &&
      !item.unreadableReason &&
      item.trackCount >= min &&
      item.trackCount <= max,
  );
}
