/**
 * What a folder changed since its pull, from its files and its manifest alone: no request. The plan checks these
 * against the service; Source Control, the flow map and promotions read them as they are.
 */
import { isPromptTextField } from '../prompt-text';
import { kindOfSegment } from '../resources';
import type { Segment } from '../resource-kind';
import type { FolderIO } from './folder-io';
import type { FolderProblem } from './folder-problems';
import { scanFolder, type FolderScan, type LocalResource } from './folder-scan';
import {
  isSafeEntry,
  loadManifest,
  noManifest,
  type LoadedManifest,
  type Manifest,
  type PulledResource,
} from './manifest';
import { ByResource } from './by-resource';
import {
  duplicateNames,
  fieldProblem,
  missingParts,
  readOnlyProblem,
  sendProblems,
  valueProblems,
} from './plan-problems';
import { READ_ONLY } from './read-only';
import { changedFields, keepPulledNewlines } from './pulled-state';
import { filesHash } from './resource-files';
import { sendable } from './service-detail';

/** A change the folder makes, before the service is asked: no conflicts known yet, no old values. */
export interface LocalChange {
  action: 'create' | 'update' | 'delete';
  segment: Segment;
  file: string;
  fields: string[];
  entry?: PulledResource;
  resource?: LocalResource;
}

/** The local changes and their problems, not yet sorted: the plan adds the service's. */
export interface FoundChanges {
  manifest: Manifest;
  changes: LocalChange[];
  problems: FolderProblem[];
  local: Map<string, LocalResource>;
}

/** Whether a resource's files are byte for byte those its pull wrote: then its values are the pulled ones. */
function filesAsPulled(resource: LocalResource, entry: PulledResource): boolean {
  if (entry.files === undefined || resource.text === undefined) return false;
  const parts = resource.parts
    .filter(isPromptTextField)
    .map((field) => [field, resource.values[field] as string] as const);
  return filesHash({ json: resource.text, parts }) === entry.files;
}

export async function localChanges(io: FolderIO, read?: LoadedManifest, scanned?: FolderScan): Promise<FoundChanges> {
  const loaded = read ?? (await loadManifest(io));
  if (!loaded) throw noManifest();
  const { manifest } = loaded;
  const scan =
    scanned ?? (await scanFolder(io, { pulled: new Map(manifest.resources.map((entry) => [entry.file, entry])) }));
  const problems: FolderProblem[] = [...loaded.problems, ...scan.problems];
  const local = new Map(scan.local.map((r) => [r.file, r]));
  const pulled = new ByResource(manifest.resources.map((entry) => [entry, entry]));
  const entryOf = (resource: LocalResource): PulledResource | undefined =>
    resource.id === undefined ? undefined : pulled.get({ segment: resource.segment, id: resource.id });
  const seen = new ByResource<true>();
  const changes: LocalChange[] = [];
  for (const resource of scan.local) {
    // Files as pulled name no file (a pull writes ids) and hold no kept credential of a new resource.
    if (!resource.asPulled) problems.push(...sendProblems(resource, local));
    if (resource.id === undefined) {
      if (resource.segment === 'tenants')
        problems.push(fieldProblem(resource, ['id'], 'id: give the tenant\'s "id"; a push does not create tenants'));
      else {
        problems.push(...valueProblems(resource, 'all'));
        if (READ_ONLY in resource.values) problems.push(readOnlyProblem(resource));
        changes.push({
          action: 'create',
          segment: resource.segment,
          file: resource.file,
          fields: sendable(Object.keys(resource.values)),
          resource,
        });
      }
      continue;
    }
    const entry = entryOf(resource);
    const id = { segment: resource.segment, id: resource.id };
    if (!entry || seen.has(id)) {
      problems.push(
        fieldProblem(
          resource,
          ['id'],
          `id: ${resource.id} is ${entry ? 'in another file too' : `no ${kindOfSegment(resource.segment).label} pulled into this folder`}; remove "id" to create a new resource`,
        ),
      );
      continue;
    }
    seen.set(id, true);
    if (resource.asPulled === entry || filesAsPulled(resource, entry)) continue;
    keepPulledNewlines(resource.values, resource.parts, entry);
    problems.push(...missingParts(resource, entry));
    const changed = changedFields(kindOfSegment(resource.segment), resource.id, resource.values, entry);
    if (changed.includes(READ_ONLY)) problems.push(readOnlyProblem(resource));
    const fields = sendable(changed);
    if (fields.length > 0) {
      problems.push(...valueProblems(resource, fields));
      changes.push({ action: 'update', segment: resource.segment, file: resource.file, fields, entry, resource });
    }
  }
  problems.push(...duplicateNames(scan.local, entryOf));
  for (const entry of manifest.resources) {
    // A file that is there but cannot be read, or that the manifest may not name, is a problem already: never a delete.
    if (seen.has(entry) || scan.unreadable.has(entry.file) || !isSafeEntry(entry)) continue;
    if (entry.segment === 'tenants')
      problems.push({
        file: entry.file,
        message: "the tenant's file is missing: a push does not delete the tenant; pull again to get it back",
      });
    else changes.push({ action: 'delete', segment: entry.segment, file: entry.file, fields: [], entry });
  }
  return { manifest, changes, problems, local };
}
