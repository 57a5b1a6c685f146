/**
 * The import boundaries of the project, checked over the source tree (part of `npm run lint`; Biome's
 * `noRestrictedImports` cannot express "only through index.ts" or find cycles, so one small checker
 * holds every rule and reports file, line and rule).
 *
 * - routes never import `db/schema` or `drizzle-orm`: SQL belongs to the stores;
 * - `drizzle-orm` is imported only by stores (`*-store.ts` under `src/server`), `src/server/db/`, the test
 *   helpers (`src/server/testing/`) and tests: every query lives in a store (issue 26);
 * - services (server code outside routes/, http/, testing/ and the composition roots) never import
 *   `hono` or `@hono/*`, nor anything of http/: they take plain values, not a request Context;
 * - a page (`src/web/pages`) imports a feature only through its `index.ts`;
 * - the sandbox never imports the server: the emulators stand in for other companies' services;
 * - a web feature imports another feature only through its public `index.ts`;
 * - `process.env` is read only in config modules (and in tests, benchmarks and scripts);
 * - services (server code outside routes/ and http/) never import http/errors: they raise domain errors;
 * - no import cycles.
 */

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

export type RuleName =
  | 'route-imports-schema'
  | 'route-runs-sql'
  | 'sql-outside-store'
  | 'service-imports-hono'
  | 'service-imports-http'
  | 'page-deep-import'
  | 'sandbox-imports-server'
  | 'feature-deep-import'
  | 'process-env'
  | 'service-imports-http-errors'
  | 'import-cycle';

export interface Violation {
  rule: RuleName;
  /** Path relative to the root, with `/`. */
  file: string;
  line: number;
  message: string;
}

/** A violation known and owned by someone else: reported as allowed until the entry is removed. */
export interface AllowEntry {
  rule: RuleName;
  file: string;
  /** Who removes it, and when. */
  todo: string;
}

interface ImportRef {
  specifier: string;
  line: number;
  /** The file it resolves to (relative, `/`), when it is one of ours. */
  target: string | undefined;
}

const SOURCE_EXTENSIONS = ['.ts', '.tsx'];
const IGNORED_DIRS = new Set(['node_modules', 'dist', '.git', 'migrations']);

const toPosix = (path: string) => path.split(sep).join('/');
const isTest = (file: string) => /\.(test|spec)\.tsx?$/.test(file) || file.startsWith('e2e/');

function listSources(root: string, dir: string, out: string[]): string[] {
  if (!existsSync(join(root, dir))) return out;
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    if (IGNORED_DIRS.has(entry.name)) continue;
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) listSources(root, path, out);
    else if (SOURCE_EXTENSIONS.some((ext) => entry.name.endsWith(ext)) && !entry.name.endsWith('.d.ts'))
      out.push(path);
  }
  return out;
}

function resolveRelative(root: string, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = toPosix(join(dirname(from), specifier));
  const candidates = [
    base,
    ...SOURCE_EXTENSIONS.map((ext) => base + ext),
    ...SOURCE_EXTENSIONS.map((ext) => `${base}/index${ext}`),
  ];
  for (const candidate of candidates) {
    const full = join(root, candidate);
    if (existsSync(full) && statSync(full).isFile()) return candidate;
  }
  return undefined;
}

// `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')`, across lines.
const IMPORT_PATTERN =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(root: string, file: string, text: string): ImportRef[] {
  const refs: ImportRef[] = [];
  for (const match of text.matchAll(IMPORT_PATTERN)) {
    const specifier = match[1] ?? match[2];
    if (specifier === undefined) continue;
    const line = text.slice(0, match.index + match[0].length).split('\n').length;
    refs.push({ specifier, line, target: resolveRelative(root, file, specifier) });
  }
  return refs;
}

const featureOf = (file: string) => /^src\/web\/features\/([^/]+)\//.exec(file)?.[1];

/** Config modules own the environment; tests, benchmarks and scripts set it up for the code they run. */
function mayReadEnvironment(file: string): boolean {
  return (
    isTest(file) ||
    /(^|\/)config\.ts$/.test(file) ||
    /\.config\.ts$/.test(file) ||
    file === 'src/sandbox/main.ts' ||
    file.startsWith('src/server/testing/') ||
    file.startsWith('bench/') ||
    file.startsWith('scripts/')
  );
}

/** Server code below the HTTP layer: everything but routes, the HTTP middleware, the app's composition and test helpers. */
function isService(file: string): boolean {
  if (!file.startsWith('src/server/')) return false;
  return !/^src\/server\/(routes|http|testing)\//.test(file) && file !== 'src/server/app.ts';
}

/**
 * Where the HTTP layer meets the services: the app's composition (`app.ts`, its `app-context.ts` types),
 * the wiring of settings, database and emulators (`runtime.ts`), the process entries (`main.ts`,
 * `worker.ts`) and the settings (`config.ts` parses TRUST_PROXY with http/client-address.ts).
 */
const COMPOSITION_ROOTS = new Set(
  ['app.ts', 'app-context.ts', 'runtime.ts', 'main.ts', 'worker.ts', 'config.ts'].map(
    (name) => `src/server/${name}`,
  ),
);

/** A service in the strict sense: below the HTTP layer and not one of the composition roots. */
const isPlainService = (file: string) => isService(file) && !COMPOSITION_ROOTS.has(file) && !isTest(file);

/** Who may import drizzle-orm: the stores, the database module, the test helpers and tests. */
function mayRunSql(file: string): boolean {
  return (
    isTest(file) ||
    (file.startsWith('src/server/') && file.endsWith('-store.ts')) ||
    file.startsWith('src/server/db/') ||
    file.startsWith('src/server/testing/')
  );
}

const isDrizzle = (specifier: string) => /^drizzle-orm(\/|$)/.test(specifier);
const isHono = (specifier: string) => /^(hono|@hono\/[^/]+)(\/|$)/.test(specifier);

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/** Every violation in the tree under `root` (the repository root or a test's temporary tree). */
export function findViolations(root: string): Violation[] {
  const files = ['src', 'bench', 'scripts', 'e2e'].flatMap((dir) => listSources(root, dir, []));
  const violations: Violation[] = [];
  const graph = new Map<string, { target: string; line: number }[]>();

  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const refs = importsOf(root, file, text);
    graph.set(
      file,
      refs.flatMap((ref) => (ref.target === undefined ? [] : [{ target: ref.target, line: ref.line }])),
    );
    for (const ref of refs) {
      if (file.startsWith('src/server/routes/') && !isTest(file) && /^drizzle-orm(\/|$)/.test(ref.specifier))
        violations.push({
          rule: 'route-runs-sql',
          file,
          line: ref.line,
          message: `a route imports ${ref.specifier}; move the query into a service`,
        });
      // Routes have their own rule (above); everything else outside a store is told where SQL goes.
      if (
        isDrizzle(ref.specifier) &&
        !mayRunSql(file) &&
        !file.startsWith('src/server/routes/') &&
        (file.startsWith('src/') || file.startsWith('bench/'))
      )
        violations.push({
          rule: 'sql-outside-store',
          file,
          line: ref.line,
          message: `imports ${ref.specifier} outside a store; move the query into a *-store.ts next to this file`,
        });
      if (isPlainService(file) && isHono(ref.specifier))
        violations.push({
          rule: 'service-imports-hono',
          file,
          line: ref.line,
          message: `a service imports ${ref.specifier}; take plain values (the route reads the request)`,
        });
      const target = ref.target;
      if (target === undefined) continue;
      if (
        isPlainService(file) &&
        target.startsWith('src/server/http/') &&
        !/^src\/server\/http\/errors(\/|\.ts$)/.test(target)
      )
        violations.push({
          rule: 'service-imports-http',
          file,
          line: ref.line,
          message: `a service imports ${target}; the HTTP layer calls services, never the other way`,
        });
      if (file.startsWith('src/web/pages/') && !isTest(file)) {
        const feature = featureOf(target);
        if (
          feature !== undefined &&
          !/\/index\.tsx?$/.test(target.slice(`src/web/features/${feature}`.length))
        )
          violations.push({
            rule: 'page-deep-import',
            file,
            line: ref.line,
            message: `a page imports ${target}; import from features/${feature} (its index.ts)`,
          });
      }
      if (
        file.startsWith('src/server/routes/') &&
        !isTest(file) &&
        /^src\/server\/db\/schema(\/|\.ts$)/.test(target)
      )
        violations.push({
          rule: 'route-imports-schema',
          file,
          line: ref.line,
          message: `a route imports ${target}; move the query into a service`,
        });
      // Services raise domain errors (src/server/domain-errors.ts); only the HTTP layer knows statuses.
      if (isService(file) && !isTest(file) && /^src\/server\/http\/errors(\/|\.ts$)/.test(target))
        violations.push({
          rule: 'service-imports-http-errors',
          file,
          line: ref.line,
          message: `a service imports ${target}; throw a DomainError (src/server/domain-errors.ts) instead`,
        });
      // A sandbox test may hold an emulator's answers against the production client's schemas.
      if (file.startsWith('src/sandbox/') && !isTest(file) && target.startsWith('src/server/'))
        violations.push({
          rule: 'sandbox-imports-server',
          file,
          line: ref.line,
          message: `the sandbox imports ${target}; the emulators must not depend on the server`,
        });
      const from = featureOf(file);
      const to = featureOf(target);
      if (
        from !== undefined &&
        to !== undefined &&
        from !== to &&
        !/\/index\.tsx?$/.test(target.slice(`src/web/features/${to}`.length))
      )
        violations.push({
          rule: 'feature-deep-import',
          file,
          line: ref.line,
          message: `feature ${from} imports ${target}; import from features/${to} (its index.ts)`,
        });
    }
    if (!mayReadEnvironment(file))
      for (const match of text.matchAll(/\bprocess\.env\b/g))
        violations.push({
          rule: 'process-env',
          file,
          line: lineOf(text, match.index),
          message: 'process.env is read only in config modules; take the setting as a parameter',
        });
  }

  for (const cycle of findCycles(graph))
    violations.push({
      rule: 'import-cycle',
      file: cycle[0] ?? '',
      line: graph.get(cycle[0] ?? '')?.find((edge) => edge.target === cycle[1])?.line ?? 1,
      message: `import cycle: ${[...cycle, cycle[0]].join(' -> ')}`,
    });
  return violations;
}

/** Each cycle once (Tarjan's strongly connected components, then one path through each). */
function findCycles(graph: Map<string, { target: string }[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const lowlinks = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];

  const visit = (node: string) => {
    indices.set(node, index);
    lowlinks.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const { target } of graph.get(node) ?? []) {
      if (!indices.has(target)) {
        visit(target);
        lowlinks.set(node, Math.min(lowlinks.get(node) ?? 0, lowlinks.get(target) ?? 0));
      } else if (onStack.has(target)) {
        lowlinks.set(node, Math.min(lowlinks.get(node) ?? 0, indices.get(target) ?? 0));
      }
    }
    if (lowlinks.get(node) === indices.get(node)) {
      const component: string[] = [];
      for (;;) {
        const member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
        if (member === node) break;
      }
      const selfLoop = (graph.get(node) ?? []).some((edge) => edge.target === node);
      if (component.length > 1 || selfLoop) components.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indices.has(node)) visit(node);
  return components.map((component) => cyclePath(graph, component));
}

/** A shortest path from the component's first file back to itself, for a readable message. */
function cyclePath(graph: Map<string, { target: string }[]>, component: string[]): string[] {
  const members = new Set(component);
  const start = component[0] ?? '';
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() ?? '';
    for (const { target } of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0] ?? '') ?? start);
        return path;
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return component;
}

/** Splits violations into those to fail on and those an allow-list entry covers (and unused entries). */
export function applyAllowList(violations: Violation[], allowed: readonly AllowEntry[]) {
  const covers = (entry: AllowEntry, violation: Violation) =>
    entry.rule === violation.rule && entry.file === violation.file;
  return {
    failing: violations.filter((violation) => !allowed.some((entry) => covers(entry, violation))),
    allowed: violations.filter((violation) => allowed.some((entry) => covers(entry, violation))),
    stale: allowed.filter((entry) => !violations.some((violation) => covers(entry, violation))),
  };
}

export const formatViolation = (violation: Violation) =>
  `${violation.file}:${violation.line}  ${violation.rule}  ${violation.message}`;

export const relativeTo = (root: string, path: string) => toPosix(relative(root, path));
