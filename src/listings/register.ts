import * as vscode from 'vscode';
import { ListingCache, tenantsListing } from '../core/listing-cache';
import { kindOfSegment } from '../core/resources';
import type { Connections } from '../connections/registry';
import type { ConvaiFileSystem } from '../documents/filesystem';

/**
 * The one cached listing per tenant and kind, and of each connection's
 * tenants, that the tree, references, pickers and the file system share.
 * Created before the file system, which reads it; its invalidation is wired
 * by register once the file system exists.
 */
export function createListings(connections: Connections): ListingCache {
  return new ListingCache((key) => key.segment === 'tenants'
    // visibleTenants holds the rule for a token that may not list tenants.
    ? connections.visibleTenants(key.connection)
    : connections.client(key.connection).list(kindOfSegment(key.segment), key.tenantId));
}

/**
 * A listing goes stale when the extension itself changes a resource (a save,
 * create or delete) or the connections change; the user's refresh drops it
 * through the tree.
 */
export function register(connections: Connections, files: ConvaiFileSystem, listings: ListingCache): vscode.Disposable[] {
  return [
    files.onDidChangeResource((location) => {
      if (location.type === 'tenant') {
        // A tenant's name or existence shows in its connection's tenants listing, its settings in its kinds.
        listings.invalidate(tenantsListing(location.connection));
        listings.invalidate({ connection: location.connection, tenantId: location.tenantId });
      } else {
        listings.invalidate({ connection: location.connection, tenantId: location.tenantId, segment: location.segment });
      }
    }),
    connections.onDidChange(() => listings.invalidate()),
  ];
}
