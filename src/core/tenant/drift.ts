/**
 * Drift: what changed on the service since a folder was pulled, whatever the
 * folder did. A resource is changed when a field the service holds differs
 * from the manifest's fingerprint of the pulled state, created when the
 * service holds it and the folder never pulled it (nor has a create of it
 * under way), deleted when the service no longer holds it. Only the service
 * and the manifest are read, never the folder's resource files.
 */
import type { ServiceClient } from '../client';
import { handledInTurn } from '../concurrency';
import { LIMITS } from '../limits';
import type { JsonObject } from '../json';
import { TENANT_SEGMENTS } from '../resources';
import type { Segment } from '../resource-kind';
import type { FolderIO } from './folder-io';
import { loadManifest, type LoadedManifest, type PulledResource, noManifest } from './manifest';
import { resourceBase } from './resource-paths';
import { currentDetail, driftedFields } from './service-detail';
import { listTenant, nameOf, tenantRecord } from './tenant-listing';

export type DriftChange = 'changed' | 'created' | 'deleted';

export interface Drifted {
  segment: Segment;
  id: number;
  name: string;
  /** The folder's file of the resource; absent for a created one, which the folder has none of. */
  file?: string;
  change: DriftChange;
  /** A changed resource's fields that differ from the pulled state; none for a created or deleted one. */
  fields: string[];
  /** The service's detail; absent for a deleted resource. */
  detail?: JsonObject;
}

export interface DriftOptions {
  signal?: AbortSignal;
  /** Requests at once. */
  concurrency?: number;
  /** Called after each detail read. */
  onProgress?: (done: number, total: number) => void;
  /** The folder's manifest as the caller just read it, so it is not read again. */
  loaded?: LoadedManifest;
}

const SEGMENT_ORDER: readonly Segment[] = ['tenants', ...TENANT_SEGMENTS];

/** By kind, then by file (a created resource's being the one a pull would give it), then by id: the same list every time. */
function byPlace(a: Drifted, b: Drifted): number {
  const at = (d: Drifted): string => d.file ?? `${resourceBase(d.segment, d.id, d.name, undefined, new Set())}.json`;
  const [x, y] = [at(a), at(b)];
  return (
    SEGMENT_ORDER.indexOf(a.segment) - SEGMENT_ORDER.indexOf(b.segment) || (x < y ? -1 : x > y ? 1 : 0) || a.id - b.id
  );
}

/** What to read the detail of: a pulled resource (its entry) or one the service holds that was never pulled. */
type Looked = { entry: PulledResource } | { segment: Segment; id: number };

export async function findDrift(client: ServiceClient, io: FolderIO, options: DriftOptions = {}): Promise<Drifted[]> {
  const loaded = options.loaded ?? (await loadManifest(io));
  if (!loaded) throw noManifest();
  const { manifest } = loaded;
  const call = { signal: options.signal };
  // As a pull: a token that may not read the tenant's own record still tells everything else.
  const tenant = await tenantRecord(client, manifest.tenantId, call);
  const listed = await listTenant(client, manifest.tenantId, tenant, options);

  const pulled = new Set(manifest.resources.map((entry) => `${entry.segment}/${entry.id}`));
  // A create under way (its answer lost) is the folder's own, not someone else's: the next plan or push adopts it.
  const pending = new Set((manifest.pending ?? []).map((create) => `${create.segment}\n${create.name}`));
  const created = listed.filter(
    (item) => !pulled.has(`${item.segment}/${item.id}`) && !pending.has(`${item.segment}\n${item.name}`),
  );
  // Unreadable is not gone: without the tenant's record nothing is known of its drift.
  const entries = manifest.resources.filter((entry) => entry.segment !== 'tenants' || tenant !== undefined);
  const looked: Looked[] = [
    ...entries.map((entry) => ({ entry })),
    ...created.map(({ segment, id }) => ({ segment, id })),
  ];

  let done = 0;
  const found = await handledInTurn(
    looked,
    options.concurrency ?? LIMITS.tenantConcurrency.value,
    async (item) => {
      const entry = 'entry' in item ? item.entry : { segment: item.segment, id: item.id };
      const detail =
        entry.segment === 'tenants' && tenant
          ? tenant
          : await currentDetail(client, entry, manifest.tenantId, options.signal);
      options.onProgress?.(++done, looked.length);
      return detail;
    },
    (item, detail): Drifted | undefined => {
      if (!('entry' in item))
        return (
          detail && {
            segment: item.segment,
            id: item.id,
            name: nameOf(detail, item.id),
            change: 'created',
            fields: [],
            detail,
          }
        );
      const { segment, id, file, name } = item.entry;
      if (!detail) return { segment, id, name, file, change: 'deleted', fields: [] };
      const fields = driftedFields(item.entry, detail);
      return fields.length === 0
        ? undefined
        : { segment, id, name: nameOf(detail, id), file, change: 'changed', fields, detail };
    },
  );
  return found.filter((d): d is Drifted => d !== undefined).sort(byPlace);
}

/** The contract's view of a drifted resource, what `drift --json` prints and convai.drift answers with. */
export interface PublicDrifted {
  segment: Segment;
  id: number;
  name: string;
  change: DriftChange;
  fields: string[];
}

export function publicDrifted({ segment, id, name, change, fields }: Drifted): PublicDrifted {
  return { segment, id, name, change, fields };
}
