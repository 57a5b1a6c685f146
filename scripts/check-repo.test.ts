import { describe, expect, it } from 'vitest';
import { findProblems } from './check-repo';

// Built from pieces so that this test file does not trip the check itself.
const machinePath = (root: string) => `/${root}/${'shared'}/data/tracks.csv`;

describe('the repository check', () => {
  it('flags absolute machine paths in code and docs', () => {
    for (const root of ['work', 'home', 'root', 'Users', 'mnt', 'farm']) {
      const problems = findProblems('bench/x.ts', `const path = '${machinePath(root)}';`);
      expect(problems).toEqual([
        expect.objectContaining({
          path: 'bench/x.ts',
          line: 1,
          reason: 'names an absolute path of one machine',
        }),
      ]);
    }
    expect(findProblems('README.md', `intro\nread ${machinePath('work')}\n`)[0]?.line).toBe(2);
  });

  it('flags a climb out of the repository to a shared folder, not an import of src/shared', () => {
    const outside = `new URL('../../../../../${'shared'}/specs/api.yml', import.meta.url)`;
    expect(findProblems('src/server/providers/spotify/conformance.test.ts', outside)).toHaveLength(1);
    expect(findProblems('.env.example', `# SANDBOX_CATALOG=../${'shared'}/data/x.csv`)).toHaveLength(1);
    const inside = `import type { SessionUser } from '../../${'shared'}/api/auth';`;
    expect(findProblems('src/server/auth/sessions.ts', inside)).toEqual([]);
  });

  it('lets CI’s script, and it alone, hand the folder beside the clone to the tests', () => {
    const line = `ARCHIVE="$PWD/../../${'shared'}/data/tracks.csv"`;
    expect(findProblems('.ci/run', line)).toEqual([]);
    expect(findProblems('scripts/e2e-server.mjs', line)).toHaveLength(1);
  });

  it('leaves URLs and relative paths alone', () => {
    const fine = [
      `fetch('https://example.com/${'home'}/feed')`,
      `const dir = join(root, 'data/${'work'}/')`,
      `import x from './${'work'}/y';`,
    ].join('\n');
    expect(findProblems('src/a.ts', fine)).toEqual([]);
  });
});
