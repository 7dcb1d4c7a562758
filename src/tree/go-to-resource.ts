import * as vscode from 'vscode';
import { openTitled } from '../documents/open-titled';
import { plain, plainText } from '../core/plain-text';
import { mapWithLimit } from '../core/concurrency';
import type { JsonObject } from '../core/json';
import { LIMITS } from '../core/limits';
import { tenantsListing, type ListingCache } from '../core/listing-cache';
import { listingIndex, searchAll, type SearchIndex } from '../core/resource-search';
import { kindOfSegment, TENANT_SEGMENTS } from '../core/resources';
import type { TenantSegment } from '../core/resource-kind';
import { countText } from '../core/tree-groups';
import { toResourceUriString } from '../core/uri';
import { pickConnection } from '../connections/pickers';
import type { Connections } from '../connections/registry';
import { cancellable } from '../ui/progress';
import { isNode, TenantNode } from './nodes';

interface Source {
  tenantId: number;
  tenantName: string;
  segment: TenantSegment;
}

interface Searched {
  sources: { index: SearchIndex<JsonObject>; source: Source }[];
  tenants: number;
}

export interface GoToResourceRequest {
  connection: string;
  tenantId?: number;
  query: string;
}

export interface ResourceMatch {
  name: string;
  segment: TenantSegment;
  id: number;
  tenantId: number;
  uri: string;
}

interface ResourcePick extends vscode.QuickPickItem {
  uri: vscode.Uri;
}

function isRequest(arg: unknown): arg is GoToResourceRequest {
  if (typeof arg !== 'object' || arg === null || isNode(arg)) return false;
  const { connection, tenantId, query } = arg as Record<string, unknown>;
  return (
    typeof connection === 'string' &&
    typeof query === 'string' &&
    (tenantId === undefined || typeof tenantId === 'number')
  );
}

/**
 * The name index of every kind of the tenants searched, from the cached listings; missing ones are loaded, a few
 * at once, with their count in the progress and Cancel (undefined then).
 */
async function indexes(
  listings: ListingCache,
  connection: string,
  tenants: readonly JsonObject[],
): Promise<Searched | undefined> {
  const wanted = tenants.flatMap((tenant) =>
    typeof tenant.id === 'number'
      ? TENANT_SEGMENTS.map(
          (segment): Source => ({
            tenantId: tenant.id as number,
            tenantName: String(tenant.name ?? `Tenant ${String(tenant.id)}`),
            segment,
          }),
        )
      : [],
  );
  const keyOf = (source: Source): { connection: string; tenantId: number; segment: TenantSegment } => ({
    connection,
    tenantId: source.tenantId,
    segment: source.segment,
  });
  const missing = wanted.filter((source) => listings.peek(keyOf(source)) === undefined);
  if (missing.length > 0) {
    const loaded = await cancellable(`Loading the resources of ${connection}`, async (signal, progress) => {
      let done = 0;
      let resources = 0;
      await mapWithLimit(missing, LIMITS.tenantConcurrency.value, async (source) => {
        if (signal.aborted) return;
        resources += (await listings.items(keyOf(source))).length;
        done++;
        progress.report({
          message: `${done} of ${missing.length} lists, ${countText(resources)} resources`,
          increment: 100 / missing.length,
        });
      });
      return !signal.aborted;
    });
    if (!loaded) return undefined;
  }
  const sources = wanted.flatMap((source) => {
    const listing = listings.peek(keyOf(source));
    return listing ? [{ index: listingIndex(listing, kindOfSegment(source.segment).id), source }] : [];
  });
  return { sources, tenants: tenants.length };
}

function matches(connection: string, searched: Searched, query: string): { matches: ResourceMatch[]; total: number } {
  const found = searchAll(searched.sources, query, LIMITS.goToResults.value);
  return {
    total: found.total,
    matches: found.hits.map(({ name, value, source }) => {
      const id = value.id as number;
      return {
        name,
        segment: source.segment,
        id,
        tenantId: source.tenantId,
        uri: toResourceUriString({
          type: 'resource',
          connection,
          tenantId: source.tenantId,
          segment: source.segment,
          id,
        }),
      };
    }),
  };
}

/** A quick pick whose rows are the index's best matches of what is typed, updated on every keystroke. */
function pickResource(connection: string, searched: Searched): Promise<ResourceMatch | undefined> {
  const names = new Map(searched.sources.map(({ source }) => [source.tenantId, source.tenantName]));
  const pick = vscode.window.createQuickPick<ResourcePick>();
  pick.placeholder = 'Go to a resource by name';
  const show = (query: string): void => {
    const found = matches(connection, searched, query);
    pick.items = found.matches.map((match) => ({
      // Names as text: a quick pick draws `$(zap)` as an icon, and a right-to-left override reverses the row.
      label: plainText(match.name),
      description: `${kindOfSegment(match.segment).label} #${match.id}`,
      detail: searched.tenants > 1 ? plain`${names.get(match.tenantId) ?? ''} (#${match.tenantId})` : undefined,
      // The index has matched already; VS Code's own filter would hide a name holding the word inside another.
      alwaysShow: true,
      uri: vscode.Uri.parse(match.uri),
    }));
    pick.title =
      found.total > found.matches.length
        ? `${countText(found.matches.length)} of ${countText(found.total)} matches: type more to narrow`
        : undefined;
  };
  show('');
  return new Promise((resolve) => {
    pick.onDidChangeValue(show);
    pick.onDidAccept(() => {
      // Enter pressed as the rows of the word just typed are on their way shows the rows of the word before, or none:
      // a row those of the typed word do not hold is not what was asked for, and the best match of the word is.
      const found = matches(connection, searched, pick.value).matches;
      // The row Enter was pressed on; new rows arriving just before can leave the selection empty, not the focus.
      const selected = (pick.selectedItems[0] ?? pick.activeItems[0])?.uri;
      const chosen = selected && found.find((match) => vscode.Uri.parse(match.uri).toString() === selected.toString());
      resolve(chosen ?? found[0]);
      pick.hide();
    });
    pick.onDidHide(() => {
      resolve(undefined);
      pick.dispose();
    });
    pick.show();
  });
}

/**
 * Go to Resource over every kind of one tenant, or of all tenants of a connection, searched by name as the user
 * types. Programmatically (`{ connection, tenantId?, query }`) it shows nothing and returns the best matches.
 */
export async function goToResource(
  connections: Connections,
  listings: ListingCache,
  arg: unknown,
): Promise<{ matches: ResourceMatch[]; total: number } | undefined> {
  const request = isRequest(arg) ? arg : undefined;
  const connection =
    request?.connection ??
    (isNode(arg) ? arg.connectionName : await pickConnection(connections, { placeHolder: 'Connection to search' }));
  if (!connection) return undefined;
  const tenants =
    arg instanceof TenantNode
      ? [arg.summary]
      : request?.tenantId !== undefined
        ? [{ id: request.tenantId }]
        : await listings.items(tenantsListing(connection));
  const searched = await indexes(listings, connection, tenants);
  if (!searched) return undefined;
  if (request) return matches(connection, searched, request.query);
  const picked = await pickResource(connection, searched);
  if (picked) await openTitled(vscode.Uri.parse(picked.uri), kindOfSegment(picked.segment).label, picked.name);
  return undefined;
}
