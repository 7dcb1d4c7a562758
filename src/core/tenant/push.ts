/**
 * Push: sends a plan's changes, a few at once in an order that keeps what is
 * named before what names it, and records each in the manifest's journal as
 * it goes, so a push that stops midway continues where it stopped when run
 * again instead of repeating what was applied:
 * - a create is recorded as under way before it is sent (settle.ts adopts it
 *   when its answer is lost);
 * - an update or delete is checked against the service right before its own
 *   write (or right before, by the plan just made), so a change made there
 *   during a long push is a conflict, not lost;
 * - what the service holds afterwards is compared field by field with what
 *   was sent, and a field it did not take keeps the user's value in the
 *   folder, so the next plan shows it again.
 */
import type { ServiceClient } from '../client';
import type { Json, JsonObject } from '../json';
import { ServiceError } from '../errors';
import { kindOfSegment } from '../resources';
import type { ResourceKind } from '../resource-kind';
import type { FolderIO } from './folder-io';
import { limiter } from '../concurrency';
import { LIMITS } from '../limits';
import type { PulledResource } from './manifest';
import type { PlannedChange, LocalResource, Plan } from './plan';
import { changedOnService, currentDetail } from './service-detail';
import { planVerdict } from './plan-verdict';
import { FolderRecord } from './push-record';
import { fileReferences } from './plan-problems';
import { fieldsNotTaken, folderShape, folderValues, resolveKept, shownAfterWrite, wireValue } from './folder-values';
import { pulledState } from './pulled-state';
import { textFile } from './resource-files';
import { removeResource, writeResource } from './representation';
import { PushRefused } from './push-refused';

/** A field the service did not take as sent: reported as an error, naming the resource and the field. */
export interface NotTaken {
  file: string;
  field: string;
  sent: Json;
  holds: Json | undefined;
}

export interface PushResult {
  /** The changes applied, in the plan's order. */
  applied: PlannedChange[];
  notTaken: NotTaken[];
}

export interface PushOptions {
  signal?: AbortSignal;
  /** Requests at once (the connection's concurrency). */
  concurrency?: number;
  /**
   * The plan was made just now, so the details it read (`Plan.fetched`) stand for the service's state: a change is
   * not read again before its write. Off when time passed since (a user read the plan first).
   */
  justPlanned?: boolean;
  /** After each change applied: `index` counts them from 0, in the order they completed. */
  onProgress?: (change: PlannedChange, index: number, total: number) => void;
}

function idOf(file: string, ids: ReadonlyMap<string, number>): number {
  const id = ids.get(file);
  if (id === undefined)
    throw new PushRefused(`"${file}" is named as a reference but has no id yet; it must be created first`);
  return id;
}

/** The body of a create or update: the change's fields, references to files as ids, kept credentials resolved. */
function bodyOf(
  kind: ResourceKind,
  change: PlannedChange,
  resource: LocalResource,
  current: JsonObject | undefined,
  ids: ReadonlyMap<string, number>,
): JsonObject {
  const references = new Map(fileReferences(change.segment, resource.values).map((r) => [r.field, r.file]));
  const held = current && folderShape(kind, current);
  const body: JsonObject = {};
  for (const field of change.fields) {
    const file = references.get(field);
    const resolved = resolveKept(
      file === undefined ? (resource.values[field] as Json) : idOf(file, ids),
      held?.[field],
      [field],
    );
    const [missing] = resolved.missing;
    if (missing)
      throw new PushRefused(
        `${change.file}: ${missing.join('.')} keeps a credential the service no longer holds there; put the value in the file`,
      );
    body[field] = wireValue(kind, field, resolved.value);
  }
  return body;
}

/** The sent fields the service holds otherwise, compared as the folder holds them. */
function notTaken(kind: ResourceKind, change: PlannedChange, body: JsonObject, held: JsonObject): NotTaken[] {
  const sent = folderValues(kind, body);
  return fieldsNotTaken(sent, change.fields, held).map((field) => ({
    file: change.file,
    field,
    sent: sent[field] as Json,
    holds: held[field],
  }));
}

/** Someone changed (or deleted) the resource on the service after the plan: the push stops before overwriting it. */
function staleRefusal(change: PlannedChange, fields: readonly string[] | undefined): PushRefused {
  const what = fields === undefined ? 'deleted' : `changed (${fields.join(', ')})`;
  return new PushRefused(
    `${change.file}: ${change.segment} "${change.name}" was ${what} on the service while the push ran, so it was not overwritten; pull again to see the service's state, then push the rest`,
  );
}

/**
 * Whether an answer to an update stands for a GET after it: it holds every detail field (a prompt's does, by the
 * service's API; an intent's lacks its actions). Judged by the answer itself, so a service that answers less is read.
 */
function answersDetail(kind: ResourceKind, answer: JsonObject): boolean {
  return kind.detailFields.every((field) => field in answer);
}

/** The resource's current state, refusing when it changed since the plan compared it. */
async function fresh(
  client: ServiceClient,
  change: PlannedChange,
  entry: PulledResource | undefined,
  tenantId: number,
  signal?: AbortSignal,
): Promise<JsonObject | undefined> {
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

/** Deletes by kind, in the plan's order of kinds (what names comes before what it names): one group after another. */
function deleteGroups(deletes: readonly PlannedChange[]): PlannedChange[][] {
  const groups: PlannedChange[][] = [];
  for (const change of deletes) {
    const last = groups[groups.length - 1];
    if (last && last[0]?.segment === change.segment) last.push(change);
    else groups.push([change]);
  }
  return groups;
}

/**
 * Sends the plan's changes, at most `concurrency` at once: a create or update waits for the creates of the files it
 * names, deletes wait for every create and update and go kind by kind. The first failure (or a field not taken)
 * starts nothing more; what is under way finishes and is recorded, then the journal is folded into the manifest.
 */
export async function push(
  client: ServiceClient,
  io: FolderIO,
  plan: Plan,
  options: PushOptions = {},
): Promise<PushResult> {
  const verdict = planVerdict(plan);
  if (!verdict.pushable) throw new PushRefused(verdict.refusal);
  const { manifest } = plan;
  const record = new FolderRecord(io, manifest);
  const ids = new Map<string, number>(
    [...plan.local.values()].flatMap((r) => (r.id === undefined ? [] : [[r.file, r.id] as const])),
  );
  const applied: PlannedChange[] = [];
  const missed: NotTaken[] = [];
  const call = { signal: options.signal };
  const tenantOf = (change: PlannedChange): number | undefined =>
    change.segment === 'tenants' ? undefined : manifest.tenantId;
  let failure: { error: unknown } | undefined;
  const stopped = (): boolean => failure !== undefined || missed.length > 0;

  const apply = async (change: PlannedChange): Promise<void> => {
    const kind = kindOfSegment(change.segment);
    const base = change.file.replace(/\.json$/, '');
    const old = record.entryOf(change);
    const planned = options.justPlanned ? plan.fetched?.get(change.file) : undefined;
    const current = planned ?? (await fresh(client, change, old, manifest.tenantId, options.signal));
    if (change.action === 'delete') {
      // Gone already (a retry after a lost answer, or someone else): what the delete asked for holds.
      if (current)
        await client.delete(kind, change.id as number, tenantOf(change), call).catch((error: unknown) => {
          if (!(error instanceof ServiceError && error.status === 404)) throw error;
        });
      await record.delete(old);
      await removeResource(io, kind, base);
      return;
    }
    const resource = plan.local.get(change.file) as LocalResource;
    const body = bodyOf(kind, change, resource, current, ids);
    let id = change.id as number;
    let detail: JsonObject;
    if (change.action === 'create') {
      await record.creating(change);
      id = (await client.create(kind, body, tenantOf(change), call)).id as number;
      await record.set({
        segment: change.segment,
        id,
        file: change.file,
        name: change.name,
        ...pulledState(kind, id, resource.values),
      });
      await writeResource(io, kind, id, resource.values, base);
      ids.set(change.file, id);
      detail = await client.get(kind, id, tenantOf(change), call);
    } else {
      const answer = await client.update(kind, id, body, tenantOf(change), call);
      detail = answersDetail(kind, answer) ? answer : await client.get(kind, id, tenantOf(change), call);
    }
    const held = folderValues(kind, detail);
    const refused = notTaken(kind, change, body, held);
    const shown = shownAfterWrite(
      held,
      resource.values,
      refused.map(({ field }) => field),
    );
    await record.set(
      {
        segment: change.segment,
        id,
        file: change.file,
        name: typeof detail.name === 'string' ? detail.name : change.name,
        ...pulledState(kind, id, held),
      },
      old,
    );
    // An update's files are those the plan read (its JSON file and its parts): only those are removed when not written.
    const present =
      change.action === 'update'
        ? new Set([change.file, ...resource.parts.map((field) => textFile(base, field))])
        : undefined;
    await writeResource(io, kind, id, shown, base, present);
    missed.push(...refused);
  };

  const limit = limiter(options.concurrency ?? LIMITS.tenantConcurrency.value);
  const step = (change: PlannedChange): Promise<void> =>
    limit(async () => {
      // Cancelled between two changes: nothing more starts, and the push fails as one stopped midway.
      if (options.signal?.aborted) failure ??= { error: options.signal.reason };
      if (stopped()) return;
      try {
        await apply(change);
        applied.push(change);
        options.onProgress?.(change, applied.length - 1, plan.changes.length);
      } catch (error) {
        failure ??= { error };
      }
    });
  try {
    const settled = new Map<string, Promise<void>>();
    for (const change of plan.changes.filter((c) => c.action !== 'delete')) {
      const named = fileReferences(change.segment, plan.local.get(change.file)?.values ?? {}).flatMap(
        ({ file }) => settled.get(file) ?? [],
      );
      settled.set(
        change.file,
        Promise.all(named).then(() => step(change)),
      );
    }
    await Promise.all(settled.values());
    for (const group of deleteGroups(plan.changes.filter((c) => c.action === 'delete')))
      await Promise.all(group.map(step));
  } finally {
    await record.fold();
  }
  if (failure) throw failure.error;
  // In the plan's order, whichever of the changes sent together finished first: the same run reads the same.
  const done = new Set(applied);
  return { applied: plan.changes.filter((change) => done.has(change)), notTaken: missed };
}
