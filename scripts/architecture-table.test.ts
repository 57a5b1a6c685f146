import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const architecture = readFileSync(`${root}ARCHITECTURE.md`, 'utf8');

/** The rows of ARCHITECTURE.md's "One name per feature" table, each cell's backquoted paths. */
function featureRows(): { name: string; paths: string[] }[] {
  const section = architecture.split('## One name per feature')[1]?.split('\n## ')[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| spec name') && !line.startsWith('| ---'))
    .map((line) => {
      const cells = line.split('|').map((cell) => cell.trim());
      const paths = [...line.matchAll(/`(src\/[^`]+)`/g)].map((match) => match[1] ?? '');
      return { name: cells[1] ?? '', paths };
    });
}

describe('ARCHITECTURE.md, one name per feature', () => {
  it('names every feature folder of the web app and every route module', () => {
    const named = new Set(featureRows().flatMap((row) => row.paths));
    for (const folder of readdirSync(`${root}src/web/features`))
      expect(named, `src/web/features/${folder}/ is not in the table`).toContain(
        `src/web/features/${folder}/`,
      );
    for (const file of readdirSync(`${root}src/server/routes`).filter((name) => name.endsWith('-routes.ts')))
      if (file !== 'api-routes.ts' && file !== 'health-routes.ts')
        expect(named, `src/server/routes/${file} is not in the table`).toContain(`src/server/routes/${file}`);
  });

  it('names every shared API schema module (the error body aside, which every feature shares)', () => {
    const named = new Set(featureRows().flatMap((row) => row.paths));
    for (const file of readdirSync(`${root}src/shared/api`))
      if (file.endsWith('.ts') && !file.endsWith('.test.ts') && file !== 'errors.ts')
        expect(named, `src/shared/api/${file} is not in the table`).toContain(`src/shared/api/${file}`);
  });

  it('points only at paths that exist', () => {
    const rows = featureRows();
    expect(rows.length).toBeGreaterThanOrEqual(10);
    for (const row of rows)
      for (const path of row.paths) expect(existsSync(`${root}${path}`), `${row.name}: ${path}`).toBe(true);
  });
});
