import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StateFile } from '../state-file';

/**
 * One sandbox account's files on a cloud-drive emulator: the metadata in a small state file of its own
 * (`accounts/<key>.json`, so one person's upload never rewrites anyone else's) and each file's bytes in
 * `blobs/<id>`. Without a folder everything stays in memory (unit tests).
 */

/** Each sandbox account may keep this much; beyond it the services' own "out of space" answers apply. */
export const SANDBOX_QUOTA_BYTES = 100 * 1024 * 1024;

export interface SpaceItem {
  id: string;
  size: number;
}

export class FileSpace<T extends SpaceItem> {
  private readonly accounts = new Map<string, StateFile<{ items: T[] }>>();
  private readonly memoryBlobs = new Map<string, Uint8Array>();

  constructor(private readonly dir: string | undefined) {}

  items(account: string): readonly T[] {
    return this.account(account).value.items;
  }

  usedBytes(account: string): number {
    return this.items(account).reduce((sum, item) => sum + item.size, 0);
  }

  /** Stores the bytes first, then the metadata: a crash in between leaves an orphan blob, never a file without content. */
  add(account: string, item: T, content: Uint8Array | null): T {
    if (content) this.writeBlob(item.id, content);
    this.account(account).update((state) => {
      state.items.push(item);
    });
    return item;
  }

  /** A new version of a file (Dropbox's `overwrite`): same id, new bytes. */
  replace(account: string, item: T, content: Uint8Array): T {
    this.writeBlob(item.id, content);
    this.account(account).update((state) => {
      state.items = state.items.map((existing) => (existing.id === item.id ? item : existing));
    });
    return item;
  }

  content(account: string, id: string): Uint8Array | undefined {
    if (!this.items(account).some((item) => item.id === id)) return undefined;
    if (!this.dir) return this.memoryBlobs.get(id);
    try {
      return new Uint8Array(readFileSync(join(this.dir, 'blobs', id)));
    } catch {
      return undefined;
    }
  }

  private account(key: string): StateFile<{ items: T[] }> {
    let state = this.accounts.get(key);
    if (!state) {
      state = new StateFile(this.dir ? join(this.dir, 'accounts', `${key}.json`) : undefined, () => ({
        items: [],
      }));
      this.accounts.set(key, state);
    }
    return state;
  }

  private writeBlob(id: string, content: Uint8Array): void {
    if (!this.dir) {
      this.memoryBlobs.set(id, content);
      return;
    }
    const folder = join(this.dir, 'blobs');
    mkdirSync(folder, { recursive: true });
    const temporary = join(folder, `${id}.${process.pid}.tmp`);
    writeFileSync(temporary, content);
    renameSync(temporary, join(folder, id));
  }
}
