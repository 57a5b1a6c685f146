import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDataEntries, tightenDataDir } from './private-data';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

describe('tightenDataDir', () => {
  it('finds what others may open and makes files 0600, folders 0700', () => {
    root = mkdtempSync(join(tmpdir(), 'crossfade-modes-'));
    mkdirSync(join(root, 'pglite', 'base'), { recursive: true });
    writeFileSync(join(root, 'pglite', 'base', '1'), 'x');
    writeFileSync(join(root, 'key'), 'secret');
    chmodSync(join(root, 'pglite'), 0o777);
    chmodSync(join(root, 'pglite', 'base'), 0o755);
    chmodSync(join(root, 'pglite', 'base', '1'), 0o666);
    chmodSync(join(root, 'key'), 0o640);
    chmodSync(root, 0o700);

    expect(openDataEntries(root).sort()).toEqual(['key', 'pglite', 'pglite/base', 'pglite/base/1']);
    expect(tightenDataDir(root)).toBe(4);
    expect(openDataEntries(root)).toEqual([]);
    expect(statSync(join(root, 'pglite', 'base')).mode & 0o777).toBe(0o700);
    expect(statSync(join(root, 'pglite', 'base', '1')).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, 'key')).mode & 0o777).toBe(0o600);
  });
});
