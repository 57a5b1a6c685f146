/**
 * `npm run lint` step (issue 26): no function in src/ over 150 lines, counted from its signature to its
 * closing brace. Biome's noExcessiveLinesPerFunction does not count a component's JSX lines, so React
 * components could grow past the limit with lint passing; this check parses every source file with the
 * oxc parser (rolldown's `parseSync`) and measures every function, arrow function and method itself.
 * Tests (`*.test.ts(x)`) and migrations are not checked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSync } from 'rolldown/utils';

export const MAX_FUNCTION_LINES = 150;

export interface LongFunction {
  /** Path relative to the checked root, with forward slashes. */
  file: string;
  /** Name of the function, or of what it is assigned to; `(anonymous)` when there is none. */
  name: string;
  /** 1-based line of the signature. */
  line: number;
  /** Lines from the signature to the closing brace, both included. */
  lines: number;
}

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** The files this check covers: `src/**\/*.ts(x)` except tests and migrations. */
export function sourceFiles(root: string): string[] {
  const src = join(root, 'src');
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .map((path) => path.split(sep).join('/'))
    .filter((path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path))
    .filter((path) => !path.split('/').includes('migrations'))
    .sort()
    .map((path) => join(src, path));
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = 0; index < text.length; index += 1) if (text[index] === '\n') starts.push(index + 1);
  return starts;
}

function lineOf(starts: number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((starts[middle] ?? 0) <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}

type Node = { type: string; start: number; end: number; [key: string]: unknown };

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';
}

function keyName(key: unknown): string | undefined {
  if (!isNode(key)) return undefined;
  if (key.type === 'Identifier' || key.type === 'PrivateIdentifier') return String(key.name);
  if (key.type === 'Literal') return String(key.value);
  return undefined;
}

/** The name a child node inherits from its parent: `const Page = () => …`, `{ render() {} }`, … */
function nameFor(parent: Node, fallback: string | undefined): string | undefined {
  switch (parent.type) {
    case 'VariableDeclarator':
      return keyName(parent.id) ?? fallback;
    case 'Property':
    case 'MethodDefinition':
    case 'PropertyDefinition':
      return keyName(parent.key) ?? fallback;
    case 'AssignmentExpression':
      return keyName(parent.left) ?? fallback;
    case 'ExportDefaultDeclaration':
      return 'default';
    default:
      return fallback;
  }
}

/** Every function in one file's text longer than `limit` lines. */
export function longFunctionsIn(file: string, text: string, limit = MAX_FUNCTION_LINES): LongFunction[] {
  const parsed = parseSync(file, text, { lang: file.endsWith('.tsx') ? 'tsx' : 'ts' });
  if (parsed.errors.length > 0) {
    const first = parsed.errors[0];
    throw new Error(`${file}: cannot parse (${first?.message ?? 'unknown error'})`);
  }
  const starts = lineStarts(text);
  const found: LongFunction[] = [];
  const visit = (node: Node, hint: string | undefined) => {
    let inner = hint;
    if (FUNCTION_TYPES.has(node.type)) {
      const line = lineOf(starts, node.start);
      const lines = lineOf(starts, Math.max(node.start, node.end - 1)) - line + 1;
      const name = keyName(node.id) ?? hint ?? '(anonymous)';
      if (lines > limit) found.push({ file, name, line, lines });
      inner = `(a function inside ${name})`;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'parent') continue;
      const children = Array.isArray(value) ? value : [value];
      for (const child of children) if (isNode(child)) visit(child, nameFor(node, inner));
    }
  };
  visit(parsed.program as unknown as Node, undefined);
  return found;
}

/** Every function over `limit` lines in the source files under `root` (see sourceFiles). */
export function findLongFunctions(root: string, limit = MAX_FUNCTION_LINES): LongFunction[] {
  return sourceFiles(root).flatMap((path) => {
    const file = relative(root, path).split(sep).join('/');
    return longFunctionsIn(file, readFileSync(path, 'utf8'), limit);
  });
}

export function formatLongFunction(found: LongFunction): string {
  return `${found.file}:${found.line} ${found.name} has ${found.lines} lines (maximum ${MAX_FUNCTION_LINES}); split it into named steps`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const found = findLongFunctions(root);
  for (const entry of found) console.error(formatLongFunction(entry));
  if (found.length > 0) {
    console.error(`\n${found.length} function(s) over ${MAX_FUNCTION_LINES} lines.`);
    process.exit(1);
  }
}
