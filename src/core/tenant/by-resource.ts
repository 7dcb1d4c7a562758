import type { Segment } from '../resource-kind';

/**
 * Values by a resource's kind and id. A plan or a push of a folder of 65,000 resources looks each up several times:
 * by number within its kind, rather than by a text key made (and hashed) for every look-up.
 */
export class ByResource<T> {
  private readonly kinds = new Map<Segment, Map<number, T>>();

  constructor(entries: Iterable<readonly [{ segment: Segment; id: number }, T]> = []) {
    for (const [resource, value] of entries) this.set(resource, value);
  }

  get({ segment, id }: { segment: Segment; id: number }): T | undefined {
    return this.kinds.get(segment)?.get(id);
  }

  has(resource: { segment: Segment; id: number }): boolean {
    return this.kinds.get(resource.segment)?.has(resource.id) ?? false;
  }

  set({ segment, id }: { segment: Segment; id: number }, value: T): void {
    let ids = this.kinds.get(segment);
    if (!ids) this.kinds.set(segment, (ids = new Map()));
    ids.set(id, value);
  }

  delete({ segment, id }: { segment: Segment; id: number }): void {
    this.kinds.get(segment)?.delete(id);
  }

  *values(): IterableIterator<T> {
    for (const ids of this.kinds.values()) yield* ids.values();
  }
}
