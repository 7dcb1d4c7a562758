import * as vscode from 'vscode';
import { ListingCache } from '../core/listing-cache';
import { kindOfSegment } from '../core/resources';
import type { Connections } from '../connections/registry';
import type { ConvaiFileSystem } from '../documents/filesystem';

/**
 * The one cached listing per tenant and kind that the tree, references and
 * pickers share. It goes stale when the extension itself changes a resource
 * (a save, create or delete) or the connections change; the user's refresh
 * drops it through the tree.
 */
export function register(connections: Connections, files: ConvaiFileSystem): { listings: ListingCache; disposables: vscode.Disposable[] } {
  const listings = new ListingCache(({ connection, tenantId, segment }) =>
    connections.client(connection).list(kindOfSegment(segment), tenantId));
  return {
    listings,
    disposables: [
      files.onDidChangeResource((location) => {
        if (location.type === 'tenant') listings.invalidate({ connection: location.connection, tenantId: location.tenantId });
        else listings.invalidate({ connection: location.connection, tenantId: location.tenantId, segment: location.segment });
      }),
      connections.onDidChange(() => listings.invalidate()),
    ],
  };
}
