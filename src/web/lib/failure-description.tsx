import type { ReactNode } from 'react';
import { serverMessage } from './api-client';

/**
 * A failure toast's text: the spec's generic sentence first, then, on its own line, the server's reason
 * when it gave one ("Spotify lets this app read only your own playlists…"), so the helpful part is never
 * replaced by "Please try again".
 */
export function failureDescription(generic: string, error: unknown): ReactNode {
  const reason = serverMessage(error);
  if (!reason || reason === generic) return generic;
  return (
    <>
      <span className="block">{generic}</span>
      <span className="block">{reason}</span>
    </>
  );
}
