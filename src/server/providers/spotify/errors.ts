import { ProviderError } from '../http';
import { errorBodySchema } from './schemas';

export const NOT_REGISTERED_MESSAGE =
  "Spotify refused this account because it is not on the app's user list. While the Crossfade app is in " +
  "Spotify's development mode, the app owner must add each person (at most 5) under Users and access in " +
  'the Spotify Developer Dashboard. Ask the owner to add the email of your Spotify account, then connect again.';

export const DEVELOPMENT_MODE_SHARED_MESSAGE =
  "Spotify's development mode does not let apps read other people's playlists, even public ones. Ask the " +
  'owner to export it with Exportify (exportify.net) and import that CSV file here instead.';

export const OWNER_WITHOUT_PREMIUM_MESSAGE =
  "Spotify refused every request because the owner of this Crossfade app's Spotify developer account has " +
  'no active Premium subscription, which development mode requires. Reconnecting will not help: the app ' +
  'owner must renew Premium.';

export const MISSING_SCOPE_MESSAGE =
  'Spotify has not given Crossfade permission for this: the connection was made before Crossfade asked ' +
  'for it (reading and saving your Liked Songs and albums, for instance). Reconnect Spotify to grant it.';

/** Turns a Spotify error answer into a message a person can act on. */
export function describeSpotifyError(status: number, bodyText: string): ProviderError {
  if (status === 403 && bodyText.includes('User not registered')) {
    return new ProviderError('spotify', 'not_registered', NOT_REGISTERED_MESSAGE, status);
  }
  let serviceMessage: string | undefined;
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(bodyText));
    if (parsed.success) serviceMessage = parsed.data.error.message;
  } catch {
    // Not JSON: the status alone decides.
  }
  const detail = serviceMessage ? ` (Spotify said: "${serviceMessage}")` : '';
  if (status === 401) {
    return new ProviderError(
      'spotify',
      'unauthorized',
      `Spotify did not accept the saved sign-in${detail}. Please reconnect Spotify.`,
      status,
    );
  }
  if (status === 403 && serviceMessage?.includes('premium subscription required')) {
    return new ProviderError('spotify', 'forbidden', OWNER_WITHOUT_PREMIUM_MESSAGE, status);
  }
  if (status === 403 && serviceMessage === 'Insufficient client scope') {
    return new ProviderError('spotify', 'forbidden', MISSING_SCOPE_MESSAGE, status);
  }
  if (status === 403) {
    return new ProviderError('spotify', 'forbidden', `Spotify refused this request${detail}.`, status);
  }
  if (status === 404) {
    return new ProviderError('spotify', 'not_found', `Spotify could not find that${detail}.`, status);
  }
  if (status === 429) {
    return new ProviderError(
      'spotify',
      'rate_limited',
      'Spotify is limiting requests right now; try again shortly.',
      status,
    );
  }
  if (status >= 500) {
    return new ProviderError(
      'spotify',
      'unavailable',
      `Spotify is having trouble (error ${status}).`,
      status,
    );
  }
  return new ProviderError('spotify', 'bad_request', `Spotify rejected the request${detail}.`, status);
}
