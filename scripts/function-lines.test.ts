import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findLongFunctions, formatLongFunction } from './function-lines';

let root: string | undefined;

afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

function plant(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'crossfade-function-lines-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** A React component of exactly `lines` lines from its signature to its closing brace, nearly all JSX. */
function componentOf(name: string, lines: number): string {
  const items = Array.from({ length: lines - 6 }, (_, index) => `      <li>item ${index}</li>`);
  return [
    `export const ${name} = ({ title }: { title: string }) => {`,
    '  return (',
    '    <ul aria-label={title}>',
    ...items,
    '    </ul>',
    '  );',
    '};',
    '',
  ].join('\n');
}

describe('no function over 150 lines, JSX included', () => {
  it('reports a planted 151-line JSX component in src/', () => {
    const planted = componentOf('PlantedPage', 151);
    expect(planted.trimEnd().split('\n')).toHaveLength(151);
    const found = findLongFunctions(plant({ 'src/web/pages/planted-page.tsx': planted }));
    expect(found).toEqual([
      { file: 'src/web/pages/planted-page.tsx', name: 'PlantedPage', line: 1, lines: 151 },
    ]);
    expect(formatLongFunction(found[0] as (typeof found)[number])).toBe(
      'src/web/pages/planted-page.tsx:1 PlantedPage has 151 lines (maximum 150); split it into named steps',
    );
  });

  it('passes a 150-line component, and leaves tests and migrations alone', () => {
    const found = findLongFunctions(
      plant({
        'src/web/pages/fits-page.tsx': componentOf('FitsPage', 150),
        'src/web/pages/long-page.test.tsx': componentOf('LongPage', 400),
        'src/server/db/migrations/long.ts': componentOf('Long', 400).replace(/<[^>]*>/g, "'x'"),
      }),
    );
    expect(found).toEqual([]);
  });

  it('names methods and nested functions, and counts plain functions too', () => {
    const body = Array.from({ length: 160 }, (_, index) => `      total += ${index};`).join('\n');
    const text = [
      'export class Runner {',
      '  run(): number {',
      '    const step = () => {',
      '      let total = 0;',
      body,
      '      return total;',
      '    };',
      '    return step();',
      '  }',
      '}',
      '',
    ].join('\n');
    const found = findLongFunctions(plant({ 'src/server/runner.ts': text }));
    expect(found.map(({ name, line, lines }) => ({ name, line, lines }))).toEqual([
      { name: 'run', line: 2, lines: 167 },
      { name: 'step', line: 3, lines: 164 },
    ]);
  });
});
