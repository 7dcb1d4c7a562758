/** The service's in-memory state: tenants, their resources and the id counters. */

import { randomBytes } from 'node:crypto';
import type { Json, JsonObject } from '../../src/core/json';
import type { KindId } from './kinds';
import { type ExtraTenants, loadSampleData } from './sample-data';

export type ResourceKindId = Exclude<KindId, 'tenant'>;

/** One element of an agent's `configuration.prompt`, as the service keeps it. */
export interface AgentPrompt {
  id: number;
  name: string;
  prompt: Json;
  initial_response: Json;
  voice: Json;
  function_ids: Json[];
  tools: Json[];
  actions: JsonObject;
  integration: JsonObject | null;
}

/** When a record was created and last updated; rendered only with the `timestamps` option. */
export interface Stamped {
  readonly createdAt: string;
  updatedAt: string;
}

export interface Row extends Stamped {
  readonly id: number;
  readonly tenantId: number;
  /** Every stored field except id, tenant_id and the ones rendered from the lists below. */
  values: JsonObject;
  /** Intent only: the linked actions, rendered as `ai_actions`. */
  actionIds: number[];
  /** Agent only: rendered as `configuration.prompt`. */
  agentPrompts: AgentPrompt[];
}

export interface Tenant extends Stamped {
  readonly id: number;
  name: string;
  readonly authToken: string;
  bookedPackage: number;
  email: string | null;
}

/** Counters: one per kind, like a database's sequences, plus agent prompt elements. */
type Counter = KindId | 'agentPrompt';

export class Store {
  private tenantsById = new Map<number, Tenant>();
  private rows = new Map<ResourceKindId, Map<number, Row>>();
  private counters = new Map<Counter, number>();
  /** Kept across resets: a clock that went back would make an update look older than its record. */
  private lastStampMs = 0;

  constructor(private readonly extras: ExtraTenants = {}) {
    this.reset();
  }

  /** Back to the sample data, with every counter restarted so ids are the same each time. */
  reset(): void {
    this.tenantsById.clear();
    this.rows.clear();
    this.counters.clear();
    loadSampleData(this, this.extras);
  }

  nextId(counter: Counter): number {
    const id = (this.counters.get(counter) ?? 0) + 1;
    this.counters.set(counter, id);
    return id;
  }

  /**
   * An ISO 8601 time later than every one given before, even within one
   * millisecond, so a client can always tell an update happened.
   */
  private stamp(): string {
    this.lastStampMs = Math.max(Date.now(), this.lastStampMs + 1);
    return new Date(this.lastStampMs).toISOString();
  }

  touch(record: Stamped): void {
    record.updatedAt = this.stamp();
  }

  addTenant(name: string, email: string | null, bookedPackage: number, authToken?: string): Tenant {
    const now = this.stamp();
    const tenant: Tenant = {
      id: this.nextId('tenant'),
      name,
      authToken: authToken ?? randomBytes(24).toString('hex'),
      bookedPackage,
      email,
      createdAt: now,
      updatedAt: now,
    };
    this.tenantsById.set(tenant.id, tenant);
    return tenant;
  }

  tenant(id: number): Tenant | undefined {
    return this.tenantsById.get(id);
  }

  tenants(): Tenant[] {
    return [...this.tenantsById.values()].sort((a, b) => a.id - b.id);
  }

  tenantByToken(token: string): Tenant | undefined {
    return this.tenants().find((t) => t.authToken === token);
  }

  /** Removes the tenant, its token (with it) and every resource it owns. */
  deleteTenant(id: number): void {
    this.tenantsById.delete(id);
    for (const table of this.rows.values()) {
      for (const row of table.values()) {
        if (row.tenantId === id) {
          table.delete(row.id);
        }
      }
    }
  }

  add(kind: ResourceKindId, tenantId: number, values: JsonObject): Row {
    const now = this.stamp();
    const row: Row = {
      id: this.nextId(kind),
      tenantId,
      values,
      actionIds: [],
      agentPrompts: [],
      createdAt: now,
      updatedAt: now,
    };
    this.table(kind).set(row.id, row);
    return row;
  }

  find(kind: ResourceKindId, tenantId: number, id: number): Row | undefined {
    const row = this.table(kind).get(id);
    return row?.tenantId === tenantId ? row : undefined;
  }

  list(kind: ResourceKindId, tenantId: number): Row[] {
    return [...this.table(kind).values()].filter((r) => r.tenantId === tenantId).sort((a, b) => a.id - b.id);
  }

  delete(kind: ResourceKindId, id: number): void {
    this.table(kind).delete(id);
  }

  private table(kind: ResourceKindId): Map<number, Row> {
    let table = this.rows.get(kind);
    if (!table) {
      table = new Map();
      this.rows.set(kind, table);
    }
    return table;
  }
}
