import * as path from 'node:path';
import * as vscode from 'vscode';
import { plain, plainText } from '../core/plain-text';
import { COMMANDS, registerCommand } from '../commands';
import type { ServiceClient } from '../core/client';
import { sameBaseUrl } from '../core/base-url';
import { deletion } from '../core/changes';
import { mapWithLimit } from '../core/concurrency';
import { LIMITS } from '../core/limits';
import type { JsonObject } from '../core/json';
import type { ListingCache } from '../core/listing-cache';
import { findReferences, mergeKnown, referringKinds, type Reference } from '../core/references';
import { kindOfSegment } from '../core/resources';
import type { TenantSegment } from '../core/resource-kind';
import { DiskFolder } from '../core/tenant/disk-folder';
import { pulledObjects } from '../core/tenant/pulled-objects';
import { MANIFEST_FILE, readManifest } from '../core/tenant/manifest';
import type { Changes } from '../documents/changes';
import { describeLocation, isFile, toResourceUriString, wholeOf, type FileLocation } from '../core/uri';
import type { Connections } from '../connections/registry';
import type { Connection } from '../shared/settings';
import type { ConvaiFileSystem } from '../documents/filesystem';
import { fileTarget, kindOf, parseUri, target, toUri } from '../shared/locations';
import type { Log } from '../log';
import { ResourceNode, TenantNode } from './nodes';
import { plural } from '../core/text';

const DELETE = 'Delete';

/** What the workspace's pulled folders of this tenant (pulled through this connection, by name or base URL) hold of `kinds`. */
async function pulledResources(
  connection: { name: string; baseUrl: string },
  tenantId: number,
  kinds: readonly TenantSegment[],
): Promise<Array<Partial<Record<TenantSegment, JsonObject[]>>>> {
  const manifests = await vscode.workspace.findFiles(`**/${MANIFEST_FILE}`, '**/node_modules/**');
  const read = await mapWithLimit(manifests, LIMITS.tenantConcurrency.value, async (file) => {
    const io = new DiskFolder(path.dirname(file.fsPath));
    const manifest = await readManifest(io).catch(() => undefined);
    const ours =
      manifest?.tenantId === tenantId &&
      (manifest.connection === connection.name || sameBaseUrl(manifest.baseUrl, connection.baseUrl));
    return ours ? [await pulledObjects(io, manifest, kinds)] : [];
  });
  return read.flat();
}

interface Found {
  segment: TenantSegment;
  object: JsonObject;
}

/**
 * What is known of the resources that may refer to `location`, without reading every one of them: a listing per
 * referring kind (the cached one, else one request), the details of the tenant's open documents, and the files of
 * its pulled folders in the workspace.
 */
async function knownReferences(
  { listings, files }: DeleteServices,
  connection: { name: string; baseUrl: string },
  location: FileLocation,
): Promise<Known> {
  if (location.type !== 'resource') return { references: [], looked: '' };
  const { tenantId } = location;
  const kinds = referringKinds(location.segment);
  if (kinds.length === 0) return { references: [], looked: '' };
  const listed = await mapWithLimit(
    kinds,
    LIMITS.tenantConcurrency.value,
    async (segment) => [segment, await listings.items({ connection: connection.name, tenantId, segment })] as const,
  );
  const opened = vscode.workspace.textDocuments.flatMap((document): Found[] => {
    const at = parseUri(document.uri);
    const whole = at && isFile(at) ? wholeOf(at) : undefined;
    const detail =
      whole?.type === 'resource' && whole.connection === connection.name && whole.tenantId === tenantId
        ? files.serviceObject(document.uri)
        : undefined;
    return whole?.type === 'resource' && detail ? [{ segment: whole.segment, object: detail }] : [];
  });
  const pulled = await pulledResources(connection, tenantId, kinds);
  const known = mergeKnown([Object.fromEntries(listed), ...pulled, bySegment(opened)]);
  const kindNames = kinds.map((segment) => kindOfSegment(segment).pluralLabel).join(' and ');
  const looked =
    `Looked only at what is already known, without reading every resource of the tenant: the listings of its ${kindNames}, ` +
    `${plural(new Set(opened.map((o) => `${o.segment}/${String(o.object.id)}`)).size, 'open document')} and ${plural(pulled.length, 'pulled folder')} of it in the workspace. ` +
    "A reference held elsewhere (a prompt's next_prompt_id that is neither open nor pulled) is not listed.";
  return { references: findReferences({ segment: location.segment, id: location.id }, known), looked };
}

function bySegment(found: readonly Found[]): Partial<Record<TenantSegment, JsonObject[]>> {
  const out: Partial<Record<TenantSegment, JsonObject[]>> = {};
  for (const { segment, object } of found) (out[segment] ??= []).push(object);
  return out;
}

interface Known {
  references: Reference[];
  /** Where the search looked, for the warning to say. */
  looked: string;
}

async function confirm(
  services: DeleteServices,
  connection: { name: string; baseUrl: string },
  location: FileLocation,
  name: string,
): Promise<boolean> {
  const label = describeLocation(location);
  const { references: refs, looked } = await knownReferences(services, connection, location);
  const lines = refs.map(
    (r) => plain`• ${kindOfSegment(r.segment).label} "${r.name}" (#${r.id}) refers to it through ${r.field}`,
  );
  const detail = [
    location.type === 'tenant' ? 'Every resource of this tenant is deleted with it.' : '',
    refs.length > 0
      ? `${plural(refs.length, 'resource')} of the tenant refer${refs.length > 1 ? '' : 's'} to it:\n${lines.join('\n')}`
      : '',
    looked,
    'This cannot be undone.',
  ]
    .filter(Boolean)
    .join('\n\n');
  const choice = await vscode.window.showWarningMessage(
    plain`Delete "${name}", ${label}?`,
    { modal: true, detail },
    DELETE,
  );
  return choice === DELETE;
}

/** Closes the editors of a deleted resource and of its parts; one with unsaved text stays open, so nothing typed is lost. */
async function closeEditors(uri: vscode.Uri): Promise<void> {
  const ofResource = (tabUri: vscode.Uri): boolean => {
    const location = parseUri(tabUri);
    return location !== undefined && isFile(location) && toUri(wholeOf(location)).toString() === uri.toString();
  };
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputText && ofResource(tab.input.uri) && !tab.isDirty);
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
}

interface DeleteServices {
  files: ConvaiFileSystem;
  listings: ListingCache;
  changes: Changes;
}

/** The delete itself, as both shells run it: refused on a read-only connection, reported, its editors closed. */
async function deleteTarget(
  connections: Connections,
  services: DeleteServices,
  location: FileLocation,
  ask: (client: ServiceClient, connection: Connection) => Promise<boolean>,
): Promise<string | undefined> {
  const connection = connections.require(location.connection);
  if (connection.readOnly) {
    throw new Error(
      plain`Not deleted: the connection "${connection.name}" is read-only (readOnly in convai.connections).`,
    );
  }
  const client = connections.client(location.connection);
  if (!(await ask(client, connection))) return undefined;
  const { id, tenantId } = target(location);
  const status = await client.delete(kindOf(location), id, tenantId);
  await services.changes.report(deletion(location));
  await closeEditors(vscode.Uri.parse(toResourceUriString(location)));
  return status;
}

export function registerDeleteCommand(log: Log, connections: Connections, services: DeleteServices): vscode.Disposable {
  /** Asks the user, naming the resource as the tree shows it or as the service holds it. */
  const confirmFor =
    (arg: unknown, location: FileLocation) =>
    async (client: ServiceClient, connection: Connection): Promise<boolean> => {
      const { id, tenantId } = target(location);
      const summary =
        arg instanceof ResourceNode || arg instanceof TenantNode
          ? arg.summary
          : await client.get(kindOf(location), id, tenantId);
      return confirm(services, connection, location, String(summary.name ?? summary.display_name ?? `#${id}`));
    };
  return registerCommand(log, COMMANDS.deleteResource, {
    programmatic: async (args) => {
      const targeted = fileTarget(args.uri, false);
      if (!targeted) {
        throw new Error(
          `uri must name a ConvAI resource such as convai://<connection>/tenants/<tenantId>/<kind>/<id>.json (got ${JSON.stringify(args.uri)}).`,
        );
      }
      const ask = args.confirm === true ? confirmFor(args, targeted.location) : async (): Promise<boolean> => true;
      return deleteTarget(connections, services, targeted.location, ask);
    },
    interactive: async (arg) => {
      const targeted = fileTarget(arg, true);
      if (!targeted) throw new Error('Open a ConvAI resource or choose one in the ConvAI view to delete it.');
      const status = await deleteTarget(connections, services, targeted.location, confirmFor(arg, targeted.location));
      // The service's own words: shown as text, since a notification makes a Markdown link a command.
      if (status !== undefined) void vscode.window.showInformationMessage(plainText(status));
      return status;
    },
  });
}
