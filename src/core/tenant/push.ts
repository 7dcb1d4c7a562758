/**
 * Push: sends a plan in its order, one change at a time. Each change is read
 * back, its files and manifest entry rewritten from what the service holds,
 * and the manifest saved, so a push that stops midway continues where it
 * stopped when run again instead of repeating what was applied.
 */
import type { Json, JsonObject, ServiceClient } from '../client';
import { kindBySegment, type ResourceKind } from '../resources';
import type { FolderIO } from './folder-io';
import { writeManifest, type PulledResource } from './manifest';
import type { Change, LocalResource, Plan } from './plan';
import { fileReferences } from './plan';
import { kindOfSegment, removeResource, writeResource } from './pull';
import { fieldHashes, folderValues, KEPT_ON_SERVICE, sameValue, wireValue } from './representation';

export class PushRefused extends Error {}

/** A field the service did not take as sent: reported as an error, naming the resource and the field. */
export interface NotTaken {
  file: string;
  field: string;
  sent: Json;
  holds: Json | undefined;
}

export interface PushResult {
  /** The changes sent, in the order sent. */
  applied: Change[];
  notTaken: NotTaken[];
}

export interface PushOptions {
  signal?: AbortSignal;
  onProgress?: (change: Change, index: number, total: number) => void;
}

type Path = Array<string | number>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A kept credential takes the service's current value at the same place; the marker itself is never sent. */
function withKeptCredentials(value: Json, current: Json | undefined, path: Path, file: string): Json {
  if (value === KEPT_ON_SERVICE) {
    if (current === undefined || current === KEPT_ON_SERVICE) throw new PushRefused(`${file}: ${path.join('.')} keeps a credential the service no longer holds there; put the value in the file`);
    return current;
  }
  if (Array.isArray(value)) return value.map((item, i) => withKeptCredentials(item, Array.isArray(current) ? current[i] : undefined, [...path, i], file));
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, item]) => [k, withKeptCredentials(item, isObject(current) ? current[k] : undefined, [...path, k], file)]));
  }
  return value;
}

function idOf(file: string, ids: ReadonlyMap<string, number>): number {
  const id = ids.get(file);
  if (id === undefined) throw new PushRefused(`"${file}" is named as a reference but has no id yet; it must be created first`);
  return id;
}

/** The body of a create or update: the change's fields, references to files as ids, kept credentials resolved. */
function bodyOf(kind: ResourceKind, change: Change, resource: LocalResource, current: JsonObject | undefined, ids: ReadonlyMap<string, number>): JsonObject {
  const references = new Map(fileReferences(change.segment, resource.values).map((r) => [r.field, r.file]));
  const body: JsonObject = {};
  for (const field of change.fields) {
    const file = references.get(field);
    const value = file === undefined ? (resource.values[field] as Json) : idOf(file, ids);
    body[field] = wireValue(kind, field, withKeptCredentials(value, current?.[field], [field], change.file));
  }
  return body;
}

/** The sent fields the service holds otherwise, compared as the folder holds them. */
function notTaken(kind: ResourceKind, change: Change, body: JsonObject, detail: JsonObject): NotTaken[] {
  const sent = folderValues(kind, body as JsonObject);
  const held = folderValues(kind, detail);
  return change.fields.filter((field) => field in sent && !sameValue(sent[field], held[field]))
    .map((field) => ({ file: change.file, field, sent: sent[field] as Json, holds: held[field] }));
}

export async function push(client: ServiceClient, io: FolderIO, plan: Plan, options: PushOptions = {}): Promise<PushResult> {
  const conflicts = plan.changes.filter((c) => c.action === 'conflict');
  if (conflicts.length > 0) {
    throw new PushRefused(`Nothing was sent: ${conflicts.length} resource${conflicts.length > 1 ? 's' : ''} changed both here and on the service since the pull: ${conflicts.map((c) => `${c.file}: ${c.reason ?? 'conflict'}`).join('; ')}. Pull again: your changed files are kept and the plan then shows them against the service's state; review the old and new values, then push.`);
  }
  if (plan.problems.length > 0) throw new PushRefused(`Nothing was sent: ${plan.problems.join('; ')}`);
  const { manifest } = plan;
  const entries = new Map(manifest.resources.map((entry) => [entry.file, entry]));
  const ids = new Map<string, number>([...plan.local.values()].flatMap((r) => (r.id === undefined ? [] : [[r.file, r.id] as const])));
  const applied: Change[] = [];
  const missed: NotTaken[] = [];
  const call = { signal: options.signal };
  const tenantOf = (change: Change): number | undefined => (change.segment === 'tenants' ? undefined : manifest.tenantId);
  for (const [index, change] of plan.changes.entries()) {
    options.onProgress?.(change, index, plan.changes.length);
    const kind = change.segment === 'tenants' ? kindOfSegment('tenants') : (kindBySegment(change.segment) as ResourceKind);
    const base = change.file.replace(/\.json$/, '');
    const old = [...entries.values()].find((e) => e.segment === change.segment && e.id === change.id);
    if (change.action === 'delete') {
      await client.delete(kind, change.id as number, tenantOf(change), call);
      if (old) entries.delete(old.file);
      await removeResource(io, kind, base);
    } else {
      const resource = plan.local.get(change.file) as LocalResource;
      const body = bodyOf(kind, change, resource, plan.current.get(change.file), ids);
      let id = change.id as number;
      if (change.action === 'create') {
        id = (await client.create(kind, body, tenantOf(change), call)).id as number;
        // Recorded before anything else can fail, so a push run again never creates it twice.
        await writeResource(io, kind, id, resource.values, base);
        entries.set(change.file, { segment: change.segment, id, file: change.file, name: change.name, fields: fieldHashes(resource.values) });
        await writeManifest(io, { ...manifest, resources: [...entries.values()] });
      } else {
        await client.update(kind, id, body, tenantOf(change), call);
      }
      ids.set(change.file, id);
      const detail = await client.get(kind, id, tenantOf(change), call);
      const values = folderValues(kind, detail);
      if (old && old.file !== change.file) entries.delete(old.file);
      const entry: PulledResource = { segment: change.segment, id, file: change.file, name: typeof detail.name === 'string' ? detail.name : change.name, fields: fieldHashes(values) };
      entries.set(change.file, entry);
      // The folder shows what the service holds: ids instead of file references, the service's own formatting.
      await writeResource(io, kind, id, values, base);
      missed.push(...notTaken(kind, change, body, detail));
    }
    applied.push(change);
    await writeManifest(io, { ...manifest, resources: [...entries.values()] });
    if (missed.length > 0) break;
  }
  return { applied, notTaken: missed };
}
