// `npm run lint` runs this: the repository must work on its own, so no tracked file may read the folder
// beside the clone (`../shared`, which only our own machines have) or name a path of one machine.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RepoProblem {
  path: string;
  line: number;
  text: string;
  reason: string;
}

// Written in pieces so that this file does not flag itself.
const MACHINE_ROOTS = ['home', 'root', 'Users', 'work', 'mnt', 'farm'];
/** A path that begins at one of those roots (e.g. a home folder) at the start of a word: not inside a URL or a longer relative path. */
const ABSOLUTE_MACHINE_PATH = new RegExp(`(^|[\\s'"\`(=:,;[])/(${MACHINE_ROOTS.join('|')})/`);
const WINDOWS_USER_PATH = /\b[A-Za-z]:\\(Users|home)\\/;
/** A relative path that climbs to a `shared` folder: fine inside the repository (src/shared), not above it. */
const CLIMB_TO_SHARED = /((?:\.\.\/)+)shared\b/g;
/** CI's own script, which hands the data in the folder beside the clone to the tests that need it. */
const CI_SCRIPT = '.ci/run';

/** The problems in one tracked file; `path` is relative to the repository root. */
export function findProblems(path: string, content: string): RepoProblem[] {
  const problems: RepoProblem[] = [];
  const depth = dirname(path) === '.' ? 0 : dirname(path).split('/').length;
  content.split('\n').forEach((text, index) => {
    const line = index + 1;
    if (ABSOLUTE_MACHINE_PATH.test(text) || WINDOWS_USER_PATH.test(text)) {
      problems.push({ path, line, text: text.trim(), reason: 'names an absolute path of one machine' });
    }
    for (const match of path === CI_SCRIPT ? [] : text.matchAll(CLIMB_TO_SHARED)) {
      const climbs = (match[1] ?? '').length / 3;
      if (climbs > depth) {
        problems.push({ path, line, text: text.trim(), reason: 'reads ../shared, outside the repository' });
      }
    }
  });
  return problems;
}

const BINARY = /\.(png|jpe?g|gif|webp|ico|woff2?|ttf|zip|gz|pdf)$/i;

export function checkRepository(root: string): RepoProblem[] {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((path) => path && !BINARY.test(path));
  return files.flatMap((path) => {
    let content: string;
    try {
      content = readFileSync(join(root, path), 'utf8');
    } catch {
      return []; // deleted in the work tree but still in the index
    }
    return findProblems(path, content);
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const problems = checkRepository(root);
  for (const problem of problems) {
    console.error(
      `${relative(process.cwd(), join(root, problem.path))}:${problem.line}: ${problem.reason}: ${problem.text}`,
    );
  }
  if (problems.length > 0) {
    console.error(
      `check-repo: ${problems.length} problem(s); the repository must work with nothing beside it.`,
    );
    process.exit(1);
  }
}
