/**
 * The plan of a push: what differs between a pulled folder and what was
 * pulled, what changed on the service since (a conflict), and in which order
 * the changes must be sent so that a resource exists before what names it.
 */
import type { ServiceClient } from '../client';
import { mapWithLimit } from '../concurrency';
import { LIMITS } from '../limits';
import { CREDENTIAL_MASK, credentialPaths } from '../credentials';
import { ServiceError } from '../errors';
import { isPromptTextField } from '../prompt-text';
import { kindOfSegment, type KindId, type Segment } from '../resources';
import { hideUrlPasswords } from '../url-credentials';
import type { FolderIO } from './folder-io';
import { problemText, type FolderProblem } from './folder-problems';
import { scanFolder, type FolderScan, type LocalResource } from './folder-scan';
import { isSafeEntry, loadManifest, MANIFEST_FILE, writeManifest, type LoadedManifest, type Manifest, type PulledResource, noManifest } from './manifest';
import { changedFields, filesHash, folderShape, folderValues, KEPT_ON_SERVICE, keepPulledNewlines, pulledState, resolveKept, sameValue } from './representation';
import { ServiceNames } from './service-names';
import { ByResource } from './by-resource';
import { settlePending } from './settle';
import { duplicateNames, fieldProblem, fileReferences, missingParts, readOnlyProblem, sendProblems, valueProblems } from './plan-problems';
import { READ_ONLY } from './read-only';
import { isJsonObject, setAt, valueAt, type Json, type JsonObject } from '../json';

export type { LocalResource } from './folder-scan';

export type ChangeAction = 'create' | 'update' | 'delete' | 'conflict';

export interface FieldChange {
  field: string;
  /** The service's value (absent for a create), credentials masked. */
  old?: Json;
  /** The folder's value (absent for a delete), credentials masked. */
  new?: Json;
}

export interface Change {
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
  changes: Change[];
  /** What a push cannot send, each `file:line:column: field: message`; a push refuses while there are any. */
  problems: string[];
  /** What the plan settled on its own by looking at the service (a lost answer of an earlier push). */
  notes: string[];
  /** The folder's resources; a push reads each one's current detail right before its own write. */
  local: Map<string, LocalResource>;
  /** The service's detail of each updated or deleted resource as the plan read it, by file: a push made right after needs no other read. */
  fetched?: ReadonlyMap<string, JsonObject>;
}

/** Creates and updates go in this order of kinds: what is named before what names it; deletes go the other way. */
const ORDER: readonly Segment[] = ['tenants', 'integrations', 'ai_functions', 'ai_prompts', 'ai_actions', 'agents', 'intents', 'datasources'];

/** Credentials shown masked: a plan is something people read and paste. */
function masked(kind: KindId, field: string, value: Json | undefined): Json | undefined {
  if (value === undefined) return value;
  let out = hideUrlPasswords(value, CREDENTIAL_MASK);
  if (!isJsonObject(value)) return out;
  for (const path of credentialPaths(kind, { [field]: value })) {
    const [, ...inner] = path;
    // The marker already hides the credential and says more than the mask would.
    if (valueAt(out, inner) !== KEPT_ON_SERVICE) out = setAt(out, inner, CREDENTIAL_MASK);
  }
  return out;
}

function valuesOf(kind: KindId, fields: string[], current: JsonObject | undefined, local: JsonObject | undefined): FieldChange[] {
  return fields.map((field) => ({
    field,
    ...(current && field in current ? { old: masked(kind, field, current[field]) } : {}),
    ...(local && field in local ? { new: masked(kind, field, local[field]) } : {}),
  }));
}

/** Whether a resource's files are byte for byte those its pull wrote: then its values are the pulled ones. */
function filesAsPulled(resource: LocalResource, entry: PulledResource): boolean {
  if (entry.files === undefined || resource.text === undefined) return false;
  const parts = resource.parts.filter(isPromptTextField).map((field) => [field, resource.values[field] as string] as const);
  return filesHash({ json: resource.text, parts }) === entry.files;
}

/** Creates and updates in dependency order (kinds, then references to new files); a cycle is a problem. */
function ordered(changes: Change[], local: Map<string, LocalResource>, problems: FolderProblem[]): Change[] {
  const sends = changes.filter((c) => c.action === 'create' || c.action === 'update');
  const byFile = new Map(sends.map((c) => [c.file, c]));
  const rank = (c: Change): number => ORDER.indexOf(c.segment);
  const pending = [...sends].sort((a, b) => rank(a) - rank(b) || a.file.localeCompare(b.file));
  const out: Change[] = [];
  const done = new Set<string>();
  while (pending.length > 0) {
    const index = pending.findIndex((c) => fileReferences(c.segment, local.get(c.file)?.values ?? {})
      .every(({ file }) => done.has(file) || !byFile.has(file) || byFile.get(file)?.action !== 'create'));
    if (index < 0) {
      problems.push({ file: pending[0]?.file ?? MANIFEST_FILE, message: `new resources name each other in a circle (${pending.map((c) => c.file).join(', ')}); create one of them first without the reference, then add it` });
      out.push(...pending);
      break;
    }
    const [next] = pending.splice(index, 1) as [Change];
    done.add(next.file);
    out.push(next);
  }
  const deletes = changes.filter((c) => c.action === 'delete').sort((a, b) => rank(b) - rank(a) || a.file.localeCompare(b.file));
  return [...changes.filter((c) => c.action === 'conflict'), ...out, ...deletes];
}

/** The service's current detail of a pulled resource; undefined when it is gone. */
export async function currentDetail(client: ServiceClient, entry: Pick<PulledResource, 'segment' | 'id'>, tenantId: number, signal?: AbortSignal): Promise<JsonObject | undefined> {
  try {
    return await client.get(kindOfSegment(entry.segment), entry.id, entry.segment === 'tenants' ? undefined : tenantId, { signal });
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
  return changedFields(kind, entry.id, folderValues(kind, detail), entry).filter((field) => field !== READ_ONLY || READ_ONLY in entry.fields);
}

/** The fields the service changed since the pull that a write would overwrite: never the read-only references. */
export function changedOnService(entry: PulledResource, detail: JsonObject): string[] {
  return sendable(driftedFields(entry, detail));
}

/** The fields a push may send: the read-only block is the service's, whatever the folder or the service did to it. */
function sendable(fields: readonly string[]): string[] {
  return fields.filter((field) => field !== READ_ONLY);
}

/** A change the folder makes, before the service is asked: no conflicts known yet, no old values. */
export interface LocalChange {
  action: 'create' | 'update' | 'delete';
  segment: Segment;
  file: string;
  fields: string[];
  entry?: PulledResource;
  resource?: LocalResource;
}

export interface LocalPlan {
  manifest: Manifest;
  changes: LocalChange[];
  /** As a plan's: `file:line:column: field: message`. */
  problems: string[];
  local: Map<string, LocalResource>;
}

type FoundChanges = Omit<LocalPlan, 'problems'> & { problems: FolderProblem[] };

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

async function localChanges(io: FolderIO, read?: LoadedManifest, scanned?: FolderScan): Promise<FoundChanges> {
  const loaded = read ?? await loadManifest(io);
  if (!loaded) throw noManifest();
  const { manifest } = loaded;
  const scan = scanned ?? await scanFolder(io, { pulled: new Map(manifest.resources.map((entry) => [entry.file, entry])) });
  const problems: FolderProblem[] = [...loaded.problems, ...scan.problems];
  const local = new Map(scan.local.map((r) => [r.file, r]));
  const pulled = new ByResource(manifest.resources.map((entry) => [entry, entry]));
  const entryOf = (resource: LocalResource): PulledResource | undefined => (resource.id === undefined ? undefined : pulled.get({ segment: resource.segment, id: resource.id }));
  const seen = new ByResource<true>();
  const changes: LocalChange[] = [];
  for (const resource of scan.local) {
    // Files as pulled name no file (a pull writes ids) and hold no kept credential of a new resource.
    if (!resource.asPulled) problems.push(...sendProblems(resource, local));
    if (resource.id === undefined) {
      if (resource.segment === 'tenants') problems.push(fieldProblem(resource, ['id'], 'id: give the tenant\'s "id"; a push does not create tenants'));
      else {
        problems.push(...valueProblems(resource, 'all'));
        if (READ_ONLY in resource.values) problems.push(readOnlyProblem(resource));
        changes.push({ action: 'create', segment: resource.segment, file: resource.file, fields: sendable(Object.keys(resource.values)), resource });
      }
      continue;
    }
    const entry = entryOf(resource);
    const id = { segment: resource.segment, id: resource.id };
    if (!entry || seen.has(id)) {
      problems.push(fieldProblem(resource, ['id'], `id: ${resource.id} is ${entry ? 'in another file too' : `no ${kindOfSegment(resource.segment).label} pulled into this folder`}; remove "id" to create a new resource`));
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
    if (entry.segment === 'tenants') problems.push({ file: entry.file, message: 'the tenant\'s file is missing: a push does not delete the tenant; pull again to get it back' });
    else changes.push({ action: 'delete', segment: entry.segment, file: entry.file, fields: [], entry });
  }
  return { manifest, changes, problems, local };
}

/** A kept credential the service does not hold where the file keeps it: a push would fail there, so the plan says it now. */
function keptProblems(resource: LocalResource, fields: readonly string[], detail: JsonObject): FolderProblem[] {
  const held = folderShape(kindOfSegment(resource.segment), detail);
  return fields.flatMap((field) => resolveKept(resource.values[field] as Json, held[field], [field]).missing)
    .map((path) => fieldProblem(resource, path, `${path.join('.')}: keeps ${KEPT_ON_SERVICE}, but the service holds no credential there (a password inside a URL is kept only while the URL's scheme, user and host stay the same); put the value in the file`));
}

/** The name a create or a rename would give a resource, when the service already has another resource of that kind so named. */
async function nameTaken(names: ServiceNames, resource: LocalResource): Promise<FolderProblem[]> {
  const name = resource.values.name;
  if (typeof name !== 'string') return [];
  const holders = await names.unknownHolders(resource.segment, name);
  if (holders.length === 0) return [];
  const label = kindOfSegment(resource.segment).label;
  return [fieldProblem(resource, ['name'], `name: the service already holds ${label} "${name}" (id ${holders.map((h) => h.id).join(', ')}), which this folder does not; pull to get it, or choose another name`)];
}

/** The local changes checked against the service's current state: lost answers settled, conflicts found, old values filled in, ordered. */
export async function planPush(client: ServiceClient, io: FolderIO, options: { signal?: AbortSignal; concurrency?: number; loaded?: LoadedManifest } = {}): Promise<Plan> {
  // The manifest as the caller just read it, when it has (the command line reads it for the base URL).
  const loaded = options.loaded ?? await loadManifest(io);
  const settled = await settlePending(client, io, options, loaded);
  const { manifest, changes: candidates, problems, local } = await localChanges(io, settled.changed ? undefined : loaded);
  problems.push(...settled.problems);
  const names = new ServiceNames(client, manifest, options.signal);
  const gone: PulledResource[] = [];
  const fetched = new Map<string, JsonObject>();
  const applied = new Map<PulledResource, { entry: PulledResource; fields: string[] }>();
  const changes = (await mapWithLimit(candidates, options.concurrency ?? LIMITS.tenantConcurrency.value, async ({ entry, resource, fields, segment, file }): Promise<Change | undefined> => {
    const kind = kindOfSegment(segment).id;
    const name = typeof resource?.values.name === 'string' ? resource.values.name : entry?.name ?? file;
    if (!entry) {
      if (resource) problems.push(...await nameTaken(names, resource));
      return { action: 'create', segment, name, fields, file, values: valuesOf(kind, fields, undefined, resource?.values) };
    }
    const detail = await currentDetail(client, entry, manifest.tenantId, options.signal);
    const base = { segment, id: entry.id, name, file };
    if (!detail) {
      if (resource) return { ...base, action: 'conflict', fields, values: valuesOf(kind, fields, undefined, resource.values), reason: 'deleted on the service since the pull' };
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
        return { ...base, action: 'conflict', fields: conflicting, values: valuesOf(kind, conflicting, serviceValues, resource?.values), reason, service: serviceValues };
      }
      // The service holds what the folder sends: an earlier push's update whose answer was lost (or the same edit made
      // there too). Recorded as applied, so what is left to send is what still differs from the service.
      const caughtUp = { ...entry, name: typeof detail.name === 'string' ? detail.name : entry.name, ...pulledState(kindOfSegment(segment), entry.id, serviceValues) };
      // The file still holds the references it was pulled with: taking the service's as pulled would make them an edit.
      delete caughtUp.fields[READ_ONLY];
      const pulledBlock = entry.fields[READ_ONLY];
      if (pulledBlock !== undefined) caughtUp.fields[READ_ONLY] = pulledBlock;
      applied.set(entry, { entry: caughtUp, fields: serviceChanged });
      sent = sendable(changedFields(kindOfSegment(segment), entry.id, resource.values, caughtUp));
      if (sent.length === 0) return undefined;
    }
    fetched.set(file, detail);
    if (!resource) return { ...base, action: 'delete', fields: [], values: [], service: serviceValues };
    problems.push(...keptProblems(resource, sent, detail));
    if (sent.includes('name')) problems.push(...await nameTaken(names, resource));
    return { ...base, action: 'update', fields: sent, values: valuesOf(kind, sent, serviceValues, resource.values), service: serviceValues };
  })).filter((c): c is Change => c !== undefined);
  const notes = [...settled.notes];
  let settledManifest = manifest;
  if (gone.length > 0 || applied.size > 0) {
    settledManifest = { ...manifest, resources: manifest.resources.filter((entry) => !gone.includes(entry)).map((entry) => applied.get(entry)?.entry ?? entry) };
    await writeManifest(io, settledManifest);
    for (const entry of manifest.resources) {
      const caught = applied.get(entry)?.fields;
      if (caught) notes.push(`${entry.file}: the service already holds this file's ${caught.join(', ')} (an earlier push whose answer was lost, or the same edit made there), so it is recorded as pushed and not sent again`);
    }
    notes.push(...gone.map((entry) => `${entry.file}: already deleted on the service, so nothing is sent; it is no longer in ${MANIFEST_FILE}`));
  }
  const sorted = ordered(changes, local, problems);
  return { manifest: settledManifest, changes: sorted, problems: sortedTexts(problems), notes, local, fetched };
}
