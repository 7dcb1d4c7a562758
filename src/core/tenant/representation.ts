/**
 * How a resource lives in a tenant folder, read and written through the folder's IO: the files of resource-files.ts
 * holding the values of folder-values.ts. Reading the files back gives the same values, so an unedited pull plans
 * nothing.
 */
import { parseDocument } from '../json-document';
import { PROMPT_TEXT_FIELDS, type PromptTextField } from '../prompt-text';
import { kindOfSegment } from '../resources';
import type { ResourceKind, Segment } from '../resource-kind';
import type { FolderIO } from './folder-io';
import { changedFields, keepPulledNewlines, type PulledFingerprints } from './pulled-state';
import { fingerprintsOf } from './field-fingerprints';
import { resourceFiles, resourceFromTexts, textFile, type ReadResource } from './resource-files';
import { isJsonObject, type JsonObject } from '../json';

/** A resource read back from its files: its id and its values. */
export async function readResource(kind: ResourceKind, io: FolderIO, base: string): Promise<ReadResource> {
  const text = await io.read(`${base}.json`);
  const parts = new Map<PromptTextField, string | undefined>();
  // The text parts the JSON file leaves out, read before they are asked for.
  const parsed = text === undefined || kind.id !== 'prompt' ? undefined : parseDocument(text).value;
  if (isJsonObject(parsed)) {
    for (const field of PROMPT_TEXT_FIELDS)
      if (!(field in parsed)) parts.set(field, await io.read(textFile(base, field)));
  }
  return resourceFromTexts(kind, base, text, (field) => parts.get(field));
}

/** Whether the resource's files still hold what was pulled (a user change is kept, never overwritten). */
export async function unchangedSincePull(
  io: FolderIO,
  entry: PulledFingerprints & { segment: Segment; id: number; file: string },
): Promise<boolean> {
  const kind = kindOfSegment(entry.segment);
  const read = await readResource(kind, io, entry.file.replace(/\.json$/, ''));
  if (!read.ok) return false;
  keepPulledNewlines(read.values, read.parts, entry);
  // A field taken out of the file is no change to send, but the file no longer holds what was pulled either.
  return (
    changedFields(kind, read.id, read.values, entry).length === 0 &&
    [...fingerprintsOf(entry.fields).keys()].every((field) => field in read.values)
  );
}

/**
 * Writes a resource's files, removing a text sibling the resource no longer has; `existing` (the folder's files,
 * when known) spares removing what is not there.
 */
export async function writeResource(
  io: FolderIO,
  kind: ResourceKind,
  id: number | undefined,
  values: JsonObject,
  base: string,
  existing?: ReadonlySet<string>,
): Promise<void> {
  const files = resourceFiles(kind, id, values, base);
  for (const [file, text] of files) await io.write(file, text);
  if (kind.id === 'prompt') {
    for (const field of PROMPT_TEXT_FIELDS) {
      const part = textFile(base, field);
      if (!files.has(part) && (!existing || existing.has(part))) await io.remove(part);
    }
  }
}

export async function removeResource(io: FolderIO, kind: ResourceKind, base: string): Promise<void> {
  await io.remove(`${base}.json`);
  if (kind.id === 'prompt') for (const field of PROMPT_TEXT_FIELDS) await io.remove(textFile(base, field));
}
