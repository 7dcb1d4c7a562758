/**
 * One resource of a pull: its files from the service's detail. A file that
 * already holds what it would be written with is left alone (a pull into an
 * unchanged folder costs its reads, or only its stats when the file stat
 * cache vouches for them), and one the user changed since the last pull is
 * merged: the user's fields stay, the others take the service's values.
 */
import type { Json, JsonObject } from '../json';
import { PROMPT_TEXT_FIELDS, type PromptTextField } from '../prompt-text';
import type { ResourceKind } from '../resource-kind';
import { cacheLine, settled, statsDigest } from './file-stat-cache';
import { readAll, type FolderIO } from './folder-io';
import type { PulledResource } from './manifest';
import { READ_ONLY } from './read-only';
import { fieldHashes } from './field-fingerprints';
import { folderValues } from './folder-values';
import { changedFields, keepPulledNewlines } from './pulled-state';
import { filesHash, filesOfTexts, resourceFiles, resourceTexts, textFile } from './resource-files';
import { readResource } from './representation';
import { nameOf, type Listed } from './tenant-listing';

export interface KeptChange {
  file: string;
  fields: string[];
}

export interface PulledOne {
  entry: PulledResource;
  /** The files to write, which the pull hands to the folder's batch writer with the rest of the batch's. */
  writes: Array<readonly [string, string]>;
  removed: string[];
  kept: KeptChange[];
  /** The file stat cache's line of its files, when they were all there as pulled and had settled. */
  cacheLine?: string;
}

/** The folder as the pull found it: its files, and the file stat cache's lines of them, by JSON file. */
export interface FolderAtStart {
  existing: ReadonlySet<string>;
  cached: ReadonlyMap<string, string>;
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
async function mergeResource(
  io: FolderIO,
  item: Listed,
  base: string,
  old: PulledResource,
  service: JsonObject,
): Promise<{ writes: Array<readonly [string, string]>; removals: string[]; kept: KeptChange[] }> {
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

/**
 * The files of a resource in the order the stat cache keeps their stats (its JSON file, then its parts in
 * PROMPT_TEXT_FIELDS order), with those parts, when every one is in the folder already.
 */
function cachedFiles(
  files: ReadonlyArray<readonly [string, string]>,
  base: string,
  existing: ReadonlySet<string>,
): { files: string[]; parts: PromptTextField[] } | undefined {
  if (!existing.has(`${base}.json`)) return undefined;
  const names = new Set(files.map(([file]) => file));
  const parts = PROMPT_TEXT_FIELDS.filter((field) => names.has(textFile(base, field)));
  const ordered = [`${base}.json`, ...parts.map((field) => textFile(base, field))];
  const all = ordered.length === files.length && ordered.every((file) => existing.has(file));
  return all ? { files: ordered, parts } : undefined;
}

/** Whether the folder held any file a resource at `base` may have when the pull began. */
function hasFilesOf(kind: ResourceKind, base: string, existing: ReadonlySet<string>): boolean {
  if (existing.has(`${base}.json`)) return true;
  return kind.id === 'prompt' && PROMPT_TEXT_FIELDS.some((field) => existing.has(textFile(base, field)));
}

/** The file stat cache's line of a resource's files as they are now, and whether they had all settled. */
async function statLine(
  io: FolderIO,
  file: string,
  filesHashed: string,
  files: ReturnType<typeof cachedFiles>,
): Promise<{ line: string; settled: boolean } | undefined> {
  if (!files || !io.fileStats || !io.statCache) return undefined;
  const takenAt = Date.now();
  const stats = await io.fileStats(files.files);
  const text = statsDigest(stats);
  if (text === undefined) return undefined;
  const allSettled = stats.every((stat) => stat !== undefined && settled(stat, takenAt));
  return { line: cacheLine(file, filesHashed, files.parts, text), settled: allSettled };
}

/** One resource's files from its detail, and its manifest entry. */
export async function pullResource(
  io: FolderIO,
  item: Listed,
  base: string,
  old: PulledResource | undefined,
  detail: JsonObject,
  folder: FolderAtStart,
): Promise<PulledOne> {
  const { existing } = folder;
  const values = folderValues(item.kind, detail);
  const texts = resourceTexts(item.kind, item.id, values);
  const hashed = filesHash(texts);
  const file = `${base}.json`;
  // What the service holds is what was pulled last time: its fields' fingerprints are known already.
  const fields = old?.files === hashed ? old.fields : fieldHashes(values);
  const entry: PulledResource = {
    segment: item.segment,
    id: item.id,
    file,
    name: nameOf(detail, item.id),
    files: hashed,
    fields,
  };
  const files = filesOfTexts(texts, base);
  // New to the folder (a first pull's every resource): nothing to read, compare or remove, and nothing to wait for.
  if (!old && !hasFilesOf(item.kind, base, existing)) return { entry, writes: files, removed: [], kept: [] };
  const stale = PROMPT_TEXT_FIELDS.map((field) => textFile(base, field)).filter(
    (part) => !files.some(([f]) => f === part) && existing.has(part),
  );
  // Stats taken before the files are read, as a scan takes them (scan-stat-cache.ts): a stat never vouches for newer
  // content. Files whose stats are those cached when they were found as pulled, while the service's texts still hash
  // as those pulled, hold what would be written: they are neither read nor written.
  const stat = await statLine(io, file, hashed, cachedFiles(files, base, existing));
  if (stat && stale.length === 0 && old?.files === hashed && folder.cached.get(file) === stat.line) {
    return { entry, writes: [], removed: [], kept: [], cacheLine: stat.line };
  }
  const present = files.filter(([f]) => existing.has(f));
  const outcomes =
    present.length === 0
      ? []
      : await readAll(
          io,
          present.map(([f]) => f),
        );
  const onDisk = new Map(present.map(([f], index) => [f, outcomes[index]] as const));
  const differ = files.filter(([f, text]) => {
    const outcome = onDisk.get(f);
    if (outcome instanceof Error) throw outcome;
    return outcome !== text;
  });
  if (differ.length === 0 && stale.length === 0) {
    return { entry, writes: [], removed: [], kept: [], ...(stat?.settled ? { cacheLine: stat.line } : {}) };
  }
  const change = old ? await mergeResource(io, item, base, old, values) : { writes: differ, removals: stale, kept: [] };
  for (const part of change.removals) await io.remove(part);
  return { entry, writes: change.writes, removed: change.removals, kept: change.kept };
}
