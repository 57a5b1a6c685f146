import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The 150-line rule (issue 26, decision 0034) as `npm run lint` runs it: the project's own biome.json
 * over planted files in a throwaway git repository.
 */
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const biome = join(repoRoot, 'node_modules', '.bin', 'biome');

let root: string | undefined;

afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/**
 * A function with `lines` lines between its braces. That is how Biome counts a function's length (its
 * signature and closing brace aside): "This function has too many lines (151)".
 */
function functionOf(name: string, lines: number): string {
  const body = Array.from({ length: lines - 2 }, (_, index) => `  total += ${index};`);
  return [
    `export function ${name}(): number {`,
    '  let total = 0;',
    ...body,
    '  return total;',
    '}',
    '',
  ].join('\n');
}

function lint(files: Record<string, string>) {
  root = mkdtempSync(join(tmpdir(), 'crossfade-function-length-'));
  copyFileSync(join(repoRoot, 'biome.json'), join(root, 'biome.json'));
  spawnSync('git', ['init', '-q'], { cwd: root });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const result = spawnSync(biome, ['lint', '--error-on-warnings', '--max-diagnostics=50', 'src'], {
    cwd: root,
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('no function over 150 lines', () => {
  it('fails a planted 151-line function in src/', () => {
    const planted = functionOf('planted', 151);
    expect(planted.split('\n').length - 1).toBe(153);
    const { status, output } = lint({ 'src/server/planted.ts': planted });
    expect(output).toContain('noExcessiveLinesPerFunction');
    expect(output).toContain('This function has too many lines (151). Maximum allowed is 150.');
    expect(output).toContain('src/server/planted.ts');
    expect(status).not.toBe(0);
  });

  it('passes a 150-line function, and a long one in a test file', () => {
    const { status, output } = lint({
      'src/server/fits.ts': functionOf('fits', 150),
      'src/server/long.int.test.ts': functionOf('long', 400),
    });
    expect(output).not.toContain('noExcessiveLinesPerFunction');
    expect(status).toBe(0);
  });
});
