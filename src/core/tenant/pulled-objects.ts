/**
 * What a pulled folder holds of some kinds of its tenant, read offline for a
 * delete's reference warning: each resource's JSON file as the folder has it
 * now (edits included), by the manifest's entries, so only those kinds' files
 * are read, never the whole folder.
 */
import { parseJsonObject, type JsonObject } from '../json';
import { isTenantSegment } from '../resources';
import type { TenantSegment } from '../resource-kind';
import { readAll, type FolderIO, type ReadOutcome } from './folder-io';
import type { Manifest } from './manifest';

/** A file's JSON object; undefined for a file missing, unreadable or holding anything else (a plan names those). */
function parsedObject(text: ReadOutcome, file: string): JsonObject | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    return parseJsonObject(text, file);
  } catch {
    return undefined;
  }
}

/** The folder's objects of `kinds`, each with the id its manifest entry gives it. */
export async function pulledObjects(
  io: FolderIO,
  manifest: Manifest,
  kinds: readonly TenantSegment[],
): Promise<Partial<Record<TenantSegment, JsonObject[]>>> {
  const entries = manifest.resources.filter((entry) => (kinds as readonly string[]).includes(entry.segment));
  const texts = await readAll(
    io,
    entries.map((entry) => entry.file),
  );
  const out: Partial<Record<TenantSegment, JsonObject[]>> = {};
  entries.forEach((entry, index) => {
    const values = parsedObject(texts[index], entry.file);
    if (values && isTenantSegment(entry.segment)) (out[entry.segment] ??= []).push({ ...values, id: entry.id });
  });
  return out;
}
