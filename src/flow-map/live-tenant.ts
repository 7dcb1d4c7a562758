/**
 * A live tenant's flow map, read the least way that works: the list of each
 * kind, then every resource's detail (list answers lack the references).
 * Stands in for the core's reader of a live tenant, which will reuse what the
 * open documents hold; this file is what to replace with it.
 */
import { mapWithLimit } from '../core/concurrency';
import type { ServiceClient } from '../core/client';
import type { FlowMap } from '../core/flow-map/model';
import { listTenant, nameOf, tenantRecord } from '../core/tenant/pull';
import { flowMapCode } from './map-code';

/** Requests at once, as a pull sends them. */
const CONCURRENCY = 4;

export interface LiveMap {
  map: FlowMap;
  /** The tenant's name, when the token may read the tenant's own record. */
  name?: string;
}

export async function liveTenantMap(client: ServiceClient, tenantId: number, options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void }): Promise<LiveMap> {
  const call = { signal: options.signal };
  const tenant = await tenantRecord(client, tenantId, call);
  const listed = await listTenant(client, tenantId, undefined, { signal: options.signal, concurrency: CONCURRENCY });
  let done = 0;
  const resources = await mapWithLimit(listed, CONCURRENCY, async (item) => {
    const values = await client.get(item.kind, item.id, tenantId, call);
    options.onProgress?.((done += 1), listed.length);
    return { segment: item.segment, id: item.id, name: item.name, values };
  });
  return { map: flowMapCode().buildFlowMap(resources), ...(tenant ? { name: nameOf(tenant, tenantId) } : {}) };
}
