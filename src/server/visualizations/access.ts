import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppDeps, AppEnv } from '../app-context';
import { users } from '../db/schema';
import { isUuid } from '../db/uuid';
import { forbidden, notFound } from '../domain-errors';
import { type Library, sampleLibrary } from './library';
import { loadLibrary } from './library-snapshot';

/**
 * Whose library a taste view shows. Without a userId: the signed-in person's, or the sample when signed
 * out. Another person's only when they chose a public profile (users.public_profile); otherwise a 403
 * that says so. Anyone without a connected service gets the sample, flagged `sample: true`.
 */
export async function libraryForRequest(
  deps: AppDeps,
  c: Context<AppEnv>,
  requestedUserId: string | undefined,
): Promise<Library> {
  const viewer = c.get('user');
  let ownerId = viewer?.id;
  if (requestedUserId !== undefined && requestedUserId !== viewer?.id) {
    const [owner] = isUuid(requestedUserId)
      ? await deps.db
          .select({ id: users.id, publicProfile: users.publicProfile })
          .from(users)
          .where(eq(users.id, requestedUserId))
      : [];
    if (!owner) throw notFound('That person does not exist.');
    if (!owner.publicProfile) throw forbidden("This person's taste profile is private.");
    ownerId = owner.id;
  }
  if (!ownerId) return sampleLibrary();
  return (await loadLibrary(deps, ownerId)) ?? sampleLibrary();
}
