/**
 * Pull: a tenant into a folder. Pulling again takes the service's version of
 * every field the user did not change since the last pull, keeps (and
 * reports) the fields and text files they did, and never deletes a local
 * change. Files are written a batch of details at a time, and a pull that
 * stops midway (Cancel, a failed request) writes the manifest of what it
 * wrote, so the folder stays consistent and the next pull completes it. A
 * file that already holds what it would be written with is left alone, so a
 * pull into an unchanged folder costs its requests and reads only.
 */
import type { ServiceClient } from '../client';
import type { Json, JsonObject } from '../json';
import { handledInTurn, mapWithLimit } from '../concurrency';
import { LIMITS } from '../limits';
import { ServiceError } from '../errors';
import { PROMPT_TEXT_FIELDS, type PromptTextField } from '../prompt-text';
import { repeatedBy } from '../repeated';
import { kindById, kindOfSegment, TENANT_SEGMENTS } from '../resources';
import type { ResourceKind, Segment } from '../resource-kind';
import type { FolderEntry, FolderIO } from './folder-io';
import { foldedName, unsafePath } from './folder-paths';
import { FolderProblemsError, type FolderProblem } from './folder-problems';
import { compactEntry, fingerprintsText, loadManifest, MANIFEST_FILE, ManifestError, resourceBase, sameFields, takenBases, TENANT_BASE, writeManifest, type LoadedManifest, type Manifest, type PulledResource } from './manifest';
import { changedFields, filesHash, filesOfTexts, folderValues, keepPulledNewlines, readResource, removeResource, resourceFiles, resourceTexts, textFile, unchangedSincePull } from './representation';
import { READ_ONLY } from './read-only';
import { settlePending } from './settle';
import { digestOf, lineRecords, parseStamps, recordLine, stampsText } from './file-stamps';
import { PartialWriteError } from './folder-thread';

export interface PullTarget {
  connection: string;
  baseUrl: string;
  tenantId: number;
}

export interface PullResult {
  /** How many resources the folder holds from the service now. */
  resources: number;
  /** Files written: new on the service, changed there, or a part the folder lacked. */
  written: string[];
  /**
   * Files that keep the user's edits since the last pull, with the fields they keep (none: a resource deleted on the
   * service, or a file that cannot be read, left whole); every other field took the service's value, and the base is
   * now the service's state, so a plan shows only the user's edits as updates of what the service holds.
   */
  kept: KeptChange[];
  /** The files of `kept`. */
  keptLocalChanges: string[];
  /** Files removed: a resource gone from the service (and not changed here), or a text the service no longer holds. */
  removed: string[];
  /** Resources of one kind that share a name on the service: each has a file, but a plan refuses them until renamed. */
  duplicates: string[];
  /** What the pull settled first: creates of an earlier push whose answer was lost, adopted. */
  notes: string[];
}

export interface KeptChange {
  file: string;
  fields: string[];
}

export interface PullOptions {
  signal?: AbortSignal;
  /** Requests at once. */
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
  /** The folder's manifest as the caller just read it (undefined: none there), so it is not read again. */
  loaded?: LoadedManifest;
}

export interface Listed {
  segment: Segment;
  kind: ResourceKind;
  id: number;
  name: string;
}

/** A resource's name as the folder's manifest and messages give it: `#<id>` when it has none. */
export function nameOf(value: JsonObject, id: number): string {
  return typeof value.name === 'string' && value.name !== '' ? value.name : `#${id}`;
}

/** Whether an entry below the folder would lead a write elsewhere; dot-named entries are the user's and never touched. */
function unsafeEntry(entry: FolderEntry): FolderProblem | undefined {
  if (entry.path.split('/').some((step) => step.startsWith('.'))) return undefined;
  const file = entry.type === 'folder' ? `${entry.path}/` : entry.path;
  if (entry.type === 'link') return { file, message: 'a symbolic link: a tenant folder holds no links, so nothing is read or written outside it; replace it by the file or folder itself' };
  if (entry.type === 'other') return { file, message: 'neither a file nor a folder; remove it' };
  const unsafe = unsafePath(entry.path);
  return unsafe === undefined ? undefined : { file, message: `the name ${unsafe}; rename it` };
}

/** What the service holds, listed: each resource once, in the service's order, the tenant first. */
export async function listTenant(client: ServiceClient, tenantId: number, tenant: JsonObject | undefined, options: Pick<PullOptions, 'signal' | 'concurrency'>): Promise<Listed[]> {
  const call = { signal: options.signal };
  const lists = await mapWithLimit(TENANT_SEGMENTS, options.concurrency ?? LIMITS.tenantConcurrency.value, async (segment) => {
    const kind = kindOfSegment(segment);
    return (await client.list(kind, tenantId, call)).flatMap((summary) => (typeof summary.id === 'number' ? [{ segment, kind, id: summary.id, name: nameOf(summary, summary.id) }] : []));
  });
  const own: Listed[] = tenant ? [{ segment: 'tenants', kind: kindById('tenant'), id: tenantId, name: nameOf(tenant, tenantId) }] : [];
  return [...own, ...lists.flat()];
}

/**
 * The tenant's own record, or undefined when the token may not read it (403: a tenant's own token, which the tenant
 * endpoints alone refuse), so that a least-privilege token still pulls everything else.
 */
export async function tenantRecord(client: ServiceClient, tenantId: number, call: { signal?: AbortSignal }): Promise<JsonObject | undefined> {
  try {
    return await client.get(kindById('tenant'), tenantId, undefined, call);
  } catch (error) {
    if (error instanceof ServiceError && error.status === 403) return undefined;
    throw error;
  }
}

/** Resources of one kind sharing a name: a folder's names are identities, so the user must hear of it. */
function duplicateNames(listed: readonly Listed[], pulled: readonly PulledResource[]): string[] {
  const repeated = repeatedBy(listed, (item) => `${item.segment}\n${item.name}`);
  // Nearly always none: the files of 65,000 resources are looked up only for those that share a name.
  if (repeated.length === 0) return [];
  const files = new Map(pulled.map((entry) => [`${entry.segment}/${entry.id}`, entry.file]));
  return repeated.map((same) => {
    const [first] = same as [Listed];
    return `${same.length} ${first.kind.pluralLabel} are named "${first.name}" on the service (${same.map((i) => `id ${i.id} in ${files.get(`${i.segment}/${i.id}`) ?? '?'}`).join(', ')}); names are unique per kind in a folder, so a plan refuses them until all but one are renamed`;
  });
}

/** The file a field of a resource lives in: a prompt's text in its own file, anything else in the JSON file. */
function fileOfField(files: ReadonlyMap<string, string>, base: string, field: string): string {
  const part = textFile(base, field);
  return files.has(part) ? part : `${base}.json`;
}

/**
 * A resource the service changed since the pull: the fields the folder changed since then keep the folder's value,
 * every other field takes the service's, so a colleague's edit arrives and the user's stays. Files the merge leaves
 * as they are (the user's own values, formatting aside) are not written.
 */
async function mergeResource(io: FolderIO, item: Listed, base: string, old: PulledResource, service: JsonObject): Promise<{ writes: Array<readonly [string, string]>; removals: string[]; kept: KeptChange[] }> {
  const local = await readResource(item.kind, io, base);
  // What a file that cannot be read (or is gone) holds is unknown, so it is left as it is: the plan names it.
  if (!local.ok) return { writes: [], removals: [], kept: [{ file: old.file, fields: [] }] };
  keepPulledNewlines(local.values, local.parts, old);
  // The read-only references are the service's to set: its own always come in, whatever the file holds.
  const edited = changedFields(item.kind, local.id, local.values, old).filter((field) => field !== READ_ONLY);
  const merged: JsonObject = { ...service };
  for (const field of edited) merged[field] = local.values[field] as Json;
  const files = resourceFiles(item.kind, item.id, merged, base);
  const own = resourceFiles(item.kind, item.id, local.values, base);
  const keptFields = new Map<string, string[]>();
  for (const field of edited) {
    const file = fileOfField(files, base, field);
    keptFields.set(file, [...(keptFields.get(file) ?? []), field]);
  }
  const writes: Array<readonly [string, string]> = [];
  for (const [file, text] of files) {
    if (keptFields.has(file) && own.get(file) === text) continue;
    if ((await io.read(file)) !== text) writes.push([file, text]);
  }
  const removals: string[] = [];
  if (item.kind.id === 'prompt') {
    for (const field of PROMPT_TEXT_FIELDS) {
      const part = textFile(base, field);
      if (!files.has(part) && (await io.read(part)) !== undefined) removals.push(part);
    }
  }
  return { writes, removals, kept: [...keptFields].map(([file, fields]) => ({ file, fields })) };
}


interface PulledOne {
  entry: PulledResource;
  /** The files to write, which the pull hands to the folder's batch writer with the rest of the batch's. */
  writes: Array<readonly [string, string]>;
  removed: string[];
  kept: KeptChange[];
  /** The record of its files' stamps (file-stamps.ts), when they were all there as pulled and had settled. */
  stamps?: string;
}

/**
 * The files of a resource in the order its stamps are digested (its JSON file, then its parts in PROMPT_TEXT_FIELDS
 * order), with those parts, when every one is in the folder already.
 */
function stampedFiles(files: ReadonlyArray<readonly [string, string]>, base: string, existing: ReadonlySet<string>): { files: string[]; parts: PromptTextField[] } | undefined {
  // A pull into a new folder finds none: nothing to stamp, and nothing to make for 65,000 resources.
  if (!existing.has(`${base}.json`)) return undefined;
  const names = new Set(files.map(([file]) => file));
  const parts = PROMPT_TEXT_FIELDS.filter((field) => names.has(textFile(base, field)));
  const ordered = [`${base}.json`, ...parts.map((field) => textFile(base, field))];
  return ordered.length === files.length && ordered.every((file) => existing.has(file)) ? { files: ordered, parts } : undefined;
}

/** The folder as the pull found it: its files, and the stamps kept of them (file-stamps.ts), by JSON file. */
interface FolderAtStart {
  existing: ReadonlySet<string>;
  stamps: ReadonlyMap<string, string>;
}

/** Whether the folder held any file a resource at `base` may have when the pull began. */
function hasFilesOf(kind: ResourceKind, base: string, existing: ReadonlySet<string>): boolean {
  return existing.size > 0 && (existing.has(`${base}.json`) || (kind.id === 'prompt' && PROMPT_TEXT_FIELDS.some((field) => existing.has(textFile(base, field)))));
}

/** A batch's resources, and their files being written (settling to what stopped them, if anything did). */
interface Landing {
  outcomes: PulledOne[];
  written: Promise<unknown>;
}

/**
 * One resource's files from its detail: a file that holds what it would be written with is left alone (a pull into an
 * unchanged folder costs its reads), one the user changed since the last pull is merged (mergeResource).
 */
async function pullResource(io: FolderIO, item: Listed, base: string, old: PulledResource | undefined, detail: JsonObject, folder: FolderAtStart): Promise<PulledOne> {
  const { existing } = folder;
  const values = folderValues(item.kind, detail);
  const texts = resourceTexts(item.kind, item.id, values);
  const hashed = filesHash(texts);
  // What the service holds is what was pulled last time: its fields' fingerprints are known already.
  const head = { segment: item.segment, id: item.id, file: `${base}.json`, name: nameOf(detail, item.id), files: hashed };
  const entry: PulledResource = old?.files === hashed ? sameFields(head, old) : compactEntry(head, fingerprintsText(values));
  const files = filesOfTexts(texts, base);
  // New to the folder (a first pull's every resource): nothing to read, compare, stamp or remove, and nothing to wait for.
  if (!old && !hasFilesOf(item.kind, base, existing)) return { entry, writes: files, removed: [], kept: [] };
  const stale = PROMPT_TEXT_FIELDS.map((field) => textFile(base, field)).filter((file) => !files.some(([f]) => f === file) && existing.has(file));
  const present = files.filter(([file]) => existing.has(file));
  // Stamped before they are read, as a scan stamps (scan-stamps.ts): a stamp never vouches for newer content. Then the
  // plan after a pull into an unchanged folder reads none of them.
  const stamped = io.stampStore ? stampedFiles(files, base, existing) : undefined;
  const takenAt = Date.now();
  const stamps = stamped ? await io.stamps(stamped.files) : undefined;
  const found = stamped && stamps && digestOf(stamps, 0, stamped.files.length, takenAt);
  // Files whose stamps are those kept when they were found as pulled, and the service's texts still hash as those
  // pulled: they hold what would be written, so they are neither read nor written (as a plan trusts them, scan-stamps.ts).
  const keptLine = folder.stamps.get(`${base}.json`);
  if (found && stale.length === 0 && old?.files === hashed && keptLine !== undefined && lineRecords(keptLine, `${base}.json`, hashed, stamped.parts, found.digest)) {
    return { entry, writes: [], removed: [], kept: [], stamps: keptLine };
  }
  const outcomes = present.length === 0 ? [] : await io.readMany(present.map(([file]) => file));
  const onDisk = new Map(present.map(([file], index) => [file, outcomes[index]] as const));
  const differ = files.filter(([file, text]) => {
    const outcome = onDisk.get(file);
    if (outcome instanceof Error) throw outcome;
    return outcome !== text;
  });
  if (differ.length === 0 && stale.length === 0) {
    const line = stamped && found?.settled ? recordLine(entry.file, hashed, stamped.parts, found.digest) : undefined;
    return { entry, writes: [], removed: [], kept: [], ...(line === undefined ? {} : { stamps: line }) };
  }
  const change = old ? await mergeResource(io, item, base, old, values) : { writes: differ, removals: stale, kept: [] };
  for (const file of change.removals) await io.remove(file);
  return { entry, writes: change.writes, removed: change.removals, kept: change.kept };
}

export async function pullTenant(client: ServiceClient, io: FolderIO, target: PullTarget, options: PullOptions = {}): Promise<PullResult> {
  const loaded = 'loaded' in options ? options.loaded : await loadManifest(io);
  if (loaded && (loaded.manifest.tenantId !== target.tenantId || loaded.manifest.baseUrl !== target.baseUrl)) {
    throw new ManifestError(`The folder holds tenant ${loaded.manifest.tenantId} of ${loaded.manifest.baseUrl} (${MANIFEST_FILE}); pull tenant ${target.tenantId} of ${target.baseUrl} into another folder.`);
  }
  const entries = await io.walk();
  const unsafe = [...(loaded?.problems ?? []), ...entries.flatMap((e) => unsafeEntry(e) ?? [])];
  if (unsafe.length > 0) throw new FolderProblemsError('Nothing was pulled', unsafe);
  const settled = loaded ? await settlePending(client, io, options, loaded) : undefined;
  const previous = settled?.changed ? (await loadManifest(io))?.manifest : loaded?.manifest;
  const existing = new Set(entries.filter((e) => e.type === 'file').map((e) => e.path));
  // A folder pulled before has stamps kept of its files; a new one has none to read.
  const folder: FolderAtStart = { existing, stamps: previous ? parseStamps(await io.stampStore?.read()) : new Map<string, string>() };

  const call = { signal: options.signal };
  const tenant = await tenantRecord(client, target.tenantId, call);
  const listed = await listTenant(client, target.tenantId, tenant, options);

  // Files are chosen before any detail arrives, in the service's order, so duplicates get the same files every time.
  const before = new Map((previous?.resources ?? []).map((entry) => [`${entry.segment}/${entry.id}`, entry]));
  const notes = [...(settled?.notes ?? [])];
  // Not readable is not gone: a tenant file pulled before with another token stays as it was, and in the manifest.
  const unread = tenant ? undefined : before.get(`tenants/${target.tenantId}`);
  if (!tenant) {
    before.delete(`tenants/${target.tenantId}`);
    notes.push(`the token may not read tenant ${target.tenantId}'s own record (403), so ${unread ? `${unread.file} was left as it was` : `the folder holds no ${TENANT_BASE}.json`}; everything else was pulled`);
  }
  const taken = takenBases([...before.values()], existing);
  const bases = new Map<string, string>();
  for (const item of listed) {
    const old = before.get(`${item.segment}/${item.id}`);
    const base = resourceBase(item.segment, item.id, item.name, old?.file, taken);
    taken.add(foldedName(base));
    bases.set(`${item.segment}/${item.id}`, base);
  }

  // Details, since lists leave fields out (a prompt's texts, an integration's url and tec_params, ...), a batch at a
  // time: its requests at the connection's concurrency, then its files, so memory holds two batches' texts, not the
  // tenant's. A batch's files are written while the next batch's requests run (on disk by a thread of their own) and
  // a resource counts as pulled once they are. Stopped (Cancel, a failed request or write), the manifest is written
  // with what was written, so it matches the files, and the next pull completes the folder.
  const kept: KeptChange[] = [];
  const written: string[] = [];
  const removed: string[] = [];
  const pulled: PulledResource[] = [];
  const stampLines: string[] = [];
  const manifestOf = (resources: PulledResource[]): Manifest => ({ connection: target.connection, baseUrl: target.baseUrl, tenantId: target.tenantId, resources, pending: previous?.pending });
  const pulledOne = (outcome: PulledOne): void => {
    before.delete(`${outcome.entry.segment}/${outcome.entry.id}`);
    pulled.push(outcome.entry);
    for (const [file] of outcome.writes) written.push(file);
    removed.push(...outcome.removed);
    kept.push(...outcome.kept);
    if (outcome.stamps !== undefined) stampLines.push(outcome.stamps);
  };
  const writer = io.batchWriter(listed.length > LIMITS.threadedPull.value);
  let landing: Landing | undefined;
  /** Waits for the batch being written; its resources whose files all were are pulled. */
  const land = async (): Promise<void> => {
    if (!landing) return;
    const { outcomes, written: writing } = landing;
    landing = undefined;
    const stopped = await writing;
    let files = stopped instanceof PartialWriteError ? stopped.written : Infinity;
    for (const outcome of outcomes) {
      files -= outcome.writes.length;
      if (files < 0) break;
      pulledOne(outcome);
    }
    if (stopped !== undefined) throw stopped instanceof PartialWriteError ? stopped.cause : stopped;
  };
  let done = 0;
  try {
    for (let start = 0; start < listed.length; start += LIMITS.pullBatch.value) {
      const batch = listed.slice(start, start + LIMITS.pullBatch.value);
      // Each detail is made into its files as it arrives, one after another, while the requests go on; the first
      // failure (a request, a file) starts no more, and nothing touches the folder after what arrived before it.
      const outcomes = await handledInTurn(batch, options.concurrency ?? LIMITS.tenantConcurrency.value, async (item) => {
        // The tenant is listed only when its record was read.
        const detail = item.segment === 'tenants' && tenant ? tenant : await client.get(item.kind, item.id, target.tenantId, call);
        options.onProgress?.(++done, listed.length);
        return detail;
      }, (item, detail) => {
        const key = `${item.segment}/${item.id}`;
        return pullResource(io, item, bases.get(key) as string, before.get(key), detail, folder);
      });
      await land();
      // Settled at once, so a failed write waits for land() without being taken for one nobody handles.
      landing = { outcomes, written: writer.write(outcomes.flatMap((outcome) => outcome.writes)).then(() => undefined, (error: unknown) => error) };
    }
    await land();
  } catch (error) {
    // What is not pulled yet keeps its entry from before: its files are as they were. Nothing written, nothing to say.
    await land().catch(() => undefined);
    if (pulled.length > 0) await writeManifest(io, manifestOf([...pulled, ...before.values(), ...(unread ? [unread] : [])]));
    throw error;
  } finally {
    await writer.close();
  }
  const resources = [...pulled, ...(unread ? [unread] : [])];
  // Gone from the service: removed here too, unless changed here (then the plan shows the conflict).
  for (const old of before.values()) {
    if (await unchangedSincePull(io, old)) {
      await removeResource(io, kindOfSegment(old.segment), old.file.replace(/\.json$/, ''));
      removed.push(old.file);
    } else {
      kept.push({ file: old.file, fields: [] });
      resources.push(old);
    }
  }
  await writeManifest(io, manifestOf(resources));
  // The pull found every resource: what it did not find as pulled has no stamps to keep (its files were just written).
  await io.stampStore?.write(stampsText(stampLines));
  kept.sort((a, b) => a.file.localeCompare(b.file));
  return {
    resources: listed.length,
    written: written.sort(),
    kept,
    keptLocalChanges: kept.map(({ file }) => file),
    removed: removed.sort(),
    duplicates: duplicateNames(listed, pulled),
    notes,
  };
}
