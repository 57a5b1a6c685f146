import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyAllowList, findViolations } from './import-rules';

let root: string | undefined;

/** A throwaway source tree: path -> file text. */
function tree(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'import-rules-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

const rulesOf = (dir: string) =>
  findViolations(dir)
    .map((v) => `${v.rule} ${v.file}:${v.line}`)
    .sort();

describe('import rules', () => {
  it('fails a service that imports the HTTP errors, and lets routes and the HTTP layer use them', () => {
    const dir = tree({
      'src/server/http/errors.ts': 'export class ApiError {}\n',
      'src/server/transfers/transfer-service.ts': "import { ApiError } from '../http/errors';\n",
      'src/server/routes/transfer-routes.ts': "import { ApiError } from '../http/errors';\n",
      'src/server/http/require-user.ts': "import { ApiError } from './errors';\n",
    });
    expect(rulesOf(dir)).toEqual(['service-imports-http-errors src/server/transfers/transfer-service.ts:1']);
  });

  it('fails a route that imports db/schema and a sandbox file that imports the server', () => {
    const dir = tree({
      'src/server/db/schema.ts': 'export const users = {};\n',
      'src/server/providers/apple/client.ts': 'export const client = 1;\n',
      'src/server/routes/user-routes.ts':
        "import { x } from 'hono';\nimport { users } from '../db/schema';\n",
      'src/sandbox/keys.ts': "import { client } from '../server/providers/apple/client';\n",
    });
    expect(rulesOf(dir)).toEqual([
      'route-imports-schema src/server/routes/user-routes.ts:2',
      'sandbox-imports-server src/sandbox/keys.ts:1',
    ]);
  });

  it('fails a route that writes SQL itself (drizzle-orm), not its test', () => {
    const dir = tree({
      'src/server/routes/health-routes.ts':
        "import { Hono } from 'hono';\nimport { sql } from 'drizzle-orm';\n",
      'src/server/routes/health-routes.int.test.ts': "import { eq } from 'drizzle-orm/sql';\n",
      'src/server/jobs/job-store.ts': "import { sql } from 'drizzle-orm';\n",
    });
    expect(rulesOf(dir)).toEqual(['route-runs-sql src/server/routes/health-routes.ts:2']);
  });

  it('passes a route that goes through a service, and a sandbox that keeps to itself', () => {
    const dir = tree({
      'src/server/db/schema.ts': 'export const users = {};\n',
      'src/server/users/user-store.ts':
        "import { users } from '../db/schema';\nexport const find = () => users;\n",
      'src/server/routes/user-routes.ts': "import { find } from '../users/user-store';\n",
      'src/sandbox/keys.ts': "import { z } from 'zod';\nimport { helper } from './helper';\n",
      'src/sandbox/helper.ts': 'export const helper = 1;\n',
    });
    expect(rulesOf(dir)).toEqual([]);
  });

  it('lets a feature import another only through its index.ts', () => {
    const dir = tree({
      'src/web/features/export/index.ts': "export { ExportPanel } from './export-panel';\n",
      'src/web/features/export/export-panel.tsx': 'export function ExportPanel() {}\n',
      'src/web/features/charts/view.tsx': [
        "import { ExportPanel } from '../export';",
        "import { ExportPanel as Deep } from '../export/export-panel';",
        '',
      ].join('\n'),
    });
    expect(rulesOf(dir)).toEqual(['feature-deep-import src/web/features/charts/view.tsx:2']);
  });

  it('finds process.env outside config modules and tests', () => {
    const dir = tree({
      'src/server/config.ts': 'export const port = process.env.PORT;\n',
      'src/server/config.test.ts': 'process.env.PORT = "1";\n',
      'src/server/mail/send.ts': '\nconst from = process.env.MAIL_FROM;\n',
    });
    expect(rulesOf(dir)).toEqual(['process-env src/server/mail/send.ts:2']);
  });

  it('finds an import cycle, type-only imports included, across multi-line imports', () => {
    const dir = tree({
      'src/sandbox/apple/library.ts':
        "import {\n  genreNames,\n} from './wire';\nexport type Library = {};\n",
      'src/sandbox/apple/wire.ts':
        "import type { Library } from './library';\nexport const genreNames = 1;\n",
      'src/sandbox/apple/leaf.ts': "import { genreNames } from './wire';\n",
    });
    const cycles = findViolations(dir).filter((v) => v.rule === 'import-cycle');
    expect(cycles.map((v) => v.message)).toEqual([
      'import cycle: src/sandbox/apple/library.ts -> src/sandbox/apple/wire.ts -> src/sandbox/apple/library.ts',
    ]);
  });

  it('an allow-list entry silences its violation and a stale entry is reported', () => {
    const dir = tree({
      'src/server/db/schema.ts': 'export const users = {};\n',
      'src/server/routes/auth-routes.ts': "import { users } from '../db/schema';\n",
    });
    const result = applyAllowList(findViolations(dir), [
      { rule: 'route-imports-schema', file: 'src/server/routes/auth-routes.ts', todo: 'TODO(issue 10)' },
      { rule: 'import-cycle', file: 'src/gone.ts', todo: 'TODO(nobody)' },
    ]);
    expect(result.failing).toEqual([]);
    expect(result.allowed.map((v) => v.file)).toEqual(['src/server/routes/auth-routes.ts']);
    expect(result.stale.map((entry) => entry.file)).toEqual(['src/gone.ts']);
  });
  it('fails a planted drizzle-orm import outside a store, and lets stores, db/, testing/ and tests use it', () => {
    const drizzle = "import { eq } from 'drizzle-orm';\n";
    const dir = tree({
      'src/server/transfers/transfer-service.ts': `\n${drizzle}`,
      'src/server/jobs/cleanup-job.ts': "import { sql } from 'drizzle-orm/sql';\n",
      'bench/load.ts': drizzle,
      'src/server/transfers/transfer-store.ts': drizzle,
      'src/server/db/client.ts': drizzle,
      'src/server/testing/test-database.ts': drizzle,
      'src/server/transfers/transfer-flow.int.test.ts': drizzle,
      'e2e/vault.spec.ts': drizzle,
      'src/web/features/transfer/wizard-store.ts': drizzle,
    });
    expect(rulesOf(dir)).toEqual([
      'sql-outside-store bench/load.ts:1',
      'sql-outside-store src/server/jobs/cleanup-job.ts:1',
      'sql-outside-store src/server/transfers/transfer-service.ts:2',
      'sql-outside-store src/web/features/transfer/wizard-store.ts:1',
    ]);
  });

  it('fails a service that imports hono or the HTTP layer; routes, http/, testing/ and the composition roots may', () => {
    const dir = tree({
      'src/server/http/cookies.ts': 'export const setCookie = 1;\n',
      'src/server/links/visitor.ts':
        "import type { Context } from 'hono';\nimport { setCookie } from '../http/cookies';\n",
      'src/server/logger.ts': "import { setCookie } from './http/cookies';\n",
      'src/server/mail/fake.ts': "import { serve } from '@hono/node-server';\n",
      'src/server/routes/link-routes.ts':
        "import { Hono } from 'hono';\nimport { setCookie } from '../http/cookies';\n",
      'src/server/app.ts': "import { Hono } from 'hono';\n",
      'src/server/runtime.ts': "import { Hono } from 'hono';\n",
      'src/server/main.ts': "import { serve } from '@hono/node-server';\n",
      'src/server/testing/fake-api.ts': "import { Hono } from 'hono';\n",
      'src/server/links/visitor.test.ts': "import { Hono } from 'hono';\n",
    });
    expect(rulesOf(dir)).toEqual([
      'service-imports-hono src/server/links/visitor.ts:1',
      'service-imports-hono src/server/mail/fake.ts:1',
      'service-imports-http src/server/links/visitor.ts:2',
      'service-imports-http src/server/logger.ts:1',
    ]);
  });

  it('fails a planted deep import of a feature from a page; through index.ts passes', () => {
    const dir = tree({
      'src/web/features/vault/index.ts': "export { BackupList } from './backup-list';\n",
      'src/web/features/vault/backup-list.tsx': 'export function BackupList() {}\n',
      'src/web/pages/vault-page.tsx': "import { BackupList } from '../features/vault';\n",
      'src/web/pages/backups-page.tsx': "import { BackupList } from '../features/vault/backup-list';\n",
    });
    expect(rulesOf(dir)).toEqual(['page-deep-import src/web/pages/backups-page.tsx:1']);
  });
});
