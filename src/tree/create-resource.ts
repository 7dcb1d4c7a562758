import * as vscode from 'vscode';
import { openTitled } from '../documents/open-titled';
import { resourceTitle } from '../core/labels';
import { pickConnection, pickTenant } from '../connections/pickers';
import { COMMANDS, registerCommand } from '../commands';
import type { JsonObject } from '../core/json';
import { DATASOURCE_TYPES, ENUMS, kindOfSegment, requiredOnCreate, TENANT_SEGMENTS } from '../core/resources';
import type { ResourceKind, Segment, TenantSegment } from '../core/resource-kind';
import { toResourceUriString, type FileLocation } from '../core/uri';
import type { Connections } from '../connections/registry';
import type { ListingCache } from '../core/listing-cache';
import type { Changes } from '../documents/changes';
import { written } from '../core/changes';
import type { Log } from '../log';
import { ConnectionNode, GroupNode, KindNode, TenantNode } from './nodes';

interface CreateRequest {
  connection: string;
  segment: Segment;
  tenantId?: number;
  fields: JsonObject;
}

/** Pick lists for the fields whose values the spec enumerates. */
const CHOICES: Readonly<Record<string, ReadonlyArray<{ label: string; value: string | number }>>> = {
  action_type: Object.entries(ENUMS.actionType).map(([value, label]) => ({ label, value: Number(value) })),
  intent_type: Object.entries(ENUMS.intentType).map(([value, label]) => ({ label, value: Number(value) })),
  prompt_type: Object.entries(ENUMS.promptType).map(([value, label]) => ({ label, value: Number(value) })),
  type: DATASOURCE_TYPES.map((value) => ({ label: value, value })),
  package: [
    { label: 'standard', value: 'standard' },
    { label: 'voice', value: 'voice' },
  ],
};

/** What the guided input asks per kind: the required fields, plus the prompt type and the tenant package. */
function askedFields(kind: ResourceKind): string[] {
  const fields = requiredOnCreate(kind);
  if (kind.id === 'prompt') fields.push('prompt_type');
  if (kind.id === 'tenant') fields.push('package');
  return ['name', ...fields.filter((f) => f !== 'name')];
}

function isSegment(value: unknown): value is Segment {
  return value === 'tenants' || (TENANT_SEGMENTS as readonly unknown[]).includes(value);
}

function validateRequest(arg: Record<string, unknown>): CreateRequest {
  const { connection, tenantId, segment, fields } = arg;
  if (typeof connection !== 'string') throw new Error('connection must be the name of a connection.');
  if (!isSegment(segment))
    throw new Error(`segment must be one of tenants, ${TENANT_SEGMENTS.join(', ')} (got ${JSON.stringify(segment)}).`);
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields))
    throw new Error("fields must be an object of the new resource's fields.");
  if (segment !== 'tenants' && (typeof tenantId !== 'number' || !Number.isSafeInteger(tenantId))) {
    throw new Error(`tenantId must be the whole-number id of the tenant that will hold the new ${segment} resource.`);
  }
  return {
    connection,
    segment,
    tenantId: segment === 'tenants' ? undefined : (tenantId as number),
    fields: fields as JsonObject,
  };
}

async function askFields(kind: ResourceKind, where: string): Promise<JsonObject | undefined> {
  const fields: JsonObject = {};
  for (const field of askedFields(kind)) {
    const title = `New ${kind.label} in ${where}`;
    const choices = CHOICES[field];
    if (choices) {
      const choice = await vscode.window.showQuickPick(
        choices.map((c) => ({ ...c, description: String(c.value) })),
        { title, placeHolder: field },
      );
      if (!choice) return undefined;
      fields[field] = choice.value;
      continue;
    }
    const value = await vscode.window.showInputBox({
      title,
      prompt: field === 'email' ? 'E-mail of the tenant admin' : field,
      ignoreFocusOut: true,
      validateInput: (text) =>
        text.trim() === ''
          ? `${field} is required.`
          : field === 'email' && !/^[^@\s]+@[^@\s]+$/.test(text)
            ? 'Enter an e-mail address.'
            : undefined,
    });
    if (value === undefined) return undefined;
    fields[field] = value.trim();
  }
  return fields;
}

async function pick<T extends vscode.QuickPickItem>(items: T[], placeHolder: string): Promise<T | undefined> {
  // A step of a command of several: closed by a focus change, it would end the command unasked.
  return items.length === 1 ? items[0] : vscode.window.showQuickPick(items, { placeHolder, ignoreFocusOut: true });
}

/** Where a "New…" from a node or the palette creates: asks for what the node does not say. */
async function askTarget(
  arg: unknown,
  connections: Connections,
  listings: ListingCache,
): Promise<Omit<CreateRequest, 'fields'> | undefined> {
  if (arg instanceof KindNode || arg instanceof GroupNode)
    return { connection: arg.connectionName, tenantId: arg.tenantId, segment: arg.segment };
  if (arg instanceof ConnectionNode) return { connection: arg.connectionName, segment: 'tenants' };
  const connection =
    arg instanceof TenantNode
      ? arg.connectionName
      : await pickConnection(connections, { placeHolder: 'Connection', writable: true });
  if (!connection) return undefined;
  const kinds = [
    ...(arg instanceof TenantNode ? [] : [kindOfSegment('tenants')]),
    ...TENANT_SEGMENTS.map((s) => kindOfSegment(s)),
  ];
  const kind = await pick(
    kinds.map((k) => ({ label: k.label, segment: k.segment })),
    'Kind of resource',
  );
  if (!kind) return undefined;
  if (kind.segment === 'tenants') return { connection, segment: 'tenants' };
  if (arg instanceof TenantNode) return { connection, tenantId: arg.tenantId, segment: kind.segment };
  const tenant = await pickTenant(connections, listings, `New ${kind.label}`, { connection });
  return tenant && { connection, tenantId: tenant.tenantId, segment: kind.segment };
}

function locationOf(request: CreateRequest, id: number): FileLocation {
  return request.segment === 'tenants'
    ? { type: 'tenant', connection: request.connection, tenantId: id }
    : {
        type: 'resource',
        connection: request.connection,
        tenantId: request.tenantId as number,
        segment: request.segment as TenantSegment,
        id,
      };
}

async function create(connections: Connections, changes: Changes, request: CreateRequest): Promise<JsonObject> {
  const connection = connections.require(request.connection);
  if (connection.readOnly) {
    throw new Error(`Not created: the connection "${connection.name}" is read-only (readOnly in convai.connections).`);
  }
  const kind = kindOfSegment(request.segment);
  const created = await connections.client(request.connection).create(kind, request.fields, request.tenantId);
  if (typeof created.id === 'number') await changes.report(written(locationOf(request, created.id)));
  return created;
}

export function registerCreateCommand(
  log: Log,
  connections: Connections,
  changes: Changes,
  listings: ListingCache,
): vscode.Disposable {
  return registerCommand(log, COMMANDS.createResource, {
    programmatic: (args) => create(connections, changes, validateRequest(args)),
    interactive: async (arg) => {
      const target = await askTarget(arg, connections, listings);
      if (!target) return undefined;
      const kind = kindOfSegment(target.segment);
      const where =
        target.tenantId === undefined ? target.connection : `tenant ${target.tenantId} on ${target.connection}`;
      const fields = await askFields(kind, where);
      if (!fields) return undefined;
      const request = { ...target, fields };
      const created = await create(connections, changes, request);
      if (typeof created.id === 'number') {
        const uri = vscode.Uri.parse(toResourceUriString(locationOf(request, created.id)));
        await openTitled(uri, kind.label, resourceTitle(kind.id, created));
      }
      return created;
    },
  });
}
