import type { JsonObject } from '../core/json';
import { toResourcePath, type WholeLocation } from '../core/uri';

function readKey(whole: WholeLocation): string {
  return `${whole.connection}/${toResourcePath(whole)}`;
}

/**
 * The GETs of resources' detail objects under way, by connection and resource: one GET for the reads of one resource
 * at the same time, since VS Code stats and reads a document it opens at once, and a prompt's parts open beside it.
 */
export class DetailReads {
  private readonly reads = new Map<string, { whole: WholeLocation; pending: Promise<JsonObject> }>();

  /** The GET under way of the resource, or a new one by `get`. */
  read(whole: WholeLocation, get: () => Promise<JsonObject>): Promise<JsonObject> {
    const key = readKey(whole);
    const existing = this.reads.get(key);
    if (existing) return existing.pending;
    const pending = get();
    const settled = (): void => {
      if (this.reads.get(key)?.pending === pending) this.reads.delete(key);
    };
    pending.then(settled, settled);
    this.reads.set(key, { whole, pending });
    return pending;
  }

  /** Drops the GETs under way of the resources a change covers, so the reads after it ask the service again. */
  drop(covered: (whole: WholeLocation) => boolean): void {
    for (const [key, read] of this.reads) if (covered(read.whole)) this.reads.delete(key);
  }
}
