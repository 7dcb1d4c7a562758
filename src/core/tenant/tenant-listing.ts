/**
 * What the service holds of a tenant, listed: each resource once with its
 * kind, id and name, as pull, drift and the flow map read it.
 */
import type { ServiceClient } from '../client';
import { mapWithLimit } from '../concurrency';
import { ServiceError } from '../errors';
import type { JsonObject } from '../json';
import { LIMITS } from '../limits';
import { repeatedBy } from '../repeated';
import { kindById, kindOfSegment, TENANT_SEGMENTS } from '../resources';
import type { ResourceKind, Segment } from '../resource-kind';
import type { PulledResource } from './manifest';

export interface Listed {
  segment: Segment;
  kind: ResourceKind;
  id: number;
  name: string;
}

/** A resource's name as the folder's manifest and messages give it: `#<id>` when it has none. */
export function nameOf(value: JsonObject, id: number): string {
  return typeof value.name === 'string' && value.name !== '' ? value.name : `#${id}`;
}

/** What the service holds, listed: each resource once, in the service's order, the tenant first. */
export async function listTenant(
  client: ServiceClient,
  tenantId: number,
  tenant: JsonObject | undefined,
  options: { signal?: AbortSignal; concurrency?: number },
): Promise<Listed[]> {
  const call = { signal: options.signal };
  const concurrency = options.concurrency ?? LIMITS.tenantConcurrency.value;
  const lists = await mapWithLimit(TENANT_SEGMENTS, concurrency, async (segment) => {
    const kind = kindOfSegment(segment);
    return (await client.list(kind, tenantId, call)).flatMap((summary) =>
      typeof summary.id === 'number' ? [{ segment, kind, id: summary.id, name: nameOf(summary, summary.id) }] : [],
    );
  });
  const own: Listed[] = tenant
    ? [{ segment: 'tenants', kind: kindById('tenant'), id: tenantId, name: nameOf(tenant, tenantId) }]
    : [];
  return [...own, ...lists.flat()];
}

/**
 * The tenant's own record, or undefined when the token may not read it (403: a tenant's own token, which the tenant
 * endpoints alone refuse), so that a least-privilege token still pulls everything else.
 */
export async function tenantRecord(
  client: ServiceClient,
  tenantId: number,
  call: { signal?: AbortSignal },
): Promise<JsonObject | undefined> {
  try {
    return await client.get(kindById('tenant'), tenantId, undefined, call);
  } catch (error) {
    if (error instanceof ServiceError && error.status === 403) return undefined;
    throw error;
  }
}

/** Resources of one kind sharing a name: a folder's names are identities, so the user must hear of it. */
export function duplicateNames(listed: readonly Listed[], pulled: readonly PulledResource[]): string[] {
  const repeated = repeatedBy(listed, (item) => `${item.segment}\n${item.name}`);
  // Nearly always none: the files of a large tenant's resources are looked up only for those that share a name.
  if (repeated.length === 0) return [];
  const files = new Map(pulled.map((entry) => [`${entry.segment}/${entry.id}`, entry.file]));
  return repeated.map((same) => {
    const [first] = same as [Listed];
    const where = same.map((i) => `id ${i.id} in ${files.get(`${i.segment}/${i.id}`) ?? '?'}`).join(', ');
    return `${same.length} ${first.kind.pluralLabel} are named "${first.name}" on the service (${where}); names are unique per kind in a folder, so a plan refuses them until all but one are renamed`;
  });
}
