import { findPublicProfile } from '../account/account-store';
import type { AppDeps } from '../app-context';
import { isUuid } from '../db/uuid';
import { forbidden, notFound } from '../domain-errors';
import { type Library, sampleLibrary } from './library';
import { loadLibrary } from './library-snapshot';

/**
 * Whose library a taste view shows. Without a userId: the signed-in person's (`viewerId`), or the sample
 * when signed out. Another person's only when they chose a public profile (users.public_profile);
 * otherwise a 403 that says so. Anyone without a connected service gets the sample, flagged `sample: true`.
 */
export async function libraryForRequest(
  deps: AppDeps,
  viewerId: string | undefined,
  requestedUserId: string | undefined,
): Promise<Library> {
  let ownerId = viewerId;
  if (requestedUserId !== undefined && requestedUserId !== viewerId) {
    const owner = isUuid(requestedUserId) ? await findPublicProfile(deps.db, requestedUserId) : undefined;
    if (!owner) throw notFound('That person does not exist.');
    if (!owner.publicProfile) throw forbidden("This person's taste profile is private.");
    ownerId = owner.id;
  }
  if (!ownerId) return sampleLibrary();
  return (await loadLibrary(deps, ownerId)) ?? sampleLibrary();
}
