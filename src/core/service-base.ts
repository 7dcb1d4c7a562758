/**
 * What the service last said of a resource: the base a document is edited
 * from, held parsed once beside the document. Every check while typing, every
 * save and every part of the resource reads the same object, so none parses
 * the service's text again; it is frozen, so sharing it cannot let one reader
 * change what another compares against.
 */
import type { Json, JsonObject } from './json';

declare const FROZEN: unique symbol;

/** A detail object made immutable by `serviceBase`: only that function makes one. */
export type ServiceBase = JsonObject & { readonly [FROZEN]: true };

function deepFreeze(value: Json): void {
  // A part already frozen is shared with an earlier base (copies share what they did not change): its inside is too.
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const item of Array.isArray(value) ? value : Object.values(value)) deepFreeze(item);
}

/** The detail object as a base; it is frozen in place, so the caller hands it over and changes it no more. */
export function serviceBase(detail: JsonObject): ServiceBase {
  deepFreeze(detail);
  return detail as ServiceBase;
}
