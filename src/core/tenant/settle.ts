/**
 * Exactly-once creates: a push records a create before sending it, so after
 * an answer that never came (a time-out, a dropped connection) the next pull,
 * plan or push looks on the service for the resource, by kind and name among
 * those the folder does not know, and adopts it instead of creating it again.
 * Only when the service certainly does not hold it is it created again.
 */
import type { ServiceClient } from '../client';
import { type FolderIO } from './folder-io';
import type { FolderProblem } from './folder-problems';
import { isSafeEntry, loadManifest, type LoadedManifest, type PendingCreate } from './manifest';
import { writeManifest } from './manifest-writer';
import { fieldsNotTaken, folderValues, shownAfterWrite } from './folder-values';
import { pulledState } from './pulled-state';
import { readResource, writeResource } from './representation';
import { ServiceNames } from './service-names';
import { kindOfSegment } from '../resources';

export interface Settled {
  /** Whether the manifest was rewritten, so one read before is stale. */
  changed: boolean;
  /** What was adopted, said to the user. */
  notes: string[];
  /** Creates that cannot be settled on their own: several candidates on the service. */
  problems: FolderProblem[];
}

/** `loaded`: the manifest as just read, when the caller has it. */
export async function settlePending(
  client: ServiceClient,
  io: FolderIO,
  options: { signal?: AbortSignal } = {},
  loaded?: LoadedManifest,
): Promise<Settled> {
  const current = loaded ?? (await loadManifest(io));
  const pending = current?.manifest.pending ?? [];
  if (!current || pending.length === 0) return { changed: false, notes: [], problems: [] };
  const { manifest } = current;
  const names = new ServiceNames(client, manifest, options.signal);
  const notes: string[] = [];
  const problems: FolderProblem[] = [];
  const still: PendingCreate[] = [];
  const resources = [...manifest.resources];
  for (const create of pending) {
    // An entry that names a file outside the folder is the manifest's problem, reported by the plan; never followed.
    if (!isSafeEntry(create)) {
      still.push(create);
      continue;
    }
    const kind = kindOfSegment(create.segment);
    const base = create.file.replace(/\.json$/, '');
    // No file: it was removed since, and an adopted resource then plans as a delete, which is what that asks for.
    const local = (await io.read(create.file)) === undefined ? undefined : await readResource(kind, io, base);
    const holders = await names.unknownHolders(create.segment, create.name);
    const [holder, ...others] = holders;
    if (!holder) {
      // Certainly absent: created by the push, if the file is still there to create it from.
      if (local?.ok && local.id === undefined) still.push(create);
      continue;
    }
    if (others.length > 0) {
      problems.push({
        file: create.file,
        message: `an earlier push sent this create and its answer was lost; the service now holds ${holders.length} ${kind.pluralLabel.toLowerCase()} named "${create.name}" that this folder does not know (ids ${holders.map((h) => h.id).join(', ')}), so it cannot tell which one is this file's: pull again, then remove the extra ones`,
      });
      still.push(create);
      continue;
    }
    if (local && !local.ok) {
      // The id cannot be written into a file that does not parse; adopted once it does.
      still.push(create);
      continue;
    }
    const detail = await client.get(kind, holder.id, create.segment === 'tenants' ? undefined : manifest.tenantId, {
      signal: options.signal,
    });
    const held = folderValues(kind, detail);
    if (local?.ok && local.id === undefined) {
      // As a create that got its answer leaves it: the service's values, the user's where the service holds another.
      const refused = fieldsNotTaken(folderValues(kind, local.values), Object.keys(local.values), held);
      await writeResource(io, kind, holder.id, shownAfterWrite(held, local.values, refused), base);
    }
    resources.push({
      segment: create.segment,
      id: holder.id,
      file: create.file,
      name: create.name,
      ...pulledState(kind, holder.id, held),
    });
    names.adopt(create.segment, holder.id);
    notes.push(
      `${create.file}: adopted ${kind.label} "${create.name}" (id ${holder.id}), which an earlier push created but whose answer was lost; it is not created again`,
    );
  }
  await writeManifest(io, { ...manifest, resources, pending: still });
  return { changed: true, notes, problems };
}
