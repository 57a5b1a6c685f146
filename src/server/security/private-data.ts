import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Logger } from '../logger';

/**
 * DATA_DIR holds the embedded database, the encryption key, sandbox state and the mail outbox: nobody but
 * the account running Crossfade may read or change it. Files are 0600, folders 0700.
 */
const PRIVATE_UMASK = 0o077;
const OPEN_TO_OTHERS = 0o077;

/**
 * Before anything is written (call it before the embedded database starts): the process umask makes every
 * new file and folder private, including what PGlite's file system creates later (WAL segments, tables),
 * and DATA_DIR itself is created (or tightened) to 0700.
 */
export function makeDataDirPrivate(dataDir: string): void {
  process.umask(PRIVATE_UMASK);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  tryChmod(dataDir, 0o700);
}

/**
 * Takes group and other permissions off everything under DATA_DIR that this account owns: PGlite writes
 * its files with explicit modes (0666 on some systems), and a DATA_DIR from an older version may be open.
 * Answers how many entries were changed.
 */
export function tightenDataDir(dataDir: string): number {
  let changed = 0;
  walk(dataDir, (path, mode, isDirectory) => {
    if ((mode & OPEN_TO_OTHERS) === 0) return;
    if (tryChmod(path, isDirectory ? 0o700 : 0o600)) changed += 1;
  });
  return changed;
}

/** Entries under DATA_DIR (relative paths) that group or others may read, write or enter. */
export function openDataEntries(dataDir: string): string[] {
  const open: string[] = [];
  walk(dataDir, (path, mode) => {
    if ((mode & OPEN_TO_OTHERS) !== 0) open.push(relative(dataDir, path) || '.');
  });
  return open;
}

/**
 * The start-up check: tightens what it can, then warns (file names and counts only, never contents) when
 * something under DATA_DIR is still open to other accounts, e.g. files owned by another user or a file
 * system that ignores modes.
 */
export function checkDataDirPrivate(dataDir: string, logger: Logger): string[] {
  tightenDataDir(dataDir);
  const open = openDataEntries(dataDir);
  if (open.length > 0) {
    logger.warn(
      { count: open.length, examples: open.slice(0, 5) },
      'DATA_DIR holds files that other accounts on this machine can read or write; make them 0600 (folders 0700)',
    );
  }
  return open;
}

function walk(root: string, visit: (path: string, mode: number, isDirectory: boolean) => void) {
  const stack = [root];
  while (stack.length > 0) {
    const path = stack.pop() as string;
    let stats: ReturnType<typeof lstatSync>;
    try {
      stats = lstatSync(path);
    } catch {
      continue; // removed while we looked (PGlite rotates files)
    }
    if (stats.isSymbolicLink()) continue;
    const isDirectory = stats.isDirectory();
    visit(path, Number(stats.mode) & 0o777, isDirectory);
    if (!isDirectory) continue;
    let names: string[] = [];
    try {
      names = readdirSync(path);
    } catch {
      continue;
    }
    for (const name of names) stack.push(join(path, name));
  }
}

function tryChmod(path: string, mode: number): boolean {
  try {
    chmodSync(path, mode);
    return true;
  } catch {
    return false;
  }
}
