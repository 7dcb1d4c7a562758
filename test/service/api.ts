/** The `/api/v1` routes: authorisation, tenant selection and the operations of every kind. */

import type { Principal } from './auth';
import type { Json, JsonObject } from '../../src/core/json';
import { type Kind, kindBySegment } from './kinds';
import { executeAction, testPrompt } from './operations';
import {
  createRecord,
  createTenant,
  pick,
  resourceKindId,
  updateRecord,
  updateTenant,
  viewRecord,
  viewTenant,
  withTimestamps,
} from './records';
import {
  badRequest,
  forbidden,
  jsonReply,
  methodNotAllowed,
  noRoute,
  notFound,
  paramMissing,
  type Reply,
} from './replies';
import type { RuntimeOptions } from './runtime-options';
import type { Row, Stamped, Store, Tenant } from './store';
import { acceptFields, unwrap } from './validate';

export const API_PREFIX = '/api/v1';

export interface ApiRequest {
  method: string;
  /** The path without the query, trailing slash removed. */
  path: string;
  query: URLSearchParams;
  principal: Principal;
  readBody(): Promise<Json | undefined>;
}

/** `/<segment>[/<id>[/<operation>]]`, or undefined when the path is not an API path. */
function splitPath(path: string): string[] | undefined {
  if (!path.startsWith(`${API_PREFIX}/`)) {
    return undefined;
  }
  const parts = path.slice(API_PREFIX.length + 1).split('/');
  return parts.length <= 3 && parts.every((p) => p !== '') ? parts : undefined;
}

const OPERATIONS = new Map([
  ['ai_prompts', 'test_prompt'],
  ['integrations', 'execute_action'],
]);

export class Api {
  constructor(
    private readonly store: Store,
    private readonly options: RuntimeOptions,
    private readonly signal: AbortSignal,
  ) {}

  async handle(request: ApiRequest): Promise<Reply> {
    const [segment = '', id, operation] = splitPath(request.path) ?? [];
    const kind = kindBySegment(segment);
    if (!kind || (operation !== undefined && OPERATIONS.get(segment) !== operation)) {
      throw noRoute(request.method, request.path);
    }
    if (operation !== undefined) {
      allow(request.method, ['POST']);
      return this.operation(kind, request, id ?? '');
    }
    if (id === undefined) {
      allow(request.method, ['GET', 'POST']);
    } else {
      allow(request.method, ['GET', 'PUT', 'PATCH', 'DELETE']);
    }
    return kind.id === 'tenant' ? this.tenants(kind, request, id) : this.resources(kind, request, id);
  }

  private async tenants(kind: Kind, request: ApiRequest, rawId: string | undefined): Promise<Reply> {
    if (request.principal.kind !== 'admin') {
      throw forbidden('Forbidden: tenant tokens may not access tenants');
    }
    if (rawId === undefined) {
      if (request.method === 'GET') {
        return jsonReply(
          200,
          this.store.tenants().map((t) => this.stamped(pick(viewTenant(t), kind.summaryFields), t)),
        );
      }
      const accepted = acceptFields(kind, unwrap(kind, await request.readBody()), 'create');
      return jsonReply(201, pick(viewTenant(createTenant(this.store, accepted)), kind.createResponseFields));
    }
    const tenant = this.findTenant(kind, rawId);
    switch (request.method) {
      case 'GET':
        return jsonReply(200, this.stamped(pick(viewTenant(tenant), kind.detailFields), tenant));
      case 'DELETE':
        this.store.deleteTenant(tenant.id);
        return jsonReply(200, { status: kind.deleteStatus(tenant.id) });
      default:
        updateTenant(this.store, tenant, acceptFields(kind, unwrap(kind, await request.readBody()), 'update'));
        return jsonReply(200, pick(viewTenant(tenant), kind.updateResponseFields));
    }
  }

  private async resources(kind: Kind, request: ApiRequest, rawId: string | undefined): Promise<Reply> {
    const tenantId = this.tenantId(kind, request);
    const view = (row: Row, fields: readonly string[]): JsonObject => pick(viewRecord(this.store, kind, row), fields);
    if (rawId === undefined) {
      if (request.method === 'GET') {
        const rows = this.store.list(resourceKindId(kind), tenantId);
        return jsonReply(
          200,
          rows.map((row) => this.stamped(view(row, kind.summaryFields), row)),
        );
      }
      const accepted = acceptFields(kind, unwrap(kind, await request.readBody()), 'create');
      const row = createRecord(this.store, kind, tenantId, accepted);
      const created = pick(viewRecord(this.store, kind, row), kind.createResponseFields, kind.createResponseExtras);
      return jsonReply(201, created);
    }
    const row = this.findRow(kind, tenantId, rawId);
    switch (request.method) {
      case 'GET':
        return jsonReply(200, this.stamped(view(row, kind.detailFields), row));
      case 'DELETE':
        this.store.delete(resourceKindId(kind), row.id);
        return jsonReply(200, { status: kind.deleteStatus(row.id) });
      default:
        updateRecord(this.store, kind, row, acceptFields(kind, unwrap(kind, await request.readBody()), 'update'));
        return jsonReply(200, view(row, kind.updateResponseFields));
    }
  }

  /**
   * Detail and list answers only: an update answer lacking a field the detail
   * has is the real-service behaviour this option lets clients be tested with.
   */
  private stamped(view: JsonObject, record: Stamped): JsonObject {
    return this.options.timestamps ? withTimestamps(view, record) : view;
  }

  private async operation(kind: Kind, request: ApiRequest, rawId: string): Promise<Reply> {
    const row = this.findRow(kind, this.tenantId(kind, request), rawId);
    const view = viewRecord(this.store, kind, row);
    const body = await request.readBody();
    const result =
      kind.id === 'prompt'
        ? testPrompt(view, body, (rate) => this.options.answerVaries(rate))
        : await executeAction(view, body, this.signal);
    return jsonReply(200, result);
  }

  /**
   * The tenant named by `tenant_id`. A tenant token reaching for another
   * tenant gets the same 404 as for a missing one, so existence does not leak.
   */
  private tenantId(kind: Kind, request: ApiRequest): number {
    const raw = request.query.get('tenant_id');
    const { principal } = request;
    if (raw === null || raw === '') {
      if (kind.tenantQuery === 'optional' && principal.kind === 'tenant') {
        return principal.tenantId;
      }
      throw paramMissing('tenant_id');
    }
    const id = parseId(raw);
    if (id === undefined) {
      throw badRequest(`tenant_id must be an integer, got "${raw}"`);
    }
    const visible = principal.kind === 'admin' || principal.tenantId === id;
    if (!visible || !this.store.tenant(id)) {
      throw notFound('Tenant', raw);
    }
    return id;
  }

  private findTenant(kind: Kind, rawId: string): Tenant {
    const id = parseId(rawId);
    const tenant = id === undefined ? undefined : this.store.tenant(id);
    if (!tenant) {
      throw notFound(kind.label, rawId);
    }
    return tenant;
  }

  private findRow(kind: Kind, tenantId: number, rawId: string): Row {
    const id = parseId(rawId);
    const row = id === undefined ? undefined : this.store.find(resourceKindId(kind), tenantId, id);
    if (!row) {
      throw notFound(kind.label, rawId);
    }
    return row;
  }
}

function parseId(raw: string): number | undefined {
  const id = /^\d+$/.test(raw) ? Number(raw) : NaN;
  return Number.isSafeInteger(id) ? id : undefined;
}

function allow(method: string, allowed: readonly string[]): void {
  if (!allowed.includes(method)) {
    throw methodNotAllowed(method, allowed);
  }
}
