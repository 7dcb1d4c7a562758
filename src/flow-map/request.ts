/**
 * Which map a call of `convai.showFlowMap` names: a pulled folder or a live
 * tenant, and a node to centre, from a script's argument, a tree tenant, a
 * document, a pulled folder's Source Control, or the palette.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ListingCache } from '../core/listing-cache';
import { MANIFEST_FILE } from '../core/tenant/manifest';
import { pickTenant } from '../connections/pickers';
import type { Connections } from '../connections/registry';
import { parseUri } from '../shared/locations';
import { pulledFolder } from '../shared/pulled-folder';
import type { MapSource as Source } from './follow';

export interface Request {
  source: Source;
  /** A node id to centre, or (in a folder) the file whose node to centre. */
  focus?: string;
}

/** The tenant a `convai:` document belongs to, centred on its resource. */
function fromConvaiUri(uri: vscode.Uri): Request | undefined {
  const location = parseUri(uri);
  if (!location || !('tenantId' in location)) return undefined;
  const source: Source = { type: 'tenant', connection: location.connection, tenantId: location.tenantId };
  return 'segment' in location && 'id' in location
    ? { source, focus: `${location.segment}/${location.id}` }
    : { source };
}

/** The pulled folder a file lies in, centred on the file. */
async function fromFile(uri: vscode.Uri): Promise<Request | undefined> {
  for (let dir = path.dirname(uri.fsPath); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = vscode.Uri.file(path.join(dir, MANIFEST_FILE));
    if (
      await vscode.workspace.fs.stat(manifest).then(
        () => true,
        () => false,
      )
    ) {
      return {
        source: { type: 'folder', folder: dir },
        focus: path.relative(dir, uri.fsPath).split(path.sep).join('/'),
      };
    }
  }
  return undefined;
}

export function programmaticRequest(arg: Record<string, unknown>): Request {
  const focus = typeof arg.focus === 'string' ? { focus: arg.focus } : {};
  if (arg.folder !== undefined) {
    if (typeof arg.folder !== 'string' || !path.isAbsolute(arg.folder))
      throw new Error('folder must be the absolute path of a pulled tenant folder.');
    return { source: { type: 'folder', folder: arg.folder }, ...focus };
  }
  const { connection, tenantId } = arg;
  if (typeof connection !== 'string' || typeof tenantId !== 'number' || !Number.isSafeInteger(tenantId)) {
    throw new Error(
      "Give { folder } (a pulled folder's absolute path) or { connection, tenantId } (a connection's name and the tenant's integer id).",
    );
  }
  return { source: { type: 'tenant', connection, tenantId }, ...focus };
}

/** What a user's call names: a tree tenant, a document, a pulled folder's Source Control, or (from the palette) the active editor's tenant or a picked one. */
export async function requestOf(
  arg: unknown,
  connections: Connections,
  listings: ListingCache,
): Promise<Request | undefined> {
  if (typeof arg === 'object' && arg !== null && 'connectionName' in arg && 'tenantId' in arg) {
    const node = arg as { connectionName: string; tenantId: number; summary?: { name?: unknown } };
    const name = typeof node.summary?.name === 'string' ? node.summary.name : undefined;
    return {
      source: {
        type: 'tenant',
        connection: node.connectionName,
        tenantId: node.tenantId,
        ...(name === undefined ? {} : { name }),
      },
    };
  }
  if (typeof arg === 'object' && arg !== null && 'rootUri' in arg) {
    const folder = await pulledFolder(arg);
    return folder === undefined ? undefined : { source: { type: 'folder', folder } };
  }
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  const fromEditor = uri && (uri.scheme === 'file' ? await fromFile(uri) : fromConvaiUri(uri));
  if (fromEditor) return fromEditor;
  const picked = await pickTenant(connections, listings, 'Show the flow map of which tenant?');
  return (
    picked && {
      source: { type: 'tenant', connection: picked.connection, tenantId: picked.tenantId, name: picked.name },
    }
  );
}
