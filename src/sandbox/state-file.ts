import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Durable state of an emulator (playlists created, tracks added, tokens issued). Every change is written
 * to disk before the emulator answers, the way a real service has committed a write once it says 201, so a
 * test can kill the app mid-transfer and read the destination back afterwards. Without a path the state
 * lives in memory only (unit tests).
 */
export class StateFile<T> {
  private state: T;

  constructor(
    private readonly path: string | undefined,
    initial: () => T,
  ) {
    this.state = path ? (readJson<T>(path) ?? initial()) : initial();
  }

  get value(): Readonly<T> {
    return this.state;
  }

  /** Applies `change` to the state and persists it (write to a temporary file, then rename: atomic). */
  update<R>(change: (state: T) => R): R {
    const result = change(this.state);
    if (this.path) {
      mkdirSync(dirname(this.path), { recursive: true });
      const temporary = `${this.path}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(this.state));
      renameSync(temporary, this.path);
    }
    return result;
  }
}

function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`Sandbox state file ${path} is unreadable: ${(error as Error).message}`);
  }
}
