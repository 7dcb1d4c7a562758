/**
 * A resource's pulled state as its manifest entry keeps it, and what differs from it: the fields a user changed since
 * the pull.
 */
import type { ResourceKind } from '../resource-kind';
import { fieldHashes, fingerprintsOf, sameFingerprint, type FingerprintText } from './field-fingerprints';
import { filesHash, resourceTexts } from './resource-files';
import type { Json, JsonObject } from '../json';

/** What a manifest keeps of a resource's pulled state: a fingerprint per field, and a hash of its files. */
export function pulledState(
  kind: ResourceKind,
  id: number,
  values: JsonObject,
): { fields: FingerprintText; files: string } {
  return { fields: fieldHashes(values), files: filesHash(resourceTexts(kind, id, values)) };
}

/** A manifest entry's state: the field fingerprints, and (unless pulled before it was kept) the hash of its files. */
export interface PulledFingerprints {
  fields: FingerprintText;
  files?: string;
}

/**
 * The fields whose value differs from the pulled state (a field taken out of a file is not sent, so not a change).
 * Values whose files would hash as pulled are unchanged at the cost of one hash, not one per field: a plan or push
 * compares mostly unchanged resources.
 */
export function changedFields(
  kind: ResourceKind,
  id: number | undefined,
  values: JsonObject,
  pulled: PulledFingerprints,
): string[] {
  if (pulled.files !== undefined && filesHash(resourceTexts(kind, id, values)) === pulled.files) return [];
  const kept = fingerprintsOf(pulled.fields);
  return Object.keys(values).filter((field) => !sameFingerprint(kept.get(field), values[field] as Json));
}

/**
 * A folder pulled before text files ended in a newline holds a text that ends in one as it is, so read less its final
 * newline it would differ from what was pulled, and a push would take the newline off the service's text. A text part
 * that is the pulled text but for that newline is taken as the pulled text.
 */
export function keepPulledNewlines(values: JsonObject, parts: readonly string[], pulled: PulledFingerprints): void {
  if (parts.length === 0) return;
  const kept = fingerprintsOf(pulled.fields);
  for (const field of parts) {
    const value = values[field];
    if (
      typeof value === 'string' &&
      !sameFingerprint(kept.get(field), value) &&
      sameFingerprint(kept.get(field), `${value}\n`)
    )
      values[field] = `${value}\n`;
  }
}
