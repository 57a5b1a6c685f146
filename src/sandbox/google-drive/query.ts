import type { DriveItem } from './wire';

/**
 * Two pieces of Google's request language, as far as Crossfade uses them, parsed strictly (what Google
 * would refuse, we refuse): Drive's search query `q` (terms joined by `and`: `name = '…'`,
 * `name contains '…'`, `mimeType = '…'`, `'<id>' in parents`, `trashed = false`, with `!=` where Drive has
 * it) and the `fields` partial-response selector (`a,b(c,d),e/f`, `*`).
 */

export type Term = (item: DriveItem) => boolean;

export class QueryError extends Error {}

const STRING = String.raw`'((?:[^'\\]|\\.)*)'`;
const TERMS: { pattern: RegExp; build: (match: RegExpExecArray) => Term }[] = [
  {
    pattern: new RegExp(`^name\\s*(=|!=|contains)\\s*${STRING}$`),
    build: (match) => {
      const value = unquote(match[2] ?? '');
      if (match[1] === 'contains') return (item) => item.name.toLowerCase().includes(value.toLowerCase());
      return match[1] === '=' ? (item) => item.name === value : (item) => item.name !== value;
    },
  },
  {
    pattern: new RegExp(`^mimeType\\s*(=|!=)\\s*${STRING}$`),
    build: (match) => {
      const value = unquote(match[2] ?? '');
      return match[1] === '=' ? (item) => item.mimeType === value : (item) => item.mimeType !== value;
    },
  },
  {
    pattern: new RegExp(`^${STRING}\\s+in\\s+parents$`),
    build: (match) => {
      const parent = unquote(match[1] ?? '');
      return (item) => item.parents.includes(parent);
    },
  },
  // Nothing is ever trashed in the sandbox (Crossfade does not delete), so `trashed = false` holds for all.
  {
    pattern: /^trashed\s*(=|!=)\s*(true|false)$/,
    build: (match) => () => (match[1] === '=') !== (match[2] === 'true'),
  },
];

function unquote(value: string): string {
  return value.replace(/\\(.)/g, '$1');
}

/** Splits on ` and ` outside quoted strings. */
function splitAnd(q: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < q.length; i++) {
    const char = q[i] ?? '';
    if (char === '\\' && quoted) {
      current += char + (q[i + 1] ?? '');
      i++;
      continue;
    }
    if (char === "'") quoted = !quoted;
    if (!quoted && /^\s+and\s+/i.test(q.slice(i)) && /\s/.test(char)) {
      parts.push(current);
      const skip = /^\s+and\s+/i.exec(q.slice(i))?.[0].length ?? 1;
      i += skip - 1;
      current = '';
      continue;
    }
    current += char;
  }
  if (quoted) throw new QueryError('Unterminated string in query.');
  parts.push(current);
  return parts.map((part) => part.trim());
}

export function parseDriveQuery(q: string | undefined): Term {
  if (q === undefined || q.trim() === '') return () => true;
  const terms = splitAnd(q).map((part) => {
    for (const { pattern, build } of TERMS) {
      const match = pattern.exec(part);
      if (match) return build(match);
    }
    throw new QueryError(`Invalid query term: ${part}`);
  });
  return (item) => terms.every((term) => term(item));
}

// ── fields ─────────────────────────────────────────────────────────────────────────────────────

export type FieldTree = Map<string, FieldTree | true>;

export class FieldsError extends Error {}

export function parseFields(fields: string): FieldTree {
  let position = 0;
  const source = fields.replace(/\s+/g, '');
  const name = () => {
    const match = /^(\*|[A-Za-z][A-Za-z0-9_]*)/.exec(source.slice(position));
    if (!match) throw new FieldsError(`Invalid field selection ${fields}`);
    position += match[0].length;
    return match[0];
  };
  const list = (closing: boolean): FieldTree => {
    const tree: FieldTree = new Map();
    for (;;) {
      const path = [name()];
      while (source[position] === '/') {
        position++;
        path.push(name());
      }
      let leaf: FieldTree | true = true;
      if (source[position] === '(') {
        position++;
        leaf = list(true);
      }
      insert(tree, path, leaf);
      if (source[position] === ',') {
        position++;
        continue;
      }
      if (closing) {
        if (source[position] !== ')') throw new FieldsError(`Invalid field selection ${fields}`);
        position++;
      }
      return tree;
    }
  };
  const tree = list(false);
  if (position !== source.length) throw new FieldsError(`Invalid field selection ${fields}`);
  return tree;
}

function insert(tree: FieldTree, path: string[], leaf: FieldTree | true): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (rest.length === 0) {
    tree.set(head, leaf);
    return;
  }
  const existing = tree.get(head);
  const child: FieldTree = existing instanceof Map ? existing : new Map();
  tree.set(head, child);
  insert(child, rest, leaf);
}

/** The part of `value` the selector names; unknown names are an error, as on Google. */
export function selectFields(value: unknown, tree: FieldTree | true, where = ''): unknown {
  if (tree === true || tree.has('*')) return value;
  if (Array.isArray(value)) return value.map((entry) => selectFields(entry, tree, where));
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const [key, sub] of tree) {
    if (!(key in record)) {
      if (KNOWN_ABSENT.has(key)) continue;
      throw new FieldsError(`Invalid field selection ${where}${key}`);
    }
    picked[key] = selectFields(record[key], sub, `${where}${key}/`);
  }
  return picked;
}

/** Fields a resource may simply not carry (a folder has no size, the last page no nextPageToken). */
const KNOWN_ABSENT = new Set(['size', 'md5Checksum', 'originalFilename', 'nextPageToken', 'photoLink']);
