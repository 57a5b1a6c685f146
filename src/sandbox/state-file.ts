import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Durable state of the emulators (playlists created, tracks added, tokens issued). Every change is written
 * to disk before the emulator answers, the way a real service has committed a write once it says 201, so a
 * test can kill the app mid-transfer and read the destination back afterwards. State is kept in small
 * documents (one per account, one per written playlist, one for the shared demo users) so that a change
 * rewrites only the document it touches (decision 0022). Without a path a document lives in memory only.
 */
export class StateFile<T> {
  private state: T;

  constructor(
    readonly path: string | undefined,
    initial: () => T,
  ) {
    this.state = path ? (readJsonFile<T>(path) ?? initial()) : initial();
  }

  get value(): Readonly<T> {
    return this.state;
  }

  /** Applies `change` to the state and persists it (write to a temporary file, then rename: atomic). */
  update<R>(change: (state: T) => R): R {
    const result = change(this.state);
    if (this.path) writeJsonFile(this.path, this.state);
    return result;
  }
}

export function readJsonFile<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`Sandbox state file ${path} is unreadable: ${(error as Error).message}`);
  }
}

/** Writes a document atomically (a temporary file, then rename). */
export function writeJsonFile(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(value));
  renameSync(temporary, path);
}

/** The `.json` documents of a folder, by name without the extension (none when the folder is missing). */
export function jsonFilesIn(folder: string | undefined): string[] {
  if (!folder) return [];
  try {
    return readdirSync(folder)
      .filter((name) => name.endsWith('.json'))
      .map((name) => name.slice(0, -'.json'.length));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** `folder/name.json`, or undefined when state lives in memory. */
export const documentPath = (folder: string | undefined, name: string) =>
  folder ? join(folder, `${name}.json`) : undefined;
