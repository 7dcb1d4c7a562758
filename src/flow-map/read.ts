/** Reading a map: a pulled folder's from its files, a live tenant's from the service, and what its nodes open. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { folderFlowMap } from '../core/flow-map/folder';
import type { FlowMap } from '../core/flow-map/model';
import { tenantFlowMap } from '../core/flow-map/tenant';
import { isTenantSegment } from '../core/resources';
import type { Segment } from '../core/resource-kind';
import { DiskFolder } from '../core/tenant/disk-folder';
import { nameOf, tenantRecord } from '../core/tenant/tenant-listing';
import type { Connections } from '../connections/registry';
import type { ConvaiFileSystem } from '../documents/filesystem';
import type { JsonObject } from '../core/json';
import { LIMITS } from '../core/limits';
import { toUri } from '../shared/locations';
import { manifestOf } from '../shared/pulled-folder';
import { cancellable, countProgress, type Progress } from '../ui/progress';
import type { MapSource, TenantDetails } from './follow';
import { tenantPromptUses, type MapTenant } from './tenant-tests';

export interface Read {
  map: FlowMap;
  tenant: MapTenant;
  title: string;
  focus?: string;
  open(node: string): vscode.Uri | undefined;
  svgFile?: vscode.Uri;
}

async function readFolder(connections: Connections, folder: string, focus: string | undefined): Promise<Read> {
  const manifest = await manifestOf(folder);
  const tenant = { connection: manifest.connection, baseUrl: manifest.baseUrl, tenantId: manifest.tenantId };
  const uses = await tenantPromptUses(connections, tenant);
  const { map, files } = await folderFlowMap(new DiskFolder(folder), manifest, { uses });
  const byFile = new Map([...files].map(([node, file]) => [file, node]));
  const name = path.basename(folder);
  return {
    map,
    tenant,
    title: `Flow Map: ${name}`,
    // A script names a node; a document names its file.
    // A prompt's text file (`order-triage.system.md`) stands for its JSON file.
    ...(focus === undefined
      ? {}
      : { focus: byFile.get(focus) ?? byFile.get(focus.replace(/\.[^/]*$/, '.json')) ?? focus }),
    open: (node) => {
      const file = files.get(node);
      return file === undefined ? undefined : vscode.Uri.file(path.join(folder, ...file.split('/')));
    },
    svgFile: vscode.Uri.file(path.join(path.dirname(folder), `${name}.svg`)),
  };
}

/** How a read shows itself: a notification with Cancel, or nothing (a script's call, or a redraw after a change). */
export type Shown = 'notification' | 'quiet';

async function readTenant(
  { connections, files }: { connections: Connections; files: ConvaiFileSystem },
  source: Extract<MapSource, { type: 'tenant' }>,
  details: TenantDetails,
  shown: Shown,
): Promise<Omit<Read, 'focus'>> {
  const { connection, tenantId } = source;
  const client = connections.client(connections.require(connection).name);
  const tenant = { connection, baseUrl: connections.require(connection).baseUrl, tenantId };
  // An open document's detail is what the service last said of it, as is one read for this map and not changed since.
  const known = (segment: Segment, id: number): JsonObject | undefined =>
    (isTenantSegment(segment)
      ? files.serviceObject(toUri({ type: 'resource', connection, tenantId, segment, id }))
      : undefined) ?? details.get(`${segment}/${id}`);
  const read = async (signal?: AbortSignal, progress?: Progress): Promise<{ map: FlowMap; name?: string }> => {
    const [record, uses] = await Promise.all([
      tenantRecord(client, tenantId, { signal }),
      tenantPromptUses(connections, tenant),
    ]);
    const map = await tenantFlowMap(client, tenantId, {
      signal,
      uses,
      concurrency: LIMITS.tenantConcurrency.value,
      known,
      onDetail: (segment, id, detail) => details.set(`${segment}/${id}`, detail),
      onProgress: countProgress(progress, (done, total) => `${done} of ${total} resources`),
    });
    return { map, ...(record ? { name: nameOf(record, tenantId) } : {}) };
  };
  const name = source.name ?? `tenant ${tenantId}`;
  const live = shown === 'quiet' ? await read() : await cancellable(`Reading ${name} for its flow map`, read);
  const tenantName = live.name ?? name;
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri;
  return {
    map: live.map,
    tenant,
    title: `Flow Map: ${tenantName} (${connection})`,
    open: (node) => {
      const [segment, id] = node.split('/');
      if (segment === undefined || !isTenantSegment(segment) || !/^\d+$/.test(id ?? '')) return undefined;
      return toUri({ type: 'resource', connection, tenantId, segment, id: Number(id) });
    },
    ...(workspace ? { svgFile: vscode.Uri.joinPath(workspace, `${tenantName.replace(/[^\w.-]+/g, '-')}.svg`) } : {}),
  };
}

/** The map `source` names as it is now, centred on `focus` when given. */
export async function readMap(
  services: { connections: Connections; files: ConvaiFileSystem },
  source: MapSource,
  details: TenantDetails,
  focus: string | undefined,
  shown: Shown,
): Promise<Read> {
  if (source.type === 'folder') return readFolder(services.connections, source.folder, focus);
  const read = await readTenant(services, source, details, shown);
  return { ...read, ...(focus === undefined ? {} : { focus }) };
}
