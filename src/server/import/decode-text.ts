import { isSafeText } from '../../shared/text';
import { IMPORT_MESSAGES as M, MAX_IMPORT_BYTES } from './limits';

export type DecodedText = { ok: true; text: string } | { ok: false; message: string };

// Zip containers (xlsx, numbers, ods) start with "PK\x03\x04"; old .xls files with the OLE2 signature.
const looksLikeWorkbook = (text: string): boolean =>
  text.startsWith('PK\u0003\u0004') || text.startsWith('\u00d0\u00cf\u0011\u00e0');

const isStrayControl = (code: number): boolean =>
  (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d) ||
  (code >= 0x7f && code <= 0x9f);

// Text files have control characters other than tab, CR, LF and form feed rarely, if ever.
const tooManyControls = (text: string): boolean => {
  const allowed = Math.max(2, text.length / 100);
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    if (isStrayControl(text.charCodeAt(i))) {
      count += 1;
      if (count > allowed) return true;
    }
  }
  return false;
};

const textProblem = (text: string): string | undefined => {
  if (looksLikeWorkbook(text)) return M.spreadsheet;
  if (text.includes('\u0000') || tooManyControls(text)) return M.notText;
  // What a lenient decoder leaves for bytes that were not UTF-8.
  if (text.includes('\ufffd')) return M.notUtf8;
  // A lone surrogate (text that reached us already decoded) is broken Unicode: the shared text rule.
  if (!isSafeText(text)) return M.notUtf8;
  return undefined;
};

const decodeBytes = (bytes: Uint8Array): DecodedText => {
  try {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) {
      return { ok: true, text: new TextDecoder('utf-16le', { fatal: true }).decode(bytes) };
    }
    if (bytes[0] === 0xfe && bytes[1] === 0xff) {
      return { ok: true, text: new TextDecoder('utf-16be', { fatal: true }).decode(bytes) };
    }
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    // Say "workbook" or "binary" when it is one: that helps more than "not UTF-8".
    const lenient = new TextDecoder('latin1').decode(bytes.subarray(0, 4096));
    return { ok: false, message: textProblem(lenient) ?? M.notUtf8 };
  }
};

/**
 * Turns an upload (raw bytes, or text a browser already decoded) into checked text without a BOM.
 * Bytes must be UTF-8 (or UTF-16 with a BOM); text must not carry the marks of a binary or mis-decoded file.
 */
export const decodeImportText = (input: string | Uint8Array): DecodedText => {
  if (typeof input !== 'string' && !(input instanceof Uint8Array)) return { ok: false, message: M.notText };
  const size = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.byteLength;
  if (size > MAX_IMPORT_BYTES) return { ok: false, message: M.tooLarge };

  const decoded: DecodedText = typeof input === 'string' ? { ok: true, text: input } : decodeBytes(input);
  if (!decoded.ok) return decoded;
  const text = decoded.text.startsWith('\ufeff') ? decoded.text.slice(1) : decoded.text;
  const problem = textProblem(text);
  if (problem !== undefined) return { ok: false, message: problem };
  if (text.trim() === '') return { ok: false, message: M.empty };
  return { ok: true, text };
};
