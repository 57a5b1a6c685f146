import { describe, expect, it } from 'vitest';
import { checkTiers, outcomesOf } from './check-tiers';

const root = '/repo';
/** Vitest's JSON report, as its `json` reporter writes it (only the fields read). */
const vitest = (tests: { file: string; titles: string[]; status: string }[]) => ({
  numTotalTests: tests.length,
  testResults: [...new Set(tests.map((test) => test.file))].map((file) => ({
    name: `${root}/${file}`,
    status: 'passed',
    assertionResults: tests
      .filter((test) => test.file === file)
      .map((test) => ({
        ancestorTitles: test.titles.slice(0, -1),
        title: test.titles.at(-1),
        fullName: test.titles.join(' '),
        status: test.status,
      })),
  })),
});

/** Playwright's JSON report: files as top suites, describe blocks nested, specs with their tests. */
const playwright = {
  config: { rootDir: `${root}/e2e` },
  suites: [
    {
      title: 'auth.spec.ts',
      file: 'auth.spec.ts',
      specs: [{ title: 'signs in', file: 'auth.spec.ts', tests: [{ status: 'expected' }] }],
      suites: [
        {
          title: 'on a phone',
          file: 'auth.spec.ts',
          specs: [{ title: 'signs out', file: 'auth.spec.ts', tests: [{ status: 'skipped' }] }],
        },
      ],
    },
  ],
};

describe('the tier check', () => {
  it('reads both runners’ reports into one id per test', () => {
    expect(
      outcomesOf(
        vitest([{ file: 'src/a.test.ts', titles: ['loading', 'reads rows'], status: 'skipped' }]),
        root,
      ),
    ).toEqual([{ id: 'src/a.test.ts > loading > reads rows', ran: false }]);
    expect(outcomesOf(playwright, root)).toEqual([
      { id: 'e2e/auth.spec.ts > signs in', ran: true },
      { id: 'e2e/auth.spec.ts > on a phone > signs out', ran: false },
    ]);
    expect(() => outcomesOf({ something: 'else' }, root)).toThrow(/not a Vitest or Playwright JSON report/);
  });

  it('accepts a test skipped in one tier that another tier ran', () => {
    const test = { file: 'src/x.process.test.ts', titles: ['on PostgreSQL', 'scales out'] };
    const other = { file: 'src/y.test.ts', titles: ['adds'], status: 'passed' };
    const result = checkTiers([
      { name: 'npm test', outcomes: outcomesOf(vitest([{ ...test, status: 'skipped' }, other]), root) },
      { name: 'test:pg', outcomes: outcomesOf(vitest([{ ...test, status: 'passed' }]), root) },
    ]);
    expect(result).toEqual({ neverRan: [], emptyTiers: [], total: 2 });
  });

  it('names a test that ran in no tier, and a tier that ran nothing', () => {
    const skipped = {
      file: 'src/load.test.ts',
      titles: ['the archive', 'keeps every row'],
      status: 'skipped',
    };
    const passed = { file: 'src/ok.test.ts', titles: ['works'], status: 'passed' };
    const result = checkTiers([
      { name: 'npm test', outcomes: outcomesOf(vitest([skipped, passed]), root) },
      { name: 'test:pg', outcomes: outcomesOf(vitest([skipped]), root) },
      { name: 'e2e', outcomes: outcomesOf(playwright, root) },
    ]);
    expect(result.neverRan).toEqual([
      'src/load.test.ts > the archive > keeps every row',
      'e2e/auth.spec.ts > on a phone > signs out',
    ]);
    expect(result.emptyTiers).toEqual(['test:pg']);
  });

  it('counts a todo or pending test as not run', () => {
    const result = checkTiers([
      {
        name: 'npm test',
        outcomes: outcomesOf(
          vitest([
            { file: 'src/t.test.ts', titles: ['later'], status: 'todo' },
            { file: 'src/t.test.ts', titles: ['now'], status: 'failed' },
          ]),
          root,
        ),
      },
    ]);
    expect(result.neverRan).toEqual(['src/t.test.ts > later']);
  });
});
