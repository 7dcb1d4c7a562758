/**
 * A resource's values as a tenant folder holds them: its editable fields, a prompt's `settings` and `function_defs` as
 * the JSON they hold, the read-only references of read-only.ts, and no credential's value; and back to what the
 * service takes, each kept credential resolved to the service's own value.
 */
import { credentialPaths } from '../credentials';
import { parseDocument } from '../json-document';
import { hideUrlPasswords, restoreUrlPasswords } from '../url-credentials';
import type { ResourceKind } from '../resource-kind';
import { updateBody } from '../save-plan';
import { READ_ONLY, readOnlyBlock } from './read-only';
import { sameValue } from './field-fingerprints';
import { isJsonObject, setAt, type Json, type JsonObject, type JsonPath } from '../json';

/** Stands in a file for a credential: a push sends the service's own value there, never this text. */
export const KEPT_ON_SERVICE = '${kept-on-service}';

const JSON_STRING_FIELDS = ['settings', 'function_defs'];

/** The text a prompt's JSON-in-a-string field holds, parsed; the string itself when it holds no JSON. */
function parsedText(value: Json | undefined): Json | undefined {
  if (typeof value !== 'string' || value.trim() === '') return value;
  const { value: parsed, syntaxProblems } = parseDocument(value);
  return syntaxProblems.length === 0 ? (parsed as Json) : value;
}

/**
 * A detail object's editable fields in a folder's shape (a prompt's JSON strings parsed), credentials and all, and
 * the read-only references the flow map needs in their block.
 */
export function folderShape(kind: ResourceKind, detail: JsonObject): JsonObject {
  const out = updateBody(kind, detail);
  if (kind.id === 'prompt') {
    for (const field of JSON_STRING_FIELDS) if (field in out) out[field] = parsedText(out[field]) ?? null;
  }
  const block = readOnlyBlock(kind, detail);
  if (block) out[READ_ONLY] = block;
  return out;
}

/** A detail object's editable fields as a folder holds them: no credential, not even a password inside a URL. */
export function folderValues(kind: ResourceKind, detail: JsonObject): JsonObject {
  let values: Json = folderShape(kind, detail);
  for (const path of credentialPaths(kind.id, detail)) values = setAt(values, path, KEPT_ON_SERVICE);
  return hideUrlPasswords(values, KEPT_ON_SERVICE) as JsonObject;
}

/** A folder value with every kept credential replaced by the service's current value at the same place. */
export interface ResolvedCredentials {
  value: Json;
  /** Where the folder keeps a credential the service does not hold (nothing to send there). */
  missing: JsonPath[];
}

/**
 * `current` is the service's value in the folder's shape (folderShape), so that paths match: a whole kept value
 * takes the service's value at its place, a kept password inside a URL the password of the service's URL there.
 */
export function resolveKept(value: Json, current: Json | undefined, path: JsonPath = []): ResolvedCredentials {
  const whole = resolveKeptValues(value, current, path);
  const urls = restoreUrlPasswords(whole.value, current, KEPT_ON_SERVICE);
  return { value: urls.value, missing: [...whole.missing, ...urls.missing.map((inner) => [...path, ...inner])] };
}

function resolveKeptValues(value: Json, current: Json | undefined, path: JsonPath): ResolvedCredentials {
  if (value === KEPT_ON_SERVICE) {
    const held = current === undefined || current === null || current === '' || current === KEPT_ON_SERVICE;
    return held ? { value, missing: [path] } : { value: current, missing: [] };
  }
  const missing: JsonPath[] = [];
  const inner = (item: Json, held: Json | undefined, step: string | number): Json => {
    const resolved = resolveKeptValues(item, held, [...path, step]);
    missing.push(...resolved.missing);
    return resolved.value;
  };
  if (Array.isArray(value))
    return { value: value.map((item, i) => inner(item, Array.isArray(current) ? current[i] : undefined, i)), missing };
  if (isJsonObject(value)) {
    return {
      value: Object.fromEntries(
        Object.entries(value).map(([k, item]) => [k, inner(item, isJsonObject(current) ? current[k] : undefined, k)]),
      ),
      missing,
    };
  }
  return { value, missing };
}

/** A folder value as the service takes it: a prompt's parsed settings and function_defs back to (compact) text. */
export function wireValue(kind: ResourceKind, field: string, value: Json): Json {
  return kind.id === 'prompt' && JSON_STRING_FIELDS.includes(field) && typeof value !== 'string' && value !== null
    ? JSON.stringify(value)
    : value;
}

/** The fields of a write (`sent` in the folder's form) that the service holds otherwise. */
export function fieldsNotTaken(sent: JsonObject, fields: readonly string[], held: JsonObject): string[] {
  return fields.filter((field) => field in sent && !sameValue(sent[field], held[field]));
}

/**
 * What the folder shows after a write: what the service holds (ids for file references, its formatting), except where
 * it did not take the user's value: that stays, and differs from the manifest, so the next plan shows it again.
 */
export function shownAfterWrite(held: JsonObject, user: JsonObject, refused: readonly string[]): JsonObject {
  const shown: JsonObject = { ...held };
  for (const field of refused) shown[field] = user[field] as Json;
  return shown;
}
