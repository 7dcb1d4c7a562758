/**
 * The service's rules per kind on top of the store: defaults and derived
 * fields on create, merging on update, and the full detail view of a record.
 */

import type { Kind } from './kinds';
import { isJsonObject, type Json, type JsonObject, own } from '../../src/core/json';
import { deepCopy } from './json';
import type { AgentPrompt, ResourceKindId, Row, Stamped, Store, Tenant } from './store';

/** Detail fields the service renders from other state instead of storing them. */
const RENDERED = new Set(['id', 'tenant_id', 'configuration', 'ai_actions']);

export function resourceKindId(kind: Kind): ResourceKindId {
  if (kind.id === 'tenant') {
    throw new Error('tenants are not tenant-scoped resources');
  }
  return kind.id;
}

/** `accepted` holds validated client fields only (see validate.ts). */
export function createRecord(store: Store, kind: Kind, tenantId: number, accepted: JsonObject): Row {
  const values: JsonObject = {};
  for (const field of kind.detailFields) {
    if (!RENDERED.has(field)) {
      values[field] = own(accepted, field) ?? null;
    }
  }
  const row = store.add(resourceKindId(kind), tenantId, values);
  switch (kind.id) {
    case 'prompt':
      values.prompt_type ??= 1;
      break;
    case 'datasource':
      values.status = 'active';
      break;
    case 'agent':
      values.number = agentNumber(row.id);
      applyConfiguration(store, row, own(accepted, 'configuration'));
      break;
    default:
      break;
  }
  return row;
}

/** Sent fields replace stored ones; unsent fields keep their values (for every kind). */
export function updateRecord(store: Store, kind: Kind, row: Row, accepted: JsonObject): void {
  for (const field of Object.keys(accepted)) {
    if (kind.detailFields.includes(field) && !RENDERED.has(field)) {
      row.values[field] = own(accepted, field) ?? null;
    }
  }
  if (kind.id === 'agent') {
    applyConfiguration(store, row, own(accepted, 'configuration'));
  }
  store.touch(row);
}

export function viewRecord(store: Store, kind: Kind, row: Row): JsonObject {
  const view: JsonObject = { ...deepCopy(row.values), id: row.id, tenant_id: row.tenantId };
  if (kind.id === 'agent') {
    view.configuration = {
      name: own(row.values, 'name') ?? null,
      description: own(row.values, 'description') ?? null,
      prompt: row.agentPrompts.map((element) => deepCopy({ ...element })),
    };
  }
  if (kind.id === 'intent') {
    view.ai_actions = linkedActions(store, row);
  }
  return view;
}

/** The named fields of a view in the given order; a field without value is null. */
export function pick(
  view: JsonObject,
  fields: readonly string[],
  extras: Readonly<Record<string, string>> = {},
): JsonObject {
  const picked: JsonObject = {};
  for (const field of fields) {
    picked[field] = own(view, field) ?? null;
  }
  return { ...picked, ...extras };
}

/** After the spec's fields, so a client reading those sees the same object as without them. */
export function withTimestamps(view: JsonObject, record: Stamped): JsonObject {
  return { ...view, created_at: record.createdAt, updated_at: record.updatedAt };
}

export function createTenant(store: Store, accepted: JsonObject): Tenant {
  const name = own(accepted, 'name');
  const email = own(accepted, 'email');
  return store.addTenant(
    typeof name === 'string' ? name : '',
    typeof email === 'string' ? email : null,
    bookedPackage(own(accepted, 'package')),
  );
}

export function updateTenant(store: Store, tenant: Tenant, accepted: JsonObject): void {
  const name = own(accepted, 'name');
  if (typeof name === 'string') {
    tenant.name = name;
  }
  const email = own(accepted, 'email');
  if (email !== undefined) {
    tenant.email = typeof email === 'string' ? email : null;
  }
  const packageName = own(accepted, 'package');
  if (packageName !== undefined) {
    tenant.bookedPackage = bookedPackage(packageName);
  }
  store.touch(tenant);
}

export function viewTenant(tenant: Tenant): JsonObject {
  return { id: tenant.id, name: tenant.name, auth_token: tenant.authToken, booked_package: tenant.bookedPackage };
}

/** A package naming `voice` books the voice package (2); anything else, or none, the standard one (1). */
function bookedPackage(packageName: Json | undefined): number {
  return typeof packageName === 'string' && packageName.toLowerCase().includes('voice') ? 2 : 1;
}

function agentNumber(id: number): string {
  return `+1555000${String(id).padStart(4, '0')}`;
}

/**
 * Sent elements replace the list; an element keeps the id and the
 * service-managed parts of an existing element of the same name.
 */
function applyConfiguration(store: Store, row: Row, configuration: Json | undefined): void {
  if (configuration === undefined) {
    return;
  }
  const sent = isJsonObject(configuration) ? own(configuration, 'prompt') : null;
  if (sent === undefined) {
    return;
  }
  const unused = [...row.agentPrompts];
  row.agentPrompts = (Array.isArray(sent) ? sent : []).filter(isJsonObject).map((element) => {
    const name = String(own(element, 'name'));
    const index = unused.findIndex((p) => p.name === name);
    const base = index >= 0 ? unused.splice(index, 1)[0] : undefined;
    const merged: AgentPrompt = base ?? newAgentPrompt(store, name);
    for (const field of ['prompt', 'initial_response', 'voice'] as const) {
      const value = own(element, field);
      if (value !== undefined) {
        merged[field] = value;
      }
    }
    return merged;
  });
}

export function newAgentPrompt(store: Store, name: string): AgentPrompt {
  return {
    id: store.nextId('agentPrompt'),
    name,
    prompt: null,
    initial_response: null,
    voice: null,
    function_ids: [],
    tools: [],
    actions: {},
    integration: null,
  };
}

function linkedActions(store: Store, intent: Row): Json[] {
  return intent.actionIds.flatMap((id) => {
    const action = store.find('action', intent.tenantId, id);
    return action
      ? [
          {
            id: action.id,
            name: own(action.values, 'name') ?? null,
            action_type: own(action.values, 'action_type') ?? null,
          },
        ]
      : [];
  });
}
