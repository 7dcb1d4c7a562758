import * as vscode from 'vscode';
import { kindOfSegment } from '../core/resources';
import type { ResourceKind } from '../core/resource-kind';
import {
  isFile,
  isPart,
  parseResourcePath,
  SCHEME,
  toResourcePath,
  wholeOf,
  type FileLocation,
  type ResourceLocation,
  type WholeLocation,
} from '../core/uri';

export function parseUri(uri: vscode.Uri): ResourceLocation | undefined {
  return uri.scheme === SCHEME ? parseResourcePath(uri.authority, uri.path) : undefined;
}

export function toUri(location: ResourceLocation): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEME, authority: location.connection, path: toResourcePath(location) });
}

export function requireLocation(uri: vscode.Uri): ResourceLocation {
  const location = parseUri(uri);
  if (!location) {
    throw vscode.FileSystemError.FileNotFound(
      `${uri.toString()} is not a ConvAI resource: expected convai://<connection>/tenants/<tenantId>/<kind>/<id>.json.`,
    );
  }
  return location;
}

export function kindOf(location: FileLocation): ResourceKind {
  return kindOfSegment(location.type === 'tenant' ? 'tenants' : location.segment);
}

/** The id and tenant query of a document's requests. */
export function target(location: FileLocation): { id: number; tenantId?: number } {
  return location.type === 'tenant' ? { id: location.tenantId } : { id: location.id, tenantId: location.tenantId };
}

export interface FileTarget {
  uri: vscode.Uri;
  location: WholeLocation;
}

/**
 * The resource document a command names: a URI or its text (scripts, CodeLenses,
 * editor menus), a tree node, or, when a user gave none, the active editor.
 */
export function fileTarget(arg: unknown, fallbackToActiveEditor: boolean): FileTarget | undefined {
  let uri: vscode.Uri | undefined;
  if (arg instanceof vscode.Uri) uri = arg;
  else if (typeof arg === 'string') uri = vscode.Uri.parse(arg);
  else if (
    typeof arg === 'object' &&
    arg !== null &&
    'location' in arg &&
    (arg as { type?: unknown }).type === 'part'
  ) {
    uri = toUri((arg as { location: FileLocation }).location);
  } else if (typeof arg === 'object' && arg !== null && 'connectionName' in arg && 'tenantId' in arg) {
    const node = arg as { type?: unknown; connectionName: string; tenantId: number; segment?: string; id?: number };
    const location: ResourceLocation | undefined =
      node.type === 'tenant'
        ? { type: 'tenant', connection: node.connectionName, tenantId: node.tenantId }
        : node.type === 'resource' && typeof node.id === 'number'
          ? parseResourcePath(node.connectionName, `/tenants/${node.tenantId}/${node.segment ?? ''}/${node.id}.json`)
          : undefined;
    uri = location && toUri(location);
  } else if (arg === undefined && fallbackToActiveEditor) uri = vscode.window.activeTextEditor?.document.uri;
  const location = uri && parseUri(uri);
  if (!uri || !location || !isFile(location)) return undefined;
  // A part stands for its resource: "Test Prompt" in a prompt's system.md tests the prompt.
  return isPart(location) ? { uri: toUri(wholeOf(location)), location: wholeOf(location) } : { uri, location };
}
