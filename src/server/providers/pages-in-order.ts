import type { PlaylistEntry } from './types';

/**
 * Pages read a few at a time arrive in any order; this turns them into entries in source order as soon as
 * every page before them has come, and hands each run of new entries to `onEntries` (see
 * PlaylistReadOptions). `entries` holds them all, in order, once every page has been given.
 */
export class PagesInOrder<P> {
  readonly entries: PlaylistEntry[] = [];
  private readonly waiting = new Map<number, P>();
  private next = 0;

  constructor(
    private readonly toEntries: (page: P, firstPosition: number) => PlaylistEntry[],
    private readonly onEntries?: (entries: PlaylistEntry[]) => void,
  ) {}

  /** Page `index` (0, 1, 2…, in source order) has come. */
  add(index: number, page: P): void {
    this.waiting.set(index, page);
    for (let ready = this.waiting.get(this.next); ready !== undefined; ready = this.waiting.get(this.next)) {
      this.waiting.delete(this.next);
      this.next++;
      const fresh = this.toEntries(ready, this.entries.length);
      for (const entry of fresh) this.entries.push(entry);
      if (fresh.length > 0) this.onEntries?.(fresh);
    }
  }
}
