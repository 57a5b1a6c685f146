import { createHash } from 'node:crypto';

/**
 * Salted with the link, so the same browser cannot be followed from one link's views to another's. The
 * visitor value is the landing page's cookie (src/server/http/visitor-cookie.ts).
 */
export function visitorHash(linkId: string, visitor: string): string {
  return createHash('sha256').update(`${linkId}:${visitor}`).digest('hex');
}
