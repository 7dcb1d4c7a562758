/**
 * The service's side of a pulled folder's diffs: what a pull would write
 * for a file's resource in its current state on the service.
 */
import type { ServiceClient } from '../../core/client';
import { ServiceError } from '../../core/errors';
import { kindOfSegment } from '../../core/resources';
import type { Manifest } from '../../core/tenant/manifest';
import { folderValues } from '../../core/tenant/folder-values';
import { resourceFiles } from '../../core/tenant/resource-files';
import { pulledResourceOf } from './changed-files';

/** The service's version of a file; undefined for a file of no pulled resource, or of one deleted on the service. */
export async function serviceText(
  client: ServiceClient,
  manifest: Manifest,
  file: string,
): Promise<string | undefined> {
  const entry = pulledResourceOf(manifest, file);
  if (!entry) return undefined;
  const kind = kindOfSegment(entry.segment);
  try {
    const detail = await client.get(kind, entry.id, entry.segment === 'tenants' ? undefined : manifest.tenantId);
    return resourceFiles(kind, entry.id, folderValues(kind, detail), entry.file.replace(/\.json$/, '')).get(file);
  } catch (error) {
    // Deleted on the service: its side of the diff is empty.
    if (error instanceof ServiceError && error.status === 404) return undefined;
    throw error;
  }
}
