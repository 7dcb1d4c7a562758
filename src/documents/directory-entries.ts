/**
 * The folders of the `convai:` file system and what each lists: tenants,
 * resource kinds, resources, and the parts of prompts and agents.
 */
import * as vscode from 'vscode';
import { agentElementNames } from '../core/document-views';
import { ServiceError } from '../core/errors';
import { tenantsListing, type ListingCache } from '../core/listing-cache';
import { plain } from '../core/plain-text';
import { kindById, TENANT_SEGMENTS } from '../core/resources';
import { PROMPT_PARTS, toResourcePath, type ResourceLocation } from '../core/uri';
import type { Connections } from '../connections/registry';
import type { Log } from '../log';
import { toUri } from '../shared/locations';
import { callService, reportedFailure } from './file-system-errors';

export type Entry = [string, vscode.FileType];

/** What a folder's entries are asked of. */
export interface DirectorySources {
  connections: Connections;
  listings: ListingCache;
  log: Log;
}

/** The last path segment: an entry's name in its folder. */
function entryName(location: ResourceLocation): string {
  return toResourcePath(location).replace(/\/$/, '').split('/').pop() ?? '';
}

/** A folder's entries: asked of the service where the folder holds resources. */
export async function directoryEntries(
  uri: vscode.Uri,
  location: ResourceLocation,
  sources: DirectorySources,
): Promise<Entry[]> {
  const { File, Directory } = vscode.FileType;
  switch (location.type) {
    case 'root':
      return [['tenants', Directory]];
    case 'tenants':
      return (await tenantIds(sources, location.connection)).flatMap((id): Entry[] => [
        [`${id}.json`, File],
        [String(id), Directory],
      ]);
    case 'tenantFolder':
      return TENANT_SEGMENTS.map((segment) => [segment, Directory]);
    case 'kindFolder': {
      // The shared listing: the extension's own creates and deletes drop it (documents/register.ts), so it is not stale after them.
      const items = await callService(sources.log, uri, () =>
        sources.listings.items({
          connection: location.connection,
          tenantId: location.tenantId,
          segment: location.segment,
        }),
      );
      // Prompts and agents have a folder of parts beside their document.
      const hasParts = location.segment === 'ai_prompts' || location.segment === 'agents';
      return items
        .filter((item) => typeof item.id === 'number')
        .flatMap((item): Entry[] => [
          [`${String(item.id)}.json`, File],
          ...(hasParts ? [[String(item.id), Directory] satisfies Entry] : []),
        ]);
    }
    case 'partsFolder':
      return location.segment === 'agents'
        ? [['prompts', Directory]]
        : PROMPT_PARTS.map((part) => [entryName({ ...location, type: 'part', segment: 'ai_prompts', part }), File]);
    case 'agentPromptsFolder': {
      const agent = await callService(sources.log, uri, () =>
        sources.connections.client(location.connection).get(kindById('agent'), location.id, location.tenantId),
      );
      return agentElementNames(agent).map((element) => [
        entryName({ ...location, type: 'agentPrompt', element }),
        File,
      ]);
    }
    default:
      throw vscode.FileSystemError.FileNotADirectory(uri);
  }
}

async function tenantIds(sources: DirectorySources, connectionName: string): Promise<number[]> {
  const uri = toUri({ type: 'tenants', connection: connectionName });
  try {
    const tenants = await sources.listings.items(tenantsListing(connectionName));
    return tenants.map((t) => t.id).filter((id): id is number => typeof id === 'number');
  } catch (error) {
    if (error instanceof ServiceError && error.status === 403) {
      throw vscode.FileSystemError.NoPermissions(
        plain`${error.message} The token may not list tenants: set "tenantId" of the connection "${connectionName}" in convai.connections.`,
      );
    }
    throw reportedFailure(sources.log, uri, error);
  }
}
