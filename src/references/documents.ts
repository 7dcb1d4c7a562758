import * as vscode from 'vscode';
import { mapWithLimit } from '../core/concurrency';
import { LIMITS } from '../core/limits';
import type { JsonObject } from '../core/json';
import type { TextRange } from '../core/json-document';
import type { ListingCache } from '../core/listing-cache';
import { REFERENCE_FIELDS, type ReferenceValue } from '../core/references';
import type { TenantSegment } from '../core/resource-kind';
import { SCHEME, type ResourceLocation } from '../core/uri';
import { parseUri, toUri } from '../shared/locations';

/** What the features need of a document's location: whose listings to read. */
export interface InTenant {
  connection: string;
  tenantId: number;
}

export type ResourceAt = Extract<ResourceLocation, { type: 'resource' }>;

const REFERRING_SEGMENTS = [...new Set(REFERENCE_FIELDS.map((r) => r.from))];

/** The whole documents of the kinds that hold references; the scheme and patterns keep the features out of users' own files. */
export const REFERRING_DOCUMENTS: vscode.DocumentSelector = REFERRING_SEGMENTS.map((segment) => ({
  scheme: SCHEME,
  pattern: `**/tenants/*/${segment}/*.json`,
}));

export const FUNCTION_DEFS_DOCUMENTS: vscode.DocumentSelector = {
  scheme: SCHEME,
  pattern: '**/tenants/*/ai_prompts/*/function_defs.json',
};

/** The resource a document shows, when it is the whole document of a kind that holds references. */
export function referringResource(document: vscode.TextDocument): ResourceAt | undefined {
  const location = parseUri(document.uri);
  return location?.type === 'resource' && REFERRING_SEGMENTS.includes(location.segment) ? location : undefined;
}

/** The prompt whose function_defs part a document shows. */
export function functionDefsPart(document: vscode.TextDocument): InTenant | undefined {
  const location = parseUri(document.uri);
  return location?.type === 'part' && location.part === 'function_defs' ? location : undefined;
}

export function resourceUri(at: InTenant, segment: TenantSegment, id: number): vscode.Uri {
  return toUri({ type: 'resource', connection: at.connection, tenantId: at.tenantId, segment, id });
}

export function rangeIn(document: vscode.TextDocument, range: TextRange): vscode.Range {
  return new vscode.Range(document.positionAt(range.offset), document.positionAt(range.offset + range.length));
}

/** The tenant's listing of a kind; undefined when it failed, since a failed listing names nothing and warns of nothing. */
export async function listingOf(
  listings: ListingCache,
  at: InTenant,
  segment: TenantSegment,
): Promise<readonly JsonObject[] | undefined> {
  const outcome = await listings.get({ connection: at.connection, tenantId: at.tenantId, segment });
  return outcome.ok ? outcome.value : undefined;
}

/** The listings of the kinds the references point at, loaded side by side (a few at a time); a kind's entry is undefined when its listing failed. */
export async function targetListings(
  listings: ListingCache,
  at: InTenant,
  values: readonly ReferenceValue[],
): Promise<(segment: TenantSegment) => readonly JsonObject[] | undefined> {
  const segments = [...new Set(values.map((v) => v.reference.to))];
  const loaded = new Map(
    await mapWithLimit(
      segments,
      LIMITS.tenantConcurrency.value,
      async (segment) => [segment, await listingOf(listings, at, segment)] as const,
    ),
  );
  return (segment) => loaded.get(segment);
}
