/**
 * How a resource lives in a tenant folder: `<segment>/<name>.json` holding its
 * `id` and editable fields, a prompt's texts in sibling Markdown files, its
 * `settings` and `function_defs` as the JSON they hold, and no credential's
 * value. Reading the files back gives the same values, so an unedited pull
 * plans nothing.
 */
import { createHash } from 'node:crypto';
import type { Json, JsonObject } from '../client';
import { credentialPaths } from '../credentials';
import { formatDocument, parseDocument } from '../json-document';
import { PROMPT_TEXT_FIELDS } from '../prompt-text';
import { editableFields, type ResourceKind } from '../resources';
import { updateBody } from '../save-plan';
import type { FolderIO } from './folder-io';

/** Stands in a file for a credential: a push sends the service's own value there, never this text. */
export const KEPT_ON_SERVICE = '${kept-on-service}';

const JSON_STRING_FIELDS = ['settings', 'function_defs'];

type Path = Array<string | number>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function replaced(value: Json, path: Path, next: Json): Json {
  const [step, ...rest] = path;
  if (step === undefined) return next;
  if (Array.isArray(value) && typeof step === 'number' && step < value.length) return value.map((item, i) => (i === step ? replaced(item, rest, next) : item));
  if (isObject(value) && typeof step === 'string' && Object.prototype.hasOwnProperty.call(value, step)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, key === step ? replaced(item, rest, next) : item]));
  }
  return value;
}

/** The text a prompt's JSON-in-a-string field holds, parsed; the string itself when it holds no JSON. */
function parsedText(value: Json | undefined): Json | undefined {
  if (typeof value !== 'string' || value.trim() === '') return value;
  const { value: parsed, syntaxProblems } = parseDocument(value);
  return syntaxProblems.length === 0 ? (parsed as Json) : value;
}

/** A detail object's editable fields as a folder holds them. */
export function folderValues(kind: ResourceKind, detail: JsonObject): JsonObject {
  let values: Json = updateBody(kind, detail);
  for (const path of credentialPaths(kind.id, detail)) values = replaced(values, path, KEPT_ON_SERVICE);
  const out = values as JsonObject;
  if (kind.id === 'prompt') {
    for (const field of JSON_STRING_FIELDS) if (field in out) out[field] = parsedText(out[field]) ?? null;
  }
  return out;
}

/** A folder value as the service takes it: a prompt's parsed settings and function_defs back to (compact) text. */
export function wireValue(kind: ResourceKind, field: string, value: Json): Json {
  return kind.id === 'prompt' && JSON_STRING_FIELDS.includes(field) && typeof value !== 'string' && value !== null ? JSON.stringify(value) : value;
}

/** JSON with sorted keys, so a reordered object is the same value. */
function canonical(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key] as Json)}`).join(',')}}`;
  return JSON.stringify(value);
}

/** One hash per field: what a manifest keeps of the pulled state, telling which fields changed since. */
export function fieldHashes(values: JsonObject): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([field, value]) => [field, createHash('sha256').update(canonical(value)).digest('hex').slice(0, 16)]));
}

export function sameValue(a: Json | undefined, b: Json | undefined): boolean {
  return a === undefined || b === undefined ? a === b : canonical(a) === canonical(b);
}

/** The Markdown sibling of a resource file that holds one of a prompt's texts. */
export function textFile(base: string, field: string): string {
  return `${base}.${field}.md`;
}

/** The files of one resource: `<base>.json` and, for a prompt, a `<base>.<field>.md` per text it holds. */
export function resourceFiles(kind: ResourceKind, id: number | undefined, values: JsonObject, base: string): Map<string, string> {
  const files = new Map<string, string>();
  const json: JsonObject = id === undefined ? {} : { id };
  for (const [field, value] of Object.entries(values)) {
    if (kind.id === 'prompt' && (PROMPT_TEXT_FIELDS as readonly string[]).includes(field) && typeof value === 'string') {
      files.set(textFile(base, field), value);
    } else {
      json[field] = value;
    }
  }
  files.set(`${base}.json`, formatDocument(json));
  return files;
}

export type ReadResource = { ok: true; id?: number; values: JsonObject } | { ok: false; problem: string };

/** A resource read back from its files: its id (none for a new one) and its values. */
export async function readResource(kind: ResourceKind, io: FolderIO, base: string): Promise<ReadResource> {
  const file = `${base}.json`;
  const text = await io.read(file);
  if (text === undefined) return { ok: false, problem: `${file} is missing` };
  const { value, syntaxProblems } = parseDocument(text);
  const first = syntaxProblems[0];
  if (first) return { ok: false, problem: `${file}: not valid JSON (${first.message} at offset ${first.offset})` };
  if (!isObject(value)) return { ok: false, problem: `${file}: must hold a JSON object` };
  const { id, ...values } = value;
  if (id !== undefined && (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0)) {
    return { ok: false, problem: `${file}: "id" must be the resource's integer id, or be left out for a new resource` };
  }
  const editable = editableFields(kind);
  const unknown = Object.keys(values).filter((field) => !editable.includes(field));
  if (unknown.length > 0) {
    return { ok: false, problem: `${file}: ${unknown.map((f) => `"${f}"`).join(', ')} ${unknown.length > 1 ? 'are not fields' : 'is not a field'} a client may set on ${kind.pluralLabel.toLowerCase()}; editable: ${editable.join(', ')}` };
  }
  if (kind.id === 'prompt') {
    for (const field of PROMPT_TEXT_FIELDS) {
      if (field in values) continue;
      const markdown = await io.read(textFile(base, field));
      if (markdown !== undefined) values[field] = markdown;
    }
  }
  return { ok: true, id, values };
}
