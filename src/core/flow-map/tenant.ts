/**
 * The flow map of a live tenant. A list answers without the references, so
 * every resource's detail is read, at the connection's concurrency, with
 * progress and Cancel; a detail the caller already holds (an open
 * document's) is taken as it is instead of being read again.
 */
import type { ServiceClient } from '../client';
import { mapWithLimit } from '../concurrency';
import { LIMITS } from '../limits';
import type { JsonObject } from '../json';
import type { Segment } from '../resource-kind';
import { currentDetail } from '../tenant/service-detail';
import { listTenant, nameOf } from '../tenant/tenant-listing';
import { buildFlowMap } from './build';
import type { FlowMap, MapResource } from './model';
import type { PromptUses } from './prompt-roles';

export interface TenantMapOptions {
  signal?: AbortSignal;
  /** Requests at once: the connection's concurrency. */
  concurrency?: number;
  /** Called after each resource's detail, read or known. */
  onProgress?: (done: number, total: number) => void;
  /** The detail the caller holds of a resource, as the service answered it; undefined to read it. */
  known?: (segment: Segment, id: number) => JsonObject | undefined;
  /** Called with each detail read from the service, so a caller can keep it as known for the next map. */
  onDetail?: (segment: Segment, id: number, detail: JsonObject) => void;
  /** What the tenant's test files make of its prompts. */
  uses?: PromptUses;
}

export async function tenantFlowMap(
  client: ServiceClient,
  tenantId: number,
  options: TenantMapOptions = {},
): Promise<FlowMap> {
  const listed = await listTenant(client, tenantId, undefined, options);
  let done = 0;
  const read = await mapWithLimit(
    listed,
    options.concurrency ?? LIMITS.tenantConcurrency.value,
    async ({ segment, id }): Promise<MapResource | undefined> => {
      // A known detail needs no request, so Cancel is checked here too, not only by the requests.
      options.signal?.throwIfAborted();
      const known = options.known?.(segment, id);
      const detail = known ?? (await currentDetail(client, { segment, id }, tenantId, options.signal));
      if (detail && !known) options.onDetail?.(segment, id, detail);
      options.onProgress?.(++done, listed.length);
      // Deleted between the list and its detail: it is no longer the tenant's.
      return detail && { segment, id, name: nameOf(detail, id), values: detail };
    },
  );
  return buildFlowMap(
    read.filter((r): r is MapResource => r !== undefined),
    undefined,
    options.uses,
  );
}
