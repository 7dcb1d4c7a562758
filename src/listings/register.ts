import type * as vscode from 'vscode';
import { ListingCache } from '../core/listing-cache';
import { kindOfSegment } from '../core/resources';
import { isTrialCopy } from '../core/trials/trial-names';
import type { Connections } from '../connections/registry';

/**
 * How many trial copies each tenant's prompt listing held (and left out): read from the listing the tree loads
 * anyway, so the tree can offer to clean them up without another request.
 */
export class TrialCopyCounts {
  private readonly counts = new Map<string, number>();

  set(connection: string, tenantId: number, count: number): void {
    this.counts.set(`${tenantId} ${connection}`, count);
  }

  /** The count as the last listing found it; 0 before one. */
  of(connection: string, tenantId: number): number {
    return this.counts.get(`${tenantId} ${connection}`) ?? 0;
  }
}

/**
 * The one cached listing per tenant and kind, and of each connection's
 * tenants, that the tree, references, pickers and the file system share. It
 * goes stale when the connections change, when the extension itself changes a
 * resource (the documents feature says so) and on the user's Refresh (the tree).
 */
export function register(
  context: vscode.ExtensionContext,
  { connections }: { connections: Connections },
): { listings: ListingCache; trialCopies: TrialCopyCounts } {
  const trialCopies = new TrialCopyCounts();
  const listings = new ListingCache(async (key) => {
    // visibleTenants holds the rule for a token that may not list tenants.
    if (key.segment === 'tenants') return connections.visibleTenants(key.connection);
    const client = connections.client(key.connection);
    if (key.segment !== 'ai_prompts') return client.list(kindOfSegment(key.segment), key.tenantId);
    const all = await client.list(kindOfSegment(key.segment), key.tenantId, { trialCopies: true });
    trialCopies.set(key.connection, key.tenantId, all.filter(isTrialCopy).length);
    return all.filter((item) => !isTrialCopy(item));
  });
  context.subscriptions.push(connections.onDidChange(() => listings.invalidate()));
  return { listings, trialCopies };
}
