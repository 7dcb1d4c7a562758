/**
 * Push: sends a plan in its order, one change at a time, and records each in
 * the folder as it goes, so a push that stops midway continues where it
 * stopped when run again instead of repeating what was applied:
 * - a create is recorded as under way before it is sent (settle.ts adopts it
 *   when its answer is lost);
 * - an update or delete is checked against the service right before its own
 *   write, so a change made there during a long push is a conflict, not lost;
 * - what the service holds afterwards is compared field by field with what
 *   was sent, and a field it did not take keeps the user's value in the
 *   folder, so the next plan shows it again.
 */
import type { ServiceClient } from '../client';
import type { Json, JsonObject } from '../json';
import { ServiceError } from '../errors';
import { kindOfSegment, type ResourceKind } from '../resources';
import type { FolderIO } from './folder-io';
import { writeManifest, type Manifest, type PulledResource } from './manifest';
import type { Change, LocalResource, Plan } from './plan';
import { changedOnService, currentDetail } from './plan';
import { fileReferences } from './plan-problems';
import { fieldsNotTaken, folderShape, folderValues, pulledState, removeResource, resolveKept, shownAfterWrite, wireValue, writeResource } from './representation';
import { plural } from '../text';

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

function idOf(file: string, ids: ReadonlyMap<string, number>): number {
  const id = ids.get(file);
  if (id === undefined) throw new PushRefused(`"${file}" is named as a reference but has no id yet; it must be created first`);
  return id;
}

/** The body of a create or update: the change's fields, references to files as ids, kept credentials resolved. */
function bodyOf(kind: ResourceKind, change: Change, resource: LocalResource, current: JsonObject | undefined, ids: ReadonlyMap<string, number>): JsonObject {
  const references = new Map(fileReferences(change.segment, resource.values).map((r) => [r.field, r.file]));
  const held = current && folderShape(kind, current);
  const body: JsonObject = {};
  for (const field of change.fields) {
    const file = references.get(field);
    const resolved = resolveKept(file === undefined ? (resource.values[field] as Json) : idOf(file, ids), held?.[field], [field]);
    const [missing] = resolved.missing;
    if (missing) throw new PushRefused(`${change.file}: ${missing.join('.')} keeps a credential the service no longer holds there; put the value in the file`);
    body[field] = wireValue(kind, field, resolved.value);
  }
  return body;
}

/** The sent fields the service holds otherwise, compared as the folder holds them. */
function notTaken(kind: ResourceKind, change: Change, body: JsonObject, held: JsonObject): NotTaken[] {
  const sent = folderValues(kind, body);
  return fieldsNotTaken(sent, change.fields, held).map((field) => ({ file: change.file, field, sent: sent[field] as Json, holds: held[field] }));
}

/** Someone changed (or deleted) the resource on the service after the plan: the push stops before overwriting it. */
function staleRefusal(change: Change, fields: readonly string[] | undefined): PushRefused {
  const what = fields === undefined ? 'deleted' : `changed (${fields.join(', ')})`;
  return new PushRefused(`${change.file}: ${change.segment} "${change.name}" was ${what} on the service while the push ran, so it was not overwritten; pull again to see the service's state, then push the rest`);
}

class FolderRecord {
  private readonly entries: Map<string, PulledResource>;

  constructor(private readonly io: FolderIO, private readonly manifest: Manifest) {
    this.entries = new Map(manifest.resources.map((entry) => [entry.file, entry]));
  }

  entryOf(change: Change): PulledResource | undefined {
    return [...this.entries.values()].find((e) => e.segment === change.segment && e.id === change.id);
  }

  set(entry: PulledResource, replacing?: PulledResource): void {
    if (replacing && replacing.file !== entry.file) this.entries.delete(replacing.file);
    this.entries.set(entry.file, entry);
  }

  delete(entry: PulledResource | undefined): void {
    if (entry) this.entries.delete(entry.file);
  }

  /** Saved after every step, so what was applied is never sent again. */
  async save(pending: Manifest['pending'] = this.manifest.pending?.filter((p) => !this.entries.has(p.file))): Promise<void> {
    await writeManifest(this.io, { ...this.manifest, resources: [...this.entries.values()], pending });
  }
}

/** The resource's current state, refusing when it changed since the plan compared it. */
async function fresh(client: ServiceClient, change: Change, entry: PulledResource | undefined, tenantId: number, signal?: AbortSignal): Promise<JsonObject | undefined> {
  if (!entry) return undefined;
  const detail = await currentDetail(client, entry, tenantId, signal);
  if (detail === undefined) {
    if (change.action === 'delete') return undefined;
    throw staleRefusal(change, undefined);
  }
  const changed = changedOnService(entry, detail);
  if (changed.length > 0) throw staleRefusal(change, changed);
  return detail;
}

export async function push(client: ServiceClient, io: FolderIO, plan: Plan, options: PushOptions = {}): Promise<PushResult> {
  const conflicts = plan.changes.filter((c) => c.action === 'conflict');
  if (conflicts.length > 0) {
    throw new PushRefused(`Nothing was sent: ${plural(conflicts.length, 'resource')} changed both here and on the service since the pull: ${conflicts.map((c) => `${c.file}: ${c.reason ?? 'conflict'}`).join('; ')}. Pull again: your changed files are kept and the plan then shows them against the service's state; review the old and new values, then push.`);
  }
  if (plan.problems.length > 0) throw new PushRefused(`Nothing was sent: ${plan.problems.join('; ')}`);
  const { manifest } = plan;
  const record = new FolderRecord(io, manifest);
  const ids = new Map<string, number>([...plan.local.values()].flatMap((r) => (r.id === undefined ? [] : [[r.file, r.id] as const])));
  const applied: Change[] = [];
  const missed: NotTaken[] = [];
  const call = { signal: options.signal };
  const tenantOf = (change: Change): number | undefined => (change.segment === 'tenants' ? undefined : manifest.tenantId);
  for (const [index, change] of plan.changes.entries()) {
    options.onProgress?.(change, index, plan.changes.length);
    const kind = kindOfSegment(change.segment);
    const base = change.file.replace(/\.json$/, '');
    const old = record.entryOf(change);
    const current = await fresh(client, change, old, manifest.tenantId, options.signal);
    if (change.action === 'delete') {
      // Gone already (a retry after a lost answer, or someone else): what the delete asked for holds.
      if (current) await client.delete(kind, change.id as number, tenantOf(change), call).catch((error: unknown) => {
        if (!(error instanceof ServiceError && error.status === 404)) throw error;
      });
      record.delete(old);
      await removeResource(io, kind, base);
    } else {
      const resource = plan.local.get(change.file) as LocalResource;
      const body = bodyOf(kind, change, resource, current, ids);
      let id = change.id as number;
      if (change.action === 'create') {
        // Recorded before it is sent: if the answer is lost, the next plan finds the resource instead of creating it twice.
        await record.save([...(manifest.pending ?? []).filter((p) => p.file !== change.file), { segment: change.segment, file: change.file, name: change.name }]);
        id = (await client.create(kind, body, tenantOf(change), call)).id as number;
        record.set({ segment: change.segment, id, file: change.file, name: change.name, ...pulledState(kind, id, resource.values) });
        await writeResource(io, kind, id, resource.values, base);
        await record.save();
      } else {
        await client.update(kind, id, body, tenantOf(change), call);
      }
      ids.set(change.file, id);
      const detail = await client.get(kind, id, tenantOf(change), call);
      const held = folderValues(kind, detail);
      const refused = notTaken(kind, change, body, held);
      const shown = shownAfterWrite(held, resource.values, refused.map(({ field }) => field));
      record.set({ segment: change.segment, id, file: change.file, name: typeof detail.name === 'string' ? detail.name : change.name, ...pulledState(kind, id, held) }, old);
      await writeResource(io, kind, id, shown, base);
      missed.push(...refused);
    }
    applied.push(change);
    await record.save();
    if (missed.length > 0) break;
  }
  return { applied, notTaken: missed };
}
