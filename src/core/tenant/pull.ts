/**
 * Pull: a tenant into a folder. Pulling again updates the files the user did
 * not change, keeps (and reports) the ones they did, and never deletes a
 * local change.
 */
import type { JsonObject, ServiceClient } from '../client';
import { mapWithLimit } from '../concurrency';
import { PROMPT_TEXT_FIELDS } from '../prompt-text';
import { kindById, kindBySegment, TENANT_SEGMENTS, type ResourceKind, type Segment } from '../resources';
import type { FolderIO } from './folder-io';
import { MANIFEST_FILE, ManifestError, readManifest, resourceBase, writeManifest, type Manifest, type PulledResource } from './manifest';
import { fieldHashes, folderValues, readResource, resourceFiles, textFile } from './representation';

export interface PullTarget {
  connection: string;
  baseUrl: string;
  tenantId: number;
}

export interface PullResult {
  /** How many resources the folder holds from the service now. */
  resources: number;
  /**
   * Resource files kept because the user changed them since the last pull; their base is now the service's
   * state, so a plan shows them as updates of what the service holds.
   */
  keptLocalChanges: string[];
  /** Resource files removed because the resource is gone from the service (and was not changed here). */
  removed: string[];
}

export interface PullOptions {
  signal?: AbortSignal;
  /** Requests at once. */
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
}

interface Fetched {
  segment: Segment;
  kind: ResourceKind;
  detail: JsonObject;
}

function kindOf(segment: Segment): ResourceKind {
  return segment === 'tenants' ? kindById('tenant') : (kindBySegment(segment) as ResourceKind);
}

function nameOf(detail: JsonObject, id: number): string {
  return typeof detail.name === 'string' && detail.name !== '' ? detail.name : `#${id}`;
}

/** Whether the resource's files still hold what was pulled (a user change is kept, never overwritten). */
export async function unchangedSincePull(io: FolderIO, entry: PulledResource): Promise<boolean> {
  const read = await readResource(kindOf(entry.segment), io, entry.file.replace(/\.json$/, ''));
  if (!read.ok) return false;
  const hashes = fieldHashes(read.values);
  const fields = new Set([...Object.keys(hashes), ...Object.keys(entry.fields)]);
  return [...fields].every((field) => hashes[field] === entry.fields[field]);
}

/** Writes a resource's files, removing a text sibling the resource no longer has. */
export async function writeResource(io: FolderIO, kind: ResourceKind, id: number | undefined, values: JsonObject, base: string): Promise<void> {
  const files = resourceFiles(kind, id, values, base);
  for (const [file, text] of files) await io.write(file, text);
  if (kind.id === 'prompt') {
    for (const field of PROMPT_TEXT_FIELDS) if (!files.has(textFile(base, field))) await io.remove(textFile(base, field));
  }
}

export async function removeResource(io: FolderIO, kind: ResourceKind, base: string): Promise<void> {
  await io.remove(`${base}.json`);
  if (kind.id === 'prompt') for (const field of PROMPT_TEXT_FIELDS) await io.remove(textFile(base, field));
}

async function fetchTenant(client: ServiceClient, tenantId: number, options: PullOptions): Promise<Fetched[]> {
  const call = { signal: options.signal };
  const tenant = await client.get(kindById('tenant'), tenantId, undefined, call);
  const lists = await mapWithLimit(TENANT_SEGMENTS, options.concurrency ?? 4, async (segment) => {
    const kind = kindOf(segment);
    return (await client.list(kind, tenantId, call)).map((summary) => ({ segment, kind, id: summary.id }));
  });
  const items = lists.flat().flatMap(({ segment, kind, id }) => (typeof id === 'number' ? [{ segment, kind, id }] : []));
  let done = 0;
  // Details, since lists leave fields out (a prompt's texts, an integration's url and tec_params, ...).
  const details = await mapWithLimit(items, options.concurrency ?? 4, async ({ segment, kind, id }) => {
    const detail = await client.get(kind, id, tenantId, call);
    options.onProgress?.(++done, items.length);
    return { segment, kind, detail };
  });
  return [{ segment: 'tenants', kind: kindById('tenant'), detail: tenant }, ...details];
}

export async function pullTenant(client: ServiceClient, io: FolderIO, target: PullTarget, options: PullOptions = {}): Promise<PullResult> {
  const previous = await readManifest(io);
  if (previous && (previous.tenantId !== target.tenantId || previous.baseUrl !== target.baseUrl)) {
    throw new ManifestError(`The folder holds tenant ${previous.tenantId} of ${previous.baseUrl} (${MANIFEST_FILE}); pull tenant ${target.tenantId} of ${target.baseUrl} into another folder.`);
  }
  const fetched = await fetchTenant(client, target.tenantId, options);
  const before = new Map((previous?.resources ?? []).map((entry) => [`${entry.segment}/${entry.id}`, entry]));
  const taken = new Set([...before.values()].map((entry) => entry.file.replace(/\.json$/, '')));
  const entries: PulledResource[] = [];
  const keptLocalChanges: string[] = [];
  for (const { segment, kind, detail } of fetched) {
    const id = detail.id as number;
    const name = nameOf(detail, id);
    const old = before.get(`${segment}/${id}`);
    before.delete(`${segment}/${id}`);
    if (old && !(await unchangedSincePull(io, old))) {
      // The file is kept; its base becomes the service's state, so the plan shows the file against what the
      // service holds now (that is how a conflict is resolved: pull, review the plan's old and new values, push).
      keptLocalChanges.push(old.file);
      entries.push({ ...old, name, fields: fieldHashes(folderValues(kind, detail)) });
      continue;
    }
    const base = resourceBase(segment, id, name, old?.file, taken);
    taken.add(base);
    const values = folderValues(kind, detail);
    await writeResource(io, kind, id, values, base);
    entries.push({ segment, id, file: `${base}.json`, name, fields: fieldHashes(values) });
  }
  const removed: string[] = [];
  // Gone from the service: removed here too, unless changed here (then the plan shows the conflict).
  for (const old of before.values()) {
    if (await unchangedSincePull(io, old)) {
      await removeResource(io, kindOf(old.segment), old.file.replace(/\.json$/, ''));
      removed.push(old.file);
    } else {
      keptLocalChanges.push(old.file);
      entries.push(old);
    }
  }
  const manifest: Manifest = { connection: target.connection, baseUrl: target.baseUrl, tenantId: target.tenantId, resources: entries };
  await writeManifest(io, manifest);
  return { resources: fetched.length, keptLocalChanges, removed };
}

export { kindOf as kindOfSegment };
