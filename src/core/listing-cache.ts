/**
 * One cached listing per connection, tenant and kind, and one of each
 * connection's tenants: the tree, the references inside documents, the pickers
 * and the file system read the same one. A listing is loaded once, on first
 * use, and kept (failures too, so a broken service gives one error, not one per
 * reader) until it is invalidated: the extension's change service drops what
 * a write or a Refresh covers (src/core/changes.ts says what).
 */
import type { JsonObject } from './json';
import type { TenantSegment } from './resource-kind';

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** One kind's listing in one tenant. */
export interface KindListingKey {
  connection: string;
  tenantId: number;
  segment: TenantSegment;
}

/** A connection's tenants: above every tenant, so no tenant's scope holds it. */
export interface TenantsListingKey {
  connection: string;
  segment: 'tenants';
}

export type ListingKey = KindListingKey | TenantsListingKey;

/**
 * What to drop: everything of a connection, its tenants listing, everything of
 * one tenant, or one kind of a tenant.
 */
export type ListingScope = { connection?: string; tenantId?: number; segment?: TenantSegment | 'tenants' };

export type ListingLoader = (key: ListingKey) => Promise<JsonObject[]>;

export function tenantsListing(connection: string): TenantsListingKey {
  return { connection, segment: 'tenants' };
}

function keyText(key: ListingKey): string {
  // No tenant segment is named 'tenants', so the two shapes never meet.
  return key.segment === 'tenants' ? `${key.connection}/tenants` : `${key.connection}/${key.tenantId}/${key.segment}`;
}

/** Whether dropping `outer` drops every listing `inner` names (a key is the narrowest scope). */
export function covers(outer: ListingScope, inner: ListingScope): boolean {
  // A tenant's scope never holds the tenants listing, which lies above every tenant.
  return (
    (outer.connection === undefined || outer.connection === inner.connection) &&
    (outer.tenantId === undefined ||
      (outer.segment !== 'tenants' && inner.segment !== 'tenants' && outer.tenantId === inner.tenantId)) &&
    (outer.segment === undefined || outer.segment === inner.segment)
  );
}

interface Entry {
  key: ListingKey;
  pending: Promise<Outcome<JsonObject[]>>;
  settled?: Outcome<JsonObject[]>;
}

export class ListingCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly load: ListingLoader) {}

  /** The listing, loading it when it is not cached. */
  get(key: ListingKey): Promise<Outcome<JsonObject[]>> {
    const text = keyText(key);
    const existing = this.entries.get(text);
    if (existing) return existing.pending;
    const pending = this.load(key).then(
      (value): Outcome<JsonObject[]> => ({ ok: true, value }),
      (error: unknown): Outcome<JsonObject[]> => ({ ok: false, error }),
    );
    const entry: Entry = { key, pending };
    void pending.then((outcome) => {
      entry.settled = outcome;
    });
    this.entries.set(text, entry);
    return entry.pending;
  }

  /** The listing's items, loading them when they are not cached; a failed load is thrown. */
  async items(key: ListingKey): Promise<JsonObject[]> {
    const outcome = await this.get(key);
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  /** How the listing's load ended, when it has; never starts a load. */
  settled(key: ListingKey): Outcome<JsonObject[]> | undefined {
    return this.entries.get(keyText(key))?.settled;
  }

  /** The listing's items when it is loaded and loaded well; never starts a load. */
  peek(key: ListingKey): JsonObject[] | undefined {
    const settled = this.settled(key);
    return settled?.ok ? settled.value : undefined;
  }

  /** The item of that id, when the loaded listing holds it. */
  peekItem(key: ListingKey, id: number): JsonObject | undefined {
    return this.peek(key)?.find((item) => item.id === id);
  }

  /** Drops the listings in scope: their next reader loads them afresh. */
  invalidate(scope: ListingScope = {}): void {
    for (const [text, entry] of this.entries) {
      if (covers(scope, entry.key)) this.entries.delete(text);
    }
  }

  /** Loads a listing afresh, for readers that must see the service's present state. */
  reload(key: ListingKey): Promise<Outcome<JsonObject[]>> {
    this.invalidate(key);
    return this.get(key);
  }
}
