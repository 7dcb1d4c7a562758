/**
 * One cached listing per connection, tenant and kind, and one of each
 * connection's tenants: the tree, the references inside documents, the pickers
 * and the file system read the same one. A listing is loaded once, on first
 * use, and kept (failures too, so a broken service gives one error, not one per
 * reader) until it is invalidated: when the extension itself changes that kind
 * (or a tenant), or the user refreshes.
 */
import type { JsonObject } from './json';
import type { TenantSegment } from './resources';

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

function tenantOf(key: ListingKey): number | undefined {
  return key.segment === 'tenants' ? undefined : key.tenantId;
}

function keyText(key: ListingKey): string {
  // No tenant segment is named 'tenants', so the two shapes never meet.
  return key.segment === 'tenants' ? `${key.connection}/tenants` : `${key.connection}/${key.tenantId}/${key.segment}`;
}

function inScope(key: ListingKey, scope: ListingScope): boolean {
  return (scope.connection === undefined || scope.connection === key.connection)
    && (scope.tenantId === undefined || scope.tenantId === tenantOf(key))
    && (scope.segment === undefined || scope.segment === key.segment);
}

interface Entry {
  key: ListingKey;
  pending: Promise<Outcome<JsonObject[]>>;
  settled?: Outcome<JsonObject[]>;
}

export class ListingCache {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(scope: ListingScope) => void>();

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

  /** Drops the listings in scope; readers are told, so they can load afresh. */
  invalidate(scope: ListingScope = {}): void {
    for (const [text, entry] of this.entries) {
      if (inScope(entry.key, scope)) this.entries.delete(text);
    }
    for (const listener of this.listeners) listener(scope);
  }

  /** Loads a listing afresh, for readers that must see the service's present state. */
  reload(key: ListingKey): Promise<Outcome<JsonObject[]>> {
    this.invalidate(key);
    return this.get(key);
  }

  onDidInvalidate(listener: (scope: ListingScope) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
}

/** Whether a listing key falls in an invalidated scope (for readers deciding what to redo). */
export function affects(scope: ListingScope, key: ListingKey): boolean {
  return inScope(key, scope);
}

/** What changing a tenant makes stale: its name in its connection's tenants listing, and every listing of its kinds. */
export function invalidateTenant(listings: ListingCache, connection: string, tenantId: number): void {
  listings.invalidate(tenantsListing(connection));
  listings.invalidate({ connection, tenantId });
}
