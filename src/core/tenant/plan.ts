/**
 * The plan of a push: what differs between a pulled folder and what was
 * pulled, what changed on the service since (a conflict), and in which order
 * the changes must be sent so that a resource exists before what names it.
 */
import type { Json, JsonObject, ServiceClient } from '../client';
import { mapWithLimit } from '../concurrency';
import { CREDENTIAL_MASK, credentialPaths } from '../credentials';
import { ServiceError } from '../errors';
import { REFERENCE_FIELDS } from '../references';
import { TENANT_SEGMENTS, type KindId, type Segment } from '../resources';
import type { FolderIO } from './folder-io';
import { MANIFEST_FILE, ManifestError, readManifest, TENANT_BASE, type Manifest, type PulledResource } from './manifest';
import { kindOfSegment } from './pull';
import { fieldHashes, folderValues, KEPT_ON_SERVICE, readResource, wireValue } from './representation';
import { validateDocument } from '../validation';

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
}

export interface LocalResource {
  segment: Segment;
  file: string;
  id?: number;
  values: JsonObject;
}

export interface Plan {
  manifest: Manifest;
  changes: Change[];
  /** Files the plan cannot read; a push refuses while there are any. */
  problems: string[];
  /** The folder's resources, and the service's current detail of each resource the plan touches. */
  local: Map<string, LocalResource>;
  current: Map<string, JsonObject>;
}

/** Creates and updates go in this order of kinds: what is named before what names it; deletes go the other way. */
const ORDER: readonly Segment[] = ['tenants', 'integrations', 'ai_functions', 'ai_prompts', 'ai_actions', 'agents', 'intents', 'datasources'];

const key = (segment: Segment, id: number): string => `${segment}/${id}`;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Credentials shown masked: a plan is something people read and paste. */
function masked(kind: KindId, field: string, value: Json | undefined): Json | undefined {
  if (value === undefined || !isObject(value)) return value;
  let out: Json = value;
  for (const path of credentialPaths(kind, { [field]: value })) {
    const [, ...inner] = path;
    out = setAt(out, inner, CREDENTIAL_MASK);
  }
  return out;
}

function setAt(value: Json, path: Array<string | number>, next: Json): Json {
  const [step, ...rest] = path;
  if (step === undefined) return value === KEPT_ON_SERVICE ? value : next;
  if (Array.isArray(value) && typeof step === 'number') return value.map((item, i) => (i === step ? setAt(item, rest, next) : item));
  if (isObject(value) && typeof step === 'string' && step in value) return { ...value, [step]: setAt(value[step] as Json, rest, next) };
  return value;
}

/** Every resource file of the folder, read back. */
export async function scanFolder(io: FolderIO): Promise<{ local: LocalResource[]; problems: string[] }> {
  const local: LocalResource[] = [];
  const problems: string[] = [];
  const read = async (segment: Segment, base: string): Promise<void> => {
    const result = await readResource(kindOfSegment(segment), io, base);
    if (result.ok) local.push({ segment, file: `${base}.json`, id: result.id, values: result.values });
    else problems.push(result.problem);
  };
  if ((await io.read(`${TENANT_BASE}.json`)) !== undefined) await read('tenants', TENANT_BASE);
  for (const segment of TENANT_SEGMENTS) {
    for (const name of await io.list(segment)) if (name.endsWith('.json')) await read(segment, `${segment}/${name.slice(0, -'.json'.length)}`);
  }
  return { local, problems };
}

/** The fields whose value differs from what was pulled (a field taken out of a file is not sent, so not a change). */
function changedFields(values: JsonObject, pulled: Record<string, string>): string[] {
  const hashes = fieldHashes(values);
  return Object.keys(hashes).filter((field) => hashes[field] !== pulled[field]);
}

/** Reference fields that name a file of the folder (a resource created in the same push) instead of an id. */
export function fileReferences(segment: Segment, values: JsonObject): Array<{ field: string; file: string }> {
  return REFERENCE_FIELDS.filter((r) => r.from === segment && typeof values[r.field] === 'string')
    .map((r) => ({ field: r.field, file: values[r.field] as string }));
}

function valuesOf(kind: KindId, fields: string[], current: JsonObject | undefined, local: JsonObject | undefined): FieldChange[] {
  return fields.map((field) => ({
    field,
    ...(current && field in current ? { old: masked(kind, field, current[field]) } : {}),
    ...(local && field in local ? { new: masked(kind, field, local[field]) } : {}),
  }));
}

/** Problems a push cannot send: a kept credential in a new resource, a reference to a file that is not there. */
function sendProblems(resource: LocalResource, files: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const { field, file } of fileReferences(resource.segment, resource.values)) {
    if (!files.has(file)) problems.push(`${resource.file}: ${field} names "${file}", which is no resource file of this folder; give an id, or the path of a resource file such as "ai_prompts/welcome.json"`);
  }
  if (resource.id === undefined && JSON.stringify(resource.values).includes(JSON.stringify(KEPT_ON_SERVICE))) {
    problems.push(`${resource.file}: a new resource has no value on the service to keep for ${KEPT_ON_SERVICE}; put the credential in, or set it on the service after the push`);
  }
  return problems;
}

/**
 * Values the service would refuse (the save path's schemas and messages), so a push does not stop midway at a
 * 422: a create's fields in full, an update's changed fields. A reference naming a file is checked as an id.
 */
function valueProblems(resource: LocalResource, fields: readonly string[] | 'all'): string[] {
  const kind = kindOfSegment(resource.segment);
  const byFile = new Set(fileReferences(resource.segment, resource.values).map((r) => r.field));
  const candidate: JsonObject = {};
  for (const [field, value] of Object.entries(resource.values)) candidate[field] = byFile.has(field) ? null : wireValue(kind, field, value);
  return validateDocument(resource.segment, candidate)
    .filter((p) => fields === 'all' || fields.includes(String(p.path[0])))
    .map((p) => `${resource.file}: ${p.message}`);
}

/** Creates and updates in dependency order (kinds, then references to new files); a cycle is a problem. */
function ordered(changes: Change[], local: Map<string, LocalResource>, problems: string[]): Change[] {
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
      problems.push(`New resources name each other in a circle (${pending.map((c) => c.file).join(', ')}); create one of them first without the reference, then add it.`);
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

async function currentDetail(client: ServiceClient, entry: PulledResource, tenantId: number, signal?: AbortSignal): Promise<JsonObject | undefined> {
  try {
    return await client.get(kindOfSegment(entry.segment), entry.id, entry.segment === 'tenants' ? undefined : tenantId, { signal });
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return undefined;
    throw error;
  }
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
  problems: string[];
  local: Map<string, LocalResource>;
}

/** What the folder changed since the pull, from the files and the manifest alone (no request). */
export async function localPlan(io: FolderIO): Promise<LocalPlan> {
  const manifest = await readManifest(io);
  if (!manifest) throw new ManifestError(`This folder holds no pulled tenant (no ${MANIFEST_FILE}); pull one into it first.`);
  const { local: resources, problems } = await scanFolder(io);
  const local = new Map(resources.map((r) => [r.file, r]));
  const pulled = new Map(manifest.resources.map((entry) => [key(entry.segment, entry.id), entry]));
  const seen = new Set<string>();
  const changes: LocalChange[] = [];
  for (const resource of resources) {
    problems.push(...sendProblems(resource, new Set(local.keys())));
    if (resource.id === undefined) {
      if (resource.segment === 'tenants') problems.push(`${resource.file}: give the tenant's "id"; a push does not create tenants`);
      else {
        problems.push(...valueProblems(resource, 'all'));
        changes.push({ action: 'create', segment: resource.segment, file: resource.file, fields: Object.keys(resource.values), resource });
      }
      continue;
    }
    const entry = pulled.get(key(resource.segment, resource.id));
    if (!entry || seen.has(key(resource.segment, resource.id))) {
      problems.push(`${resource.file}: id ${resource.id} is ${entry ? 'in another file too' : `no ${kindOfSegment(resource.segment).label} pulled into this folder`}; remove "id" to create a new resource`);
      continue;
    }
    seen.add(key(resource.segment, resource.id));
    const fields = changedFields(resource.values, entry.fields);
    if (fields.length > 0) {
      problems.push(...valueProblems(resource, fields));
      changes.push({ action: 'update', segment: resource.segment, file: resource.file, fields, entry, resource });
    }
  }
  for (const entry of manifest.resources) {
    if (seen.has(key(entry.segment, entry.id))) continue;
    if (entry.segment === 'tenants') problems.push(`${entry.file} is missing: a push does not delete the tenant; pull again to get it back`);
    else changes.push({ action: 'delete', segment: entry.segment, file: entry.file, fields: [], entry });
  }
  return { manifest, changes, problems, local };
}

/** The local changes checked against the service's current state: conflicts found, old values filled in, ordered. */
export async function planPush(client: ServiceClient, io: FolderIO, options: { signal?: AbortSignal; concurrency?: number } = {}): Promise<Plan> {
  const { manifest, changes: candidates, problems, local } = await localPlan(io);
  const current = new Map<string, JsonObject>();
  const changes = (await mapWithLimit(candidates, options.concurrency ?? 4, async ({ entry, resource, fields, segment, file }): Promise<Change | undefined> => {
    const kind = kindOfSegment(segment).id;
    const name = typeof resource?.values.name === 'string' ? resource.values.name : entry?.name ?? file;
    if (!entry) return { action: 'create', segment, name, fields, file, values: valuesOf(kind, fields, undefined, resource?.values) };
    const detail = await currentDetail(client, entry, manifest.tenantId, options.signal);
    if (detail) current.set(file, detail);
    const base = { segment, id: entry.id, name, file };
    if (!detail) {
      // Deleting what is already gone sends nothing.
      return resource ? { ...base, action: 'conflict', fields, values: valuesOf(kind, fields, undefined, resource.values), reason: 'deleted on the service since the pull' } : undefined;
    }
    const serviceValues = folderValues(kindOfSegment(segment), detail);
    const serviceChanged = changedFields(serviceValues, entry.fields);
    if (serviceChanged.length > 0) {
      const reason = `changed on the service since the pull (${serviceChanged.join(', ')})${resource ? '' : ' and deleted in the folder'}`;
      return { ...base, action: 'conflict', fields, values: valuesOf(kind, fields, serviceValues, resource?.values), reason };
    }
    return resource
      ? { ...base, action: 'update', fields, values: valuesOf(kind, fields, serviceValues, resource.values) }
      : { ...base, action: 'delete', fields: [], values: [] };
  })).filter((c): c is Change => c !== undefined);
  return { manifest, changes: ordered(changes, local, problems), problems, local, current };
}
