/**
 * Take Service Version: one resource's files made what the service holds now,
 * and its manifest entry the state they were taken from, as a pull of that
 * resource alone would leave them. Every other file, entry and edit of the
 * folder stays as it is: drift is taken one resource at a time, by choice.
 */
import type { ServiceClient } from '../client';
import { kindOfSegment } from '../resources';
import type { Segment } from '../resource-kind';
import type { FolderIO } from './folder-io';
import { isSafeEntry, loadManifest, MANIFEST_FILE, ManifestError, noManifest } from './manifest';
import { writeManifest } from './manifest-writer';
import { resourceBase, takenBases } from './resource-paths';
import { currentDetail } from './service-detail';
import { nameOf } from './tenant-listing';
import { folderValues } from './folder-values';
import { pulledState } from './pulled-state';
import { removeResource, writeResource } from './representation';

export async function takeServiceVersion(
  client: ServiceClient,
  io: FolderIO,
  target: { segment: Segment; id: number },
  options: { signal?: AbortSignal } = {},
): Promise<void> {
  const loaded = await loadManifest(io);
  if (!loaded) throw noManifest();
  const { manifest } = loaded;
  const { segment, id } = target;
  const kind = kindOfSegment(segment);
  const entry = manifest.resources.find((e) => e.segment === segment && e.id === id);
  if (entry && !isSafeEntry(entry)) {
    throw new ManifestError(
      `${MANIFEST_FILE}: the entry of ${kind.label} ${id} names "${entry.file}", which is not its place in this folder, so nothing was written; correct the entry, or pull the tenant into a new folder.`,
    );
  }
  const others = manifest.resources.filter((e) => e !== entry);
  const detail = await currentDetail(client, target, manifest.tenantId, options.signal);
  if (!detail) {
    if (!entry)
      throw new Error(
        `${kind.label} ${id} is neither on the service nor in this folder: there is no service version to take.`,
      );
    await removeResource(io, kind, entry.file.replace(/\.json$/, ''));
    await writeManifest(io, { ...manifest, resources: others });
    return;
  }
  const name = nameOf(detail, id);
  const files = entry ? [] : (await io.walk()).filter((e) => e.type === 'file').map((e) => e.path);
  // A resource new to the folder gets the file a pull would give it, beside every file already there.
  const base = entry
    ? entry.file.replace(/\.json$/, '')
    : resourceBase(segment, id, name, undefined, takenBases(manifest.resources, files));
  const values = folderValues(kind, detail);
  await writeResource(io, kind, id, values, base);
  await writeManifest(io, {
    ...manifest,
    resources: [...others, { segment, id, file: `${base}.json`, name, ...pulledState(kind, id, values) }],
  });
}
