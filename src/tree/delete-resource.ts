import * as vscode from 'vscode';
import { COMMANDS, isProgrammatic, registerCommand } from '../commands';
import type { ServiceClient } from '../core/client';
import type { JsonObject } from '../core/json';
import { findReferences, referringKinds, type Reference } from '../core/references';
import { kindOfSegment, type TenantSegment } from '../core/resources';
import { describeLocation, isFile, toResourceUriString, wholeOf, type FileLocation } from '../core/uri';
import type { Connections } from '../connections/registry';
import type { ConvaiFileSystem } from '../documents/filesystem';
import { fileTarget, kindOf, parseUri, target, toUri } from '../shared/locations';
import type { Log } from '../log';
import { ResourceNode, TenantNode } from './nodes';
import { plural } from '../core/text';

const DELETE = 'Delete';

/** What else in the tenant points at the resource (prompt links are detail-only, so prompts are read in full). */
async function references(client: ServiceClient, location: FileLocation): Promise<Reference[]> {
  if (location.type !== 'resource') return [];
  const objects: Partial<Record<TenantSegment, JsonObject[]>> = {};
  for (const segment of referringKinds(location.segment)) {
    const kind = kindOfSegment(segment);
    const summaries = await client.list(kind, location.tenantId);
    objects[segment] = segment === 'ai_prompts'
      ? await Promise.all(summaries.map((s) => client.get(kind, s.id as number, location.tenantId)))
      : summaries;
  }
  return findReferences({ segment: location.segment, id: location.id }, objects);
}

async function confirm(client: ServiceClient, location: FileLocation, name: string): Promise<boolean> {
  const label = describeLocation(location);
  const refs = await references(client, location);
  const lines = refs.map((r) => `• ${kindOfSegment(r.segment).label} "${r.name}" (#${r.id}) refers to it through ${r.field}`);
  const detail = [
    location.type === 'tenant' ? 'Every resource of this tenant is deleted with it.' : '',
    refs.length > 0 ? `${plural(refs.length, 'resource')} of the tenant refer${refs.length > 1 ? '' : 's'} to it:\n${lines.join('\n')}` : '',
    'This cannot be undone.',
  ].filter(Boolean).join('\n\n');
  const choice = await vscode.window.showWarningMessage(`Delete "${name}", ${label}?`, { modal: true, detail }, DELETE);
  return choice === DELETE;
}

/** Closes the editors of a deleted resource and of its parts; one with unsaved text stays open, so nothing typed is lost. */
async function closeEditors(uri: vscode.Uri): Promise<void> {
  const ofResource = (tabUri: vscode.Uri): boolean => {
    const location = parseUri(tabUri);
    return location !== undefined && isFile(location) && toUri(wholeOf(location)).toString() === uri.toString();
  };
  const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter(
    (tab) => tab.input instanceof vscode.TabInputText && ofResource(tab.input.uri) && !tab.isDirty,
  );
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
}

export function registerDeleteCommand(log: Log, connections: Connections, files: ConvaiFileSystem): vscode.Disposable {
  return registerCommand(log, COMMANDS.deleteResource, async (arg) => {
    const programmatic = isProgrammatic(arg);
    const targeted = fileTarget(programmatic ? arg.uri : arg, !programmatic);
    if (!targeted) {
      throw new Error(programmatic
        ? `uri must name a ConvAI resource such as convai://<connection>/tenants/<tenantId>/<kind>/<id>.json (got ${JSON.stringify(arg.uri)}).`
        : 'Open a ConvAI resource or choose one in the ConvAI view to delete it.');
    }
    const { location } = targeted;
    const connection = connections.require(location.connection);
    if (connection.readOnly) {
      throw new Error(`Not deleted: the connection "${connection.name}" is read-only (readOnly in convai.connections).`);
    }
    const client = connections.client(location.connection);
    const kind = kindOf(location);
    const { id, tenantId } = target(location);
    const mustAsk = programmatic ? arg.confirm === true : true;
    if (mustAsk) {
      const summary = arg instanceof ResourceNode || arg instanceof TenantNode ? arg.summary : await client.get(kind, id, tenantId);
      if (!(await confirm(client, location, String(summary.name ?? summary.display_name ?? `#${id}`)))) return undefined;
    }
    const status = await client.delete(kind, id, tenantId);
    const uri = vscode.Uri.parse(toResourceUriString(location));
    files.forget(uri, location);
    await closeEditors(uri);
    if (!programmatic) void vscode.window.showInformationMessage(status);
    return status;
  });
}
