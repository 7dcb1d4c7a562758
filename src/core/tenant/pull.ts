/**
 * Pull: a tenant into a folder. Pulling again takes the service's version of
 * every field the user did not change since the last pull, keeps (and
 * reports) the fields and text files they did, and never deletes a local
 * change. Files are written a batch of details at a time, and a pull that
 * stops midway (Cancel, a failed request) writes the manifest of what it
 * wrote, so the folder stays consistent and the next pull completes it.
 */
import type { ServiceClient } from '../client';
import { handledInTurn } from '../concurrency';
import { LIMITS } from '../limits';
import { kindOfSegment } from '../resources';
import { parseCache, cacheText } from './file-stat-cache';
import { PartialWriteError, writerInTurn, type FolderEntry, type FolderIO } from './folder-io';
import { foldedName, unsafePath } from './folder-paths';
import { FolderProblemsError, type FolderProblem } from './folder-problems';
import {
  loadManifest,
  MANIFEST_FILE,
  ManifestError,
  TENANT_BASE,
  type LoadedManifest,
  type Manifest,
  type PulledResource,
} from './manifest';
import { writeManifest } from './manifest-writer';
import { pullResource, type FolderAtStart, type KeptChange, type PulledOne } from './pull-resource';
import { removeResource, unchangedSincePull } from './representation';
import { resourceBase, takenBases } from './resource-paths';
import { settlePending } from './settle';
import { duplicateNames, listTenant, tenantRecord } from './tenant-listing';

export interface PullTarget {
  connection: string;
  baseUrl: string;
  tenantId: number;
}

export interface PullResult {
  /** How many resources the folder holds from the service now. */
  resources: number;
  /** Files written, in the order they were: new on the service, changed there, or a part the folder lacked. */
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

export interface PullOptions {
  signal?: AbortSignal;
  /** Requests at once. */
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
  /** The folder's manifest as the caller just read it (undefined: none there), so it is not read again. */
  loaded?: LoadedManifest;
}

/** Whether an entry below the folder would lead a write elsewhere; dot-named entries are the user's and never touched. */
function unsafeEntry(entry: FolderEntry): FolderProblem | undefined {
  if (entry.path.split('/').some((step) => step.startsWith('.'))) return undefined;
  const file = entry.type === 'folder' ? `${entry.path}/` : entry.path;
  if (entry.type === 'link') {
    return {
      file,
      message:
        'a symbolic link: a tenant folder holds no links, so nothing is read or written outside it; replace it by the file or folder itself',
    };
  }
  if (entry.type === 'other') return { file, message: 'neither a file nor a folder; remove it' };
  const unsafe = unsafePath(entry.path);
  return unsafe === undefined ? undefined : { file, message: `the name ${unsafe}; rename it` };
}

/** A batch's resources, and the write of their files (settling to what stopped it, if anything did). */
interface BatchWrite {
  outcomes: PulledOne[];
  written: Promise<unknown>;
}

export async function pullTenant(
  client: ServiceClient,
  io: FolderIO,
  target: PullTarget,
  options: PullOptions = {},
): Promise<PullResult> {
  const loaded = 'loaded' in options ? options.loaded : await loadManifest(io);
  if (loaded && (loaded.manifest.tenantId !== target.tenantId || loaded.manifest.baseUrl !== target.baseUrl)) {
    throw new ManifestError(
      `The folder holds tenant ${loaded.manifest.tenantId} of ${loaded.manifest.baseUrl} (${MANIFEST_FILE}); pull tenant ${target.tenantId} of ${target.baseUrl} into another folder.`,
    );
  }
  const entries = await io.walk();
  const unsafe = [...(loaded?.problems ?? []), ...entries.flatMap((e) => unsafeEntry(e) ?? [])];
  if (unsafe.length > 0) throw new FolderProblemsError('Nothing was pulled', unsafe);
  const settled = loaded ? await settlePending(client, io, options, loaded) : undefined;
  const previous = settled?.changed ? (await loadManifest(io))?.manifest : loaded?.manifest;
  const existing = new Set(entries.filter((e) => e.type === 'file').map((e) => e.path));
  // A folder pulled before may have a file stat cache; a new one has none to read.
  const cached = previous ? parseCache(await io.statCache?.read()) : new Map<string, string>();
  const folder: FolderAtStart = { existing, cached };

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
    notes.push(
      `the token may not read tenant ${target.tenantId}'s own record (403), so ${unread ? `${unread.file} was left as it was` : `the folder holds no ${TENANT_BASE}.json`}; everything else was pulled`,
    );
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
  // tenant's. A batch's files are written while the next batch's requests run, and a resource counts as pulled once
  // they are. Stopped (Cancel, a failed request or write), the manifest is written with what was written, so it
  // matches the files, and the next pull completes the folder.
  const kept: KeptChange[] = [];
  const written: string[] = [];
  const removed: string[] = [];
  const pulled: PulledResource[] = [];
  const cacheLines: string[] = [];
  const manifestOf = (resources: PulledResource[]): Manifest => ({ ...target, resources, pending: previous?.pending });
  const pulledOne = (outcome: PulledOne): void => {
    before.delete(`${outcome.entry.segment}/${outcome.entry.id}`);
    pulled.push(outcome.entry);
    for (const [file] of outcome.writes) written.push(file);
    removed.push(...outcome.removed);
    kept.push(...outcome.kept);
    if (outcome.cacheLine !== undefined) cacheLines.push(outcome.cacheLine);
  };
  const large = listed.length > LIMITS.workerPull.value;
  const writer = large && io.workerWriter ? io.workerWriter() : writerInTurn(io);
  let writing: BatchWrite | undefined;
  /** Waits for the batch being written; its resources whose files all were are pulled. */
  const finishWrite = async (): Promise<void> => {
    if (!writing) return;
    const { outcomes, written: done } = writing;
    writing = undefined;
    const stopped = await done;
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
      const outcomes = await handledInTurn(
        batch,
        options.concurrency ?? LIMITS.tenantConcurrency.value,
        async (item) => {
          // The tenant is listed only when its record was read.
          const detail =
            item.segment === 'tenants' && tenant ? tenant : await client.get(item.kind, item.id, target.tenantId, call);
          options.onProgress?.(++done, listed.length);
          return detail;
        },
        (item, detail) => {
          const key = `${item.segment}/${item.id}`;
          return pullResource(io, item, bases.get(key) as string, before.get(key), detail, folder);
        },
      );
      await finishWrite();
      // Settled at once, so a failed write waits for finishWrite() without being taken for one nobody handles.
      const files = outcomes.flatMap((outcome) => outcome.writes);
      writing = {
        outcomes,
        written: writer.write(files).then(
          () => undefined,
          (error: unknown) => error,
        ),
      };
    }
    await finishWrite();
  } catch (error) {
    // What is not pulled yet keeps its entry from before: its files are as they were. Nothing written, nothing to say.
    await finishWrite().catch(() => undefined);
    if (pulled.length > 0)
      await writeManifest(io, manifestOf([...pulled, ...before.values(), ...(unread ? [unread] : [])]));
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
  // The pull found every resource: what it did not find as pulled has no line to keep (its files were just written).
  await io.statCache?.write(cacheText(cacheLines));
  kept.sort((a, b) => a.file.localeCompare(b.file));
  return {
    resources: listed.length,
    written,
    kept,
    keptLocalChanges: kept.map(({ file }) => file),
    removed: removed.sort(),
    duplicates: duplicateNames(listed, pulled),
    notes,
  };
}
