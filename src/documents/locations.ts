import * as vscode from 'vscode';
import { kindById, kindBySegment, type ResourceKind } from '../core/resources';
import { describeLocation, parseResourcePath, SCHEME, toResourcePath, type FileLocation, type ResourceLocation } from '../core/uri';

export function parseUri(uri: vscode.Uri): ResourceLocation | undefined {
  return uri.scheme === SCHEME ? parseResourcePath(uri.authority, uri.path) : undefined;
}

export function toUri(location: ResourceLocation): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEME, authority: location.connection, path: toResourcePath(location) });
}

export function requireLocation(uri: vscode.Uri): ResourceLocation {
  const location = parseUri(uri);
  if (!location) {
    throw vscode.FileSystemError.FileNotFound(`${uri.toString()} is not a ConvAI resource: expected convai://<connection>/tenants/<tenantId>/<kind>/<id>.json.`);
  }
  return location;
}

export function kindOf(location: FileLocation): ResourceKind {
  return location.type === 'tenant' ? kindById('tenant') : (kindBySegment(location.segment) as ResourceKind);
}

/** The id and tenant query of a document's requests. */
export function target(location: FileLocation): { id: number; tenantId?: number } {
  return location.type === 'tenant' ? { id: location.tenantId } : { id: location.id, tenantId: location.tenantId };
}

export { describeLocation };
