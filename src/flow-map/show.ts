/**
 * `convai.showFlowMap`: which map a call names (a pulled folder or a live
 * tenant, and a node to centre), reading it, and answering with the model
 * once the panel drew it.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isProgrammatic } from '../commands';
import type { ListingCache } from '../core/listing-cache';
import type { FlowMap } from '../core/flow-map/model';
import { isTenantSegment, type Segment } from '../core/resources';
import { diskFolder } from '../core/tenant/folder-io';
import { nameOf, tenantRecord } from '../core/tenant/pull';
import { MANIFEST_FILE } from '../core/tenant/manifest';
import { pickTenant } from '../connections/pickers';
import type { Connections } from '../connections/registry';
import type { ConvaiFileSystem } from '../documents/filesystem';
import { parseUri, toUri } from '../shared/locations';
import { manifestOf, pulledFolder } from '../shared/pulled-folder';
import { cancellable } from '../ui/progress';
import { folderFlowMap } from '../core/flow-map/folder';
import { mermaidFlowMap } from '../core/flow-map/mermaid';
import { tenantFlowMap } from '../core/flow-map/tenant';
import type { FlowMapPanel, MapActions } from './panel';
import { mapView } from './view';

type Source = { type: 'folder'; folder: string } | { type: 'tenant'; connection: string; tenantId: number; name?: string };

interface Request {
  source: Source;
  /** A node id to centre, or (in a folder) the file whose node to centre. */
  focus?: string;
}

/** The tenant a `convai:` document belongs to, centred on its resource. */
function fromConvaiUri(uri: vscode.Uri): Request | undefined {
  const location = parseUri(uri);
  if (!location || !('tenantId' in location)) return undefined;
  const source: Source = { type: 'tenant', connection: location.connection, tenantId: location.tenantId };
  return 'segment' in location && 'id' in location ? { source, focus: `${location.segment}/${location.id}` } : { source };
}

/** The pulled folder a file lies in, centred on the file. */
async function fromFile(uri: vscode.Uri): Promise<Request | undefined> {
  for (let dir = path.dirname(uri.fsPath); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = vscode.Uri.file(path.join(dir, MANIFEST_FILE));
    if (await vscode.workspace.fs.stat(manifest).then(() => true, () => false)) {
      return { source: { type: 'folder', folder: dir }, focus: path.relative(dir, uri.fsPath).split(path.sep).join('/') };
    }
  }
  return undefined;
}

function programmaticRequest(arg: Record<string, unknown>): Request {
  const focus = typeof arg.focus === 'string' ? { focus: arg.focus } : {};
  if (arg.folder !== undefined) {
    if (typeof arg.folder !== 'string' || !path.isAbsolute(arg.folder)) throw new Error('folder must be the absolute path of a pulled tenant folder.');
    return { source: { type: 'folder', folder: arg.folder }, ...focus };
  }
  const { connection, tenantId } = arg;
  if (typeof connection !== 'string' || typeof tenantId !== 'number' || !Number.isSafeInteger(tenantId)) {
    throw new Error('Give { folder } (a pulled folder\'s absolute path) or { connection, tenantId } (a connection\'s name and the tenant\'s integer id).');
  }
  return { source: { type: 'tenant', connection, tenantId }, ...focus };
}

/** What a call names: a script's argument, a tree tenant, a document, a pulled folder's Source Control, or (from the palette) the active editor's tenant or a picked one. */
async function requestOf(arg: unknown, connections: Connections, listings: ListingCache): Promise<Request | undefined> {
  if (isProgrammatic(arg)) return programmaticRequest(arg);
  if (typeof arg === 'object' && arg !== null && 'connectionName' in arg && 'tenantId' in arg) {
    const node = arg as { connectionName: string; tenantId: number; summary?: { name?: unknown } };
    const name = typeof node.summary?.name === 'string' ? node.summary.name : undefined;
    return { source: { type: 'tenant', connection: node.connectionName, tenantId: node.tenantId, ...(name === undefined ? {} : { name }) } };
  }
  if (typeof arg === 'object' && arg !== null && 'rootUri' in arg) {
    const folder = await pulledFolder(arg);
    return folder === undefined ? undefined : { source: { type: 'folder', folder } };
  }
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  const fromEditor = uri && (uri.scheme === 'file' ? await fromFile(uri) : fromConvaiUri(uri));
  if (fromEditor) return fromEditor;
  const picked = await pickTenant(connections, listings, 'Show the flow map of which tenant?');
  return picked && { source: { type: 'tenant', connection: picked.connection, tenantId: picked.tenantId, name: picked.name } };
}

export interface MapServices {
  connections: Connections;
  listings: ListingCache;
  files: ConvaiFileSystem;
}

interface Read {
  map: FlowMap;
  title: string;
  focus?: string;
  open(node: string): vscode.Uri | undefined;
  svgFile?: vscode.Uri;
}

async function readFolder(folder: string, focus: string | undefined): Promise<Read> {
  const manifest = await manifestOf(folder);
  const { map, files } = await folderFlowMap(diskFolder(folder), manifest);
  const byFile = new Map([...files].map(([node, file]) => [file, node]));
  const name = path.basename(folder);
  return {
    map,
    title: `Flow Map: ${name}`,
    // A script names a node; a document names its file.
    // A prompt's text file (`order-triage.system.md`) stands for its JSON file.
    ...(focus === undefined ? {} : { focus: byFile.get(focus) ?? byFile.get(focus.replace(/\.[^/]*$/, '.json')) ?? focus }),
    open: (node) => {
      const file = files.get(node);
      return file === undefined ? undefined : vscode.Uri.file(path.join(folder, ...file.split('/')));
    },
    svgFile: vscode.Uri.file(path.join(path.dirname(folder), `${name}.svg`)),
  };
}

/** Requests at once while reading a live tenant's details, as a pull sends them. */
const CONCURRENCY = 4;

async function readTenant(connections: Connections, files: ConvaiFileSystem, source: Extract<Source, { type: 'tenant' }>, focus: string | undefined, programmatic: boolean): Promise<Read> {
  const { connection, tenantId } = source;
  const client = connections.client(connections.require(connection).name);
  // An open document's detail is what the service last said of it: no need to read it again.
  const known = (segment: Segment, id: number): ReturnType<ConvaiFileSystem['serviceObject']> =>
    isTenantSegment(segment) ? files.serviceObject(toUri({ type: 'resource', connection, tenantId, segment, id })) : undefined;
  const read = async (signal?: AbortSignal, progress?: vscode.Progress<{ message?: string }>): Promise<{ map: FlowMap; name?: string }> => {
    const tenant = await tenantRecord(client, tenantId, { signal });
    const map = await tenantFlowMap(client, tenantId, {
      signal, concurrency: CONCURRENCY, known, onProgress: (done, total) => progress?.report({ message: `${done} of ${total} resources` }),
    });
    return { map, ...(tenant ? { name: nameOf(tenant, tenantId) } : {}) };
  };
  const name = source.name ?? `tenant ${tenantId}`;
  const live = programmatic ? await read() : await cancellable(`Reading ${name} for its flow map`, read);
  const tenantName = live.name ?? name;
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri;
  return {
    map: live.map,
    title: `Flow Map: ${tenantName} (${connection})`,
    ...(focus === undefined ? {} : { focus }),
    open: (node) => {
      const [segment, id] = node.split('/');
      if (segment === undefined || !isTenantSegment(segment) || !/^\d+$/.test(id ?? '')) return undefined;
      return toUri({ type: 'resource', connection, tenantId, segment, id: Number(id) });
    },
    ...(workspace ? { svgFile: vscode.Uri.joinPath(workspace, `${tenantName.replace(/[^\w.-]+/g, '-')}.svg`) } : {}),
  };
}

export async function showFlowMap(panel: FlowMapPanel, { connections, listings, files }: MapServices, arg: unknown): Promise<FlowMap | undefined> {
  const request = await requestOf(arg, connections, listings);
  if (!request) return undefined;
  const { source } = request;
  const read = source.type === 'folder' ? await readFolder(source.folder, request.focus) : await readTenant(connections, files, source, request.focus, isProgrammatic(arg));
  const actions: MapActions = {
    open: async (node) => {
      const uri = read.open(node);
      // Beside the map, which stays in view to pick the next one.
      if (uri) await vscode.window.showTextDocument(uri, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    },
    mermaid: () => mermaidFlowMap(read.map),
    svgFile: () => read.svgFile,
  };
  await panel.show(mapView(read.map, read.title, read.focus), actions);
  const { nodes, edges, problems } = read.map;
  return { nodes, edges, problems };
}
