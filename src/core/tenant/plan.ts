/**
 * The plan of a push: what differs between a pulled folder and what was
 * pulled, what changed on the service since (a conflict), and in which order
 * the changes must be sent so that a resource exists before what names it.
 */
import type { ServiceClient } from '../client';
import { mapWithLimit } from '../concurrency';
import { LIMITS } from '../limits';
import { kindOfSegment } from '../resources';
import type { Segment } from '../resource-kind';
import type { FolderIO } from './folder-io';
import { problemText, type FolderProblem } from './folder-problems';
import type { FolderScan, LocalResource } from './folder-scan';
import { loadManifest, MANIFEST_FILE, type LoadedManifest, type Manifest, type PulledResource } from './manifest';
import { writeManifest } from './manifest-writer';
import { fingerprintsOf, fingerprintText, sameValue } from './field-fingerprints';
import { folderValues } from './folder-values';
import { changedFields, pulledState } from './pulled-state';
import { ServiceNames } from './service-names';
import { settlePending } from './settle';
import { keptProblems, nameTaken } from './plan-problems';
import { READ_ONLY } from './read-only';
import { localChanges, type LocalChange } from './local-changes';
import { ordered } from './plan-order';
import { valuesOf, type FieldChange } from './plan-values';
import { currentDetail, sendable } from './service-detail';
import type { JsonObject } from '../json';

export type { LocalResource } from './folder-scan';

export type ChangeAction = 'create' | 'update' | 'delete' | 'conflict';

export interface PlannedChange {
  action: ChangeAction;
  segment: Segment;
  id?: number;
  name: string;
  /** The fields the change sends (an update's changed fields, a create's fields); none for a delete. */
  fields: string[];
  /** The resource's JSON file in the folder. */
  file: string;
  values: FieldChange[];
  /** Why a conflict is one. */
  reason?: string;
  /** The service's state the change was planned against (folder values, no credential); none for a create. */
  service?: JsonObject;
}

export interface Plan {
  manifest: Manifest;
  changes: PlannedChange[];
  /** What a push cannot send, each `file:line:column: field: message`; a push refuses while there are any. */
  problems: string[];
  /** What the plan settled on its own by looking at the service (a lost answer of an earlier push). */
  notes: string[];
  /** The folder's resources; a push reads each one's current detail right before its own write. */
  local: Map<string, LocalResource>;
  /** The service's detail of each updated or deleted resource as the plan read it, by file: a push made right after needs no other read. */
  fetched?: ReadonlyMap<string, JsonObject>;
}

export interface LocalPlan {
  manifest: Manifest;
  changes: LocalChange[];
  /** As a plan's: `file:line:column: field: message`. */
  problems: string[];
  local: Map<string, LocalResource>;
}

/** Problems in the order of the files, then of their places, whatever order the reads and requests finished in. */
function sortedTexts(problems: readonly FolderProblem[]): string[] {
  return [...problems]
    .sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0))
    .map(problemText);
}

/** What the folder changed since the pull, from the files and the manifest alone (no request); `scanned`: the folder as just read. */
export async function localPlan(io: FolderIO, scanned?: FolderScan): Promise<LocalPlan> {
  const found = await localChanges(io, undefined, scanned);
  return { ...found, problems: sortedTexts(found.problems) };
}

/** The local changes checked against the service's current state: lost answers settled, conflicts found, old values filled in, ordered. */
export async function planPush(
  client: ServiceClient,
  io: FolderIO,
  options: { signal?: AbortSignal; concurrency?: number; loaded?: LoadedManifest } = {},
): Promise<Plan> {
  // The manifest as the caller just read it, when it has (the command line reads it for the base URL).
  const loaded = options.loaded ?? (await loadManifest(io));
  const settled = await settlePending(client, io, options, loaded);
  const {
    manifest,
    changes: candidates,
    problems,
    local,
  } = await localChanges(io, settled.changed ? undefined : loaded);
  problems.push(...settled.problems);
  const names = new ServiceNames(client, manifest, options.signal);
  const gone: PulledResource[] = [];
  const fetched = new Map<string, JsonObject>();
  const applied = new Map<PulledResource, { entry: PulledResource; fields: string[] }>();
  const changes = (
    await mapWithLimit(
      candidates,
      options.concurrency ?? LIMITS.tenantConcurrency.value,
      async ({ entry, resource, fields, segment, file }): Promise<PlannedChange | undefined> => {
        const kind = kindOfSegment(segment).id;
        const name = typeof resource?.values.name === 'string' ? resource.values.name : (entry?.name ?? file);
        if (!entry) {
          if (resource) problems.push(...(await nameTaken(names, resource)));
          return {
            action: 'create',
            segment,
            name,
            fields,
            file,
            values: valuesOf(kind, fields, undefined, resource?.values),
          };
        }
        const detail = await currentDetail(client, entry, manifest.tenantId, options.signal);
        const base = { segment, id: entry.id, name, file };
        if (!detail) {
          if (resource)
            return {
              ...base,
              action: 'conflict',
              fields,
              values: valuesOf(kind, fields, undefined, resource.values),
              reason: 'deleted on the service since the pull',
            };
          // Deleting what is already gone sends nothing: an earlier push's delete whose answer was lost, or someone else's.
          gone.push(entry);
          return undefined;
        }
        const serviceValues = folderValues(kindOfSegment(segment), detail);
        const serviceChanged = sendable(changedFields(kindOfSegment(segment), entry.id, serviceValues, entry));
        let sent = fields;
        if (serviceChanged.length > 0) {
          // A field that holds the same value on both sides is no conflict: nothing would be overwritten there.
          const differs = (field: string): boolean => !sameValue(serviceValues[field], resource?.values[field]);
          if (!resource || serviceChanged.some(differs)) {
            const reason = `changed on the service since the pull (${serviceChanged.filter(differs).join(', ')})${resource ? '' : ' and deleted in the folder'}`;
            const conflicting = fields.filter(differs);
            return {
              ...base,
              action: 'conflict',
              fields: conflicting,
              values: valuesOf(kind, conflicting, serviceValues, resource?.values),
              reason,
              service: serviceValues,
            };
          }
          // The service holds what the folder sends: an earlier push's update whose answer was lost (or the same edit made
          // there too). Recorded as applied, so what is left to send is what still differs from the service.
          const state = pulledState(kindOfSegment(segment), entry.id, serviceValues);
          // The file still holds the references it was pulled with: taking the service's as pulled would make them an edit.
          const fingerprints = fingerprintsOf(state.fields);
          fingerprints.delete(READ_ONLY);
          const pulledBlock = fingerprintsOf(entry.fields).get(READ_ONLY);
          if (pulledBlock !== undefined) fingerprints.set(READ_ONLY, pulledBlock);
          const caughtUp = {
            ...entry,
            name: typeof detail.name === 'string' ? detail.name : entry.name,
            files: state.files,
            fields: fingerprintText(fingerprints),
          };
          applied.set(entry, { entry: caughtUp, fields: serviceChanged });
          sent = sendable(changedFields(kindOfSegment(segment), entry.id, resource.values, caughtUp));
          if (sent.length === 0) return undefined;
        }
        fetched.set(file, detail);
        if (!resource) return { ...base, action: 'delete', fields: [], values: [], service: serviceValues };
        problems.push(...keptProblems(resource, sent, detail));
        if (sent.includes('name')) problems.push(...(await nameTaken(names, resource)));
        return {
          ...base,
          action: 'update',
          fields: sent,
          values: valuesOf(kind, sent, serviceValues, resource.values),
          service: serviceValues,
        };
      },
    )
  ).filter((c): c is PlannedChange => c !== undefined);
  const notes = [...settled.notes];
  let settledManifest = manifest;
  if (gone.length > 0 || applied.size > 0) {
    settledManifest = {
      ...manifest,
      resources: manifest.resources
        .filter((entry) => !gone.includes(entry))
        .map((entry) => applied.get(entry)?.entry ?? entry),
    };
    await writeManifest(io, settledManifest);
    for (const entry of manifest.resources) {
      const caught = applied.get(entry)?.fields;
      if (caught)
        notes.push(
          `${entry.file}: the service already holds this file's ${caught.join(', ')} (an earlier push whose answer was lost, or the same edit made there), so it is recorded as pushed and not sent again`,
        );
    }
    notes.push(
      ...gone.map(
        (entry) =>
          `${entry.file}: already deleted on the service, so nothing is sent; it is no longer in ${MANIFEST_FILE}`,
      ),
    );
  }
  const sorted = ordered(changes, local, problems);
  return { manifest: settledManifest, changes: sorted, problems: sortedTexts(problems), notes, local, fetched };
}
