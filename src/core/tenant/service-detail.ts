/**
 * What the service holds now of a pulled resource, and what of it changed since the pull: asked by the plan, right
 * before each write of a push, by drift, by taking the service's version, and by a live tenant's flow map.
 */
import type { ServiceClient } from '../client';
import { ServiceError } from '../errors';
import type { JsonObject } from '../json';
import { kindOfSegment } from '../resources';
import type { PulledResource } from './manifest';
import { READ_ONLY } from './read-only';
import { folderValues } from './folder-values';
import { changedFields } from './pulled-state';
import { fingerprintsOf } from './field-fingerprints';

/** The service's current detail of a pulled resource; undefined when it is gone. */
export async function currentDetail(
  client: ServiceClient,
  entry: Pick<PulledResource, 'segment' | 'id'>,
  tenantId: number,
  signal?: AbortSignal,
): Promise<JsonObject | undefined> {
  try {
    return await client.get(
      kindOfSegment(entry.segment),
      entry.id,
      entry.segment === 'tenants' ? undefined : tenantId,
      { signal },
    );
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return undefined;
    throw error;
  }
}

/**
 * What the service changed since the pull, its read-only references included where the folder was pulled with them
 * (one pulled before a folder kept them has no fingerprint of them: that is no change).
 */
export function driftedFields(entry: PulledResource, detail: JsonObject): string[] {
  const kind = kindOfSegment(entry.segment);
  return changedFields(kind, entry.id, folderValues(kind, detail), entry).filter(
    (field) => field !== READ_ONLY || fingerprintsOf(entry.fields).has(READ_ONLY),
  );
}

/** The fields the service changed since the pull that a write would overwrite: never the read-only references. */
export function changedOnService(entry: PulledResource, detail: JsonObject): string[] {
  return sendable(driftedFields(entry, detail));
}

/** The fields a push may send: the read-only block is the service's, whatever the folder or the service did to it. */
export function sendable(fields: readonly string[]): string[] {
  return fields.filter((field) => field !== READ_ONLY);
}
