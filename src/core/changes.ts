/**
 * What a write covers: the one rule of which cached listings it makes stale
 * and which open documents show something the service no longer holds. Every
 * writer (a save, a create, a delete, a push, a promotion, Take Service
 * Version, Refresh) describes what it changed as a `Change`; the extension's
 * change service (src/documents/changes.ts) acts on what this module says.
 */
import { covers, tenantsListing, type ListingKey, type ListingScope } from './listing-cache';
import type { TenantSegment } from './resource-kind';
import type { PlannedChange } from './tenant/plan';
import { wholeOf, type FileLocation } from './uri';

/** One thing a write changed, from one resource to everything the extension shows. */
export type ChangeScope =
  /** A resource of a tenant; without an id, a new one (its kind's listing changed, no open document shows it). */
  | { type: 'resource'; connection: string; tenantId: number; segment: TenantSegment; id?: number; deleted?: boolean }
  /** Every resource of one kind of a tenant (Refresh of the kind). */
  | { type: 'kind'; connection: string; tenantId: number; segment: TenantSegment }
  /** The tenant's own record (its name, its package): the connection's tenants listing and the tenant's document. */
  | { type: 'tenantRecord'; connection: string; tenantId: number }
  /** The whole tenant: its record and every resource of it (a promotion into it, its Refresh, its delete). */
  | { type: 'tenant'; connection: string; tenantId: number; deleted?: boolean }
  /** Everything of a connection (its Refresh). */
  | { type: 'connection'; connection: string }
  /** Everything (Refresh of the whole view). */
  | { type: 'everything' };

/** What one write changed: one event, however many resources it touched. */
export interface Change {
  readonly scopes: readonly ChangeScope[];
}

/** What becomes of an open document after a change: it is not covered, it reads the service again, or its resource is gone. */
export type DocumentFate = 'untouched' | 'reload' | 'gone';

function listingScopeOf(scope: ChangeScope): ListingScope[] {
  switch (scope.type) {
    case 'resource':
    case 'kind':
      return [{ connection: scope.connection, tenantId: scope.tenantId, segment: scope.segment }];
    case 'tenantRecord':
      return [tenantsListing(scope.connection)];
    case 'tenant':
      // The tenant's name shows in its connection's tenants listing; a listing above every tenant, so named apart.
      return [tenantsListing(scope.connection), { connection: scope.connection, tenantId: scope.tenantId }];
    case 'connection':
      return [{ connection: scope.connection }];
    case 'everything':
      return [{}];
  }
}

/** The listings a change drops, each once and none inside another: a push of a hundred prompts drops the prompts' listing once. */
export function droppedListings(change: Change): ListingScope[] {
  // Equal scopes once first: a push of thousands of resources names a handful of listings, compared pairwise below.
  const all = [
    ...new Map(change.scopes.flatMap(listingScopeOf).map((scope) => [JSON.stringify(scope), scope] as const)).values(),
  ];
  const kept: ListingScope[] = [];
  all.forEach((scope, index) => {
    const covered = all.some(
      (other, at) => at !== index && covers(other, scope) && (!covers(scope, other) || at < index),
    );
    if (!covered) kept.push(scope);
  });
  return kept;
}

/** Whether a listing is one the change drops. */
export function dropsListing(change: Change, key: ListingKey): boolean {
  return droppedListings(change).some((scope) => covers(scope, key));
}

function fateIn(scope: ChangeScope, location: FileLocation): DocumentFate {
  const whole = wholeOf(location);
  const gone = (deleted: boolean | undefined): DocumentFate => (deleted === true ? 'gone' : 'reload');
  switch (scope.type) {
    case 'everything':
      return 'reload';
    case 'connection':
      return whole.connection === scope.connection ? 'reload' : 'untouched';
    default:
      if (whole.connection !== scope.connection || whole.tenantId !== scope.tenantId) return 'untouched';
  }
  switch (scope.type) {
    case 'tenant':
      return gone(scope.deleted);
    case 'tenantRecord':
      return whole.type === 'tenant' ? 'reload' : 'untouched';
    case 'kind':
      return whole.type === 'resource' && whole.segment === scope.segment ? 'reload' : 'untouched';
    case 'resource':
      return whole.type === 'resource' && whole.segment === scope.segment && whole.id === scope.id
        ? gone(scope.deleted)
        : 'untouched';
  }
}

/** What a change does to an open document (a whole document or a part alike); a delete wins over a reload. */
export function documentFate(change: Change, location: FileLocation): DocumentFate {
  const fates = change.scopes.map((scope) => fateIn(scope, location));
  return fates.includes('gone') ? 'gone' : fates.includes('reload') ? 'reload' : 'untouched';
}

/** Whether a change touches anything of a tenant (a map of it, a view of it): its record, its listings or its documents. */
export function touchesTenant(change: Change, connection: string, tenantId: number): boolean {
  return change.scopes.some((scope) => {
    if (scope.type === 'everything') return true;
    if (scope.connection !== connection) return false;
    return scope.type === 'connection' || scope.tenantId === tenantId;
  });
}

function scopeOf(location: FileLocation, deleted: boolean): ChangeScope {
  const whole = wholeOf(location);
  if (whole.type === 'tenant') {
    // A tenant deleted takes every resource of it along; one saved or created changes only its own record.
    return deleted
      ? { type: 'tenant', connection: whole.connection, tenantId: whole.tenantId, deleted }
      : { type: 'tenantRecord', connection: whole.connection, tenantId: whole.tenantId };
  }
  return {
    type: 'resource',
    connection: whole.connection,
    tenantId: whole.tenantId,
    segment: whole.segment,
    id: whole.id,
    ...(deleted ? { deleted } : {}),
  };
}

/** A save or a create of one resource (or of a tenant's record), from any of its documents. */
export function written(location: FileLocation): Change {
  return { scopes: [scopeOf(location, false)] };
}

/** A delete of one resource, or of a tenant and everything in it. */
export function deletion(location: FileLocation): Change {
  return { scopes: [scopeOf(location, true)] };
}

/** What a push (or a promotion's push) of a folder's changes touched in its tenant: every change planned, as one change. */
export function pushed(
  connection: string,
  tenantId: number,
  changes: readonly Pick<PlannedChange, 'action' | 'segment' | 'id'>[],
): Change {
  return {
    scopes: changes
      .filter((c) => c.action !== 'conflict')
      .map(
        (c): ChangeScope =>
          c.segment === 'tenants'
            ? { type: 'tenantRecord', connection, tenantId }
            : {
                type: 'resource',
                connection,
                tenantId,
                segment: c.segment,
                ...(c.id === undefined ? {} : { id: c.id }),
                ...(c.action === 'delete' ? { deleted: true } : {}),
              },
      ),
  };
}

/** Everything of a tenant: a promotion into it, or its Refresh. */
export function wholeTenant(connection: string, tenantId: number): Change {
  return { scopes: [{ type: 'tenant', connection, tenantId }] };
}
