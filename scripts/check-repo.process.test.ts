import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRepository } from './check-repo';

const machinePath = (root: string) => `/${root}/${'shared'}/data/tracks.csv`;

describe('the repository check over git', () => {
  it('reads the tracked files of a git repository', () => {
    const root = mkdtempSync(join(tmpdir(), 'crossfade-check-repo-'));
    execFileSync('git', ['init', '-q'], { cwd: root });
    writeFileSync(join(root, 'ok.ts'), "export const a = './data';\n");
    writeFileSync(join(root, 'bad.ts'), `export const b = '${machinePath('home')}';\n`);
    writeFileSync(join(root, 'untracked.ts'), `export const c = '${machinePath('home')}';\n`);
    execFileSync('git', ['add', 'ok.ts', 'bad.ts'], { cwd: root });
    expect(checkRepository(root).map((problem) => problem.path)).toEqual(['bad.ts']);
  });
});
