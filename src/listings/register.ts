import type * as vscode from 'vscode';
import { ListingCache } from '../core/listing-cache';
import { kindOfSegment } from '../core/resources';
import type { Connections } from '../connections/registry';

/**
 * The one cached listing per tenant and kind, and of each connection's
 * tenants, that the tree, references, pickers and the file system share. It
 * goes stale when the connections change, when the extension itself changes a
 * resource (the documents feature says so) and on the user's Refresh (the tree).
 */
export function register(
  context: vscode.ExtensionContext,
  { connections }: { connections: Connections },
): { listings: ListingCache } {
  const listings = new ListingCache((key) =>
    key.segment === 'tenants'
      ? // visibleTenants holds the rule for a token that may not list tenants.
        connections.visibleTenants(key.connection)
      : connections.client(key.connection).list(kindOfSegment(key.segment), key.tenantId),
  );
  context.subscriptions.push(connections.onDidChange(() => listings.invalidate()));
  return { listings };
}
