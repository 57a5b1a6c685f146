import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { entryCommand } from '../server/testing/server-process';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'crossfade-match-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, lines: object[]) => {
  const path = join(dir, name);
  writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  return path;
};

const cli = (args: string[]) =>
  run(process.execPath, [...entryCommand('src/cli/main.ts'), 'match-files', ...args], {
    maxBuffer: 10_000_000,
  }).then(
    (result) => ({ code: 0, ...result }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

const sources = [
  {
    id: 's1',
    name: 'Golden Hour (feat. Mira)',
    artists: ['Jonah Vale'],
    album: 'Golden Hour',
    durationMs: 201_000,
    isrc: 'usabc2400001',
  },
  { id: 's2', name: 'Paper Boats', artists: ['The Lanterns'], album: 'Harbour', durationMs: 187_000 },
  { id: 's3', name: 'Paper Boats', artists: ['The Lanterns'], album: 'Harbour', durationMs: 187_000 },
  { id: 's4', name: 'Nowhere To Be Found', artists: ['Ghost Band'], album: 'Gone', durationMs: 150_000 },
];
const catalog = [
  // Apple style: feat. in the title, " - Single" albums, numeric ids.
  {
    id: '1500000001',
    name: 'Golden Hour (feat. Mira)',
    artists: ['Jonah Vale'],
    album: 'Golden Hour - Single',
    durationMs: 201_400,
    isrc: 'USABC2400001',
  },
  {
    id: '1500000002',
    name: 'Paper Boats (Live)',
    artists: ['The Lanterns'],
    album: 'Live at the Pier',
    durationMs: 199_000,
  },
  { id: '1500000003', name: 'Paper Boats', artists: ['The Lanterns'], album: 'Harbour', durationMs: 187_600 },
];

describe('npm run crossfade -- match-files', () => {
  it.each(['apple', 'spotify'])(
    'writes one line per source in input order, the right version, null when absent (%s)',
    async (to) => {
      const result = await cli([
        '--to',
        to,
        '--source',
        write('s.jsonl', sources),
        '--catalog',
        write('c.jsonl', catalog),
      ]);
      expect(result.code, result.stderr).toBe(0);
      const lines = result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines.map((line) => line.sourceId)).toEqual(['s1', 's2', 's3', 's4']);
      expect(lines[0]).toMatchObject({ destinationId: '1500000001' });
      expect(lines[1]).toMatchObject({ destinationId: '1500000003' });
      expect(lines[2]).toMatchObject({ destinationId: '1500000003' });
      expect(lines[3]).toMatchObject({ destinationId: null });
      for (const line of lines) expect(line.confidence).toBeGreaterThanOrEqual(0);
      // Only what a transfer writes without review (the accept band) has a destinationId.
      for (const line of lines) {
        if (line.destinationId !== null) expect(line).toMatchObject({ status: 'accepted' });
        else expect(line.status).not.toBe('accepted');
      }
      expect(lines[0].confidence).toBeGreaterThanOrEqual(90);
      // Every row lists what it was offered, best first, at most 5: the live cut is there for the person
      // to pick by hand, below the studio recording.
      for (const line of lines) {
        expect(line.candidates.length).toBeLessThanOrEqual(5);
        const confidences = line.candidates.map((c: { confidence: number }) => c.confidence);
        expect(confidences).toEqual([...confidences].sort((a, b) => b - a));
      }
      expect(lines[1].candidates.map((c: { destinationId: string }) => c.destinationId)).toEqual([
        '1500000003',
        '1500000002',
      ]);
      expect(lines[3].candidates).toEqual([]);
      expect(result.stderr).toMatch(
        /4 sources against 3 catalog tracks on (apple|spotify): 3 matched, 1 unmatched/,
      );
    },
    120_000,
  );

  it('names the bad line of a source file and exits 1', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, `${JSON.stringify(sources[0])}\n{"id": "x", "name": 5}\n`);
    const result = await cli(['--to', 'apple', '--source', bad, '--catalog', write('c2.jsonl', catalog)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/bad\.jsonl line 2: /);
    expect(result.stdout).toBe('');
  }, 60_000);

  it('explains its usage when an argument is missing', async () => {
    const result = await cli(['--to', 'deezer']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'Usage: match-files --to apple|spotify --source SOURCE.jsonl --catalog CATALOG.jsonl',
    );
  }, 60_000);
});
