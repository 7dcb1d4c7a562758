/**
 * Values by key, at most `limit` of them, forgetting the least recently used
 * first: what the read-only documents keep of texts that only they hold.
 * A key `inUse` says is still needed (its document open in an editor) is
 * never forgotten, so the store may stay above the limit while every entry
 * is in use rather than blank out a document someone is reading.
 */
export class RecentEntries<V> {
  // A Map iterates in insertion order: re-inserting a key makes it the most recent.
  private readonly entries = new Map<string, V>();

  constructor(
    private readonly limit: number,
    private readonly inUse: (key: string) => boolean,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value of `key`, which becomes the most recently used. */
  get(key: string): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    // Oldest first; a Map allows deleting the entry being visited.
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.limit) return;
      if (oldest !== key && !this.inUse(oldest)) this.entries.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
