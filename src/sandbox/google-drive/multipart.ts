/**
 * `multipart/related` as Drive's multipart upload takes it (RFC 2387): exactly two parts, the file's JSON
 * metadata then its bytes, each with its own Content-Type. Parsed on bytes, since the media part may be
 * binary (a ZIP).
 */

export interface RelatedPart {
  contentType: string;
  body: Buffer;
}

export class MultipartError extends Error {}

export function boundaryOf(contentType: string): string | undefined {
  if (!/^multipart\/related\b/i.test(contentType.trim())) return undefined;
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

export function parseRelated(body: Buffer, boundary: string): RelatedPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: RelatedPart[] = [];
  let position = body.indexOf(delimiter);
  if (position < 0) throw new MultipartError('The multipart body has no boundary line.');
  for (;;) {
    position += delimiter.length;
    if (body.subarray(position, position + 2).toString() === '--') return parts;
    // Skip the line break after the boundary.
    if (body.subarray(position, position + 2).toString() !== '\r\n') {
      throw new MultipartError('Malformed multipart boundary line.');
    }
    position += 2;
    const headerEnd = body.indexOf('\r\n\r\n', position);
    if (headerEnd < 0) throw new MultipartError('A multipart part has no header end.');
    const headers = body.subarray(position, headerEnd).toString('utf8');
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headerEnd + 4);
    if (next < 0) throw new MultipartError('The multipart body is not closed.');
    const contentType = /^content-type:\s*(.+)$/im.exec(headers)?.[1]?.trim() ?? '';
    parts.push({ contentType, body: body.subarray(headerEnd + 4, next) });
    position = next + 2;
  }
}
