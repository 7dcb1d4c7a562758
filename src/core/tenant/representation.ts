/**
 * How a resource lives in a tenant folder: `<segment>/<name>.json` holding its
 * `id`, its editable fields and the read-only references of read-only.ts, a
 * prompt's texts in sibling Markdown files, its `settings` and `function_defs`
 * as the JSON they hold, and no credential's value. Reading the files back
 * gives the same values, so an unedited pull plans nothing.
 */
import { hash } from 'node:crypto';
import { credentialPaths } from '../credentials';
import { formatDocument, parseDocument } from '../json-document';
import { isPromptTextField, PROMPT_TEXT_FIELDS, type PromptTextField } from '../prompt-text';
import { hideUrlPasswords, restoreUrlPasswords } from '../url-credentials';
import { editableFields, kindOfSegment } from '../resources';
import type { ResourceKind, Segment } from '../resource-kind';
import { updateBody } from '../save-plan';
import type { FolderIO } from './folder-io';
import { jsonProblem, problemAt, type FolderProblem } from './folder-problems';
import { READ_ONLY, readOnlyBlock, readOnlyHeld } from './read-only';
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
  if (Array.isArray(value)) return { value: value.map((item, i) => inner(item, Array.isArray(current) ? current[i] : undefined, i)), missing };
  if (isJsonObject(value)) {
    return { value: Object.fromEntries(Object.entries(value).map(([k, item]) => [k, inner(item, isJsonObject(current) ? current[k] : undefined, k)])), missing };
  }
  return { value, missing };
}

/** A folder value as the service takes it: a prompt's parsed settings and function_defs back to (compact) text. */
export function wireValue(kind: ResourceKind, field: string, value: Json): Json {
  return kind.id === 'prompt' && JSON_STRING_FIELDS.includes(field) && typeof value !== 'string' && value !== null ? JSON.stringify(value) : value;
}

/** JSON with sorted keys, so a reordered object is the same value. A primitive (most fields) costs one call. */
function canonical(value: Json): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key] as Json)}`).join(',')}}`;
}

// One-shot hashing: a pull fingerprints every field of every resource, and a Hash object each costs more than the hash.
// The digest's first bytes as a string of their own: a slice of the whole hex digest would keep all of it in memory,
// for every field of every entry a pull holds.
const digest = (text: string): string => hash('sha256', text, 'buffer').toString('hex', 0, 8);

/** A value kept as itself (`=` and its JSON) is short and holds no space or `:`, which separate a manifest's pairs. */
const LITERAL = /^[^\s:]{1,24}$/;

/**
 * What a manifest keeps of one field's value: its canonical JSON itself when short (most fields: a number, null, a
 * short name), else a hash of it. Folders pulled before fingerprints were kept as themselves hold only hashes.
 */
function fingerprint(text: string): string {
  return text.length <= 24 && LITERAL.test(text) ? `=${text}` : digest(text);
}

/** What a manifest keeps of one field's value: its fingerprint. */
export function fieldFingerprint(value: Json): string {
  return fingerprint(canonical(value));
}

/** Whether a field's value is the one a manifest's fingerprint was taken of. */
export function sameFingerprint(kept: string | undefined, value: Json): boolean {
  if (kept === undefined) return false;
  const text = canonical(value);
  return kept.startsWith('=') ? kept === `=${text}` : kept === digest(text);
}

/** One fingerprint per field: what a manifest keeps of the pulled state, telling which fields changed since. */
export function fieldHashes(values: JsonObject): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const field of Object.keys(values)) fields[field] = fieldFingerprint(values[field] as Json);
  return fields;
}

/** What a manifest keeps of a resource's pulled state: a fingerprint per field, and a hash of its files. */
export function pulledState(kind: ResourceKind, id: number, values: JsonObject): { fields: Record<string, string>; files: string } {
  return { fields: fieldHashes(values), files: filesHash(resourceTexts(kind, id, values)) };
}

/** A manifest entry's state: the field fingerprints, and (unless pulled before it was kept) the hash of its files. */
export interface PulledFingerprints {
  fields: Record<string, string>;
  files?: string;
}

/**
 * The fields whose value differs from the pulled state (a field taken out of a file is not sent, so not a change).
 * Values whose files would hash as pulled are unchanged at the cost of one hash, not one per field: a plan or push
 * compares mostly unchanged resources.
 */
export function changedFields(kind: ResourceKind, id: number | undefined, values: JsonObject, pulled: PulledFingerprints): string[] {
  if (pulled.files !== undefined && filesHash(resourceTexts(kind, id, values)) === pulled.files) return [];
  return Object.keys(values).filter((field) => !sameFingerprint(pulled.fields[field], values[field] as Json));
}

export function sameValue(a: Json | undefined, b: Json | undefined): boolean {
  return a === undefined || b === undefined ? a === b : canonical(a) === canonical(b);
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

/** The Markdown sibling of a resource file that holds one of a prompt's texts. */
export function textFile(base: string, field: string): string {
  return `${base}.${field}.md`;
}

/** A resource's file texts: its JSON file's, and a prompt's text parts in PROMPT_TEXT_FIELDS order. */
export interface ResourceTexts {
  json: string;
  parts: Array<readonly [PromptTextField, string]>;
}

/** What a resource's files hold: `id` and the fields in the JSON file, a prompt's texts apart. */
export function resourceTexts(kind: ResourceKind, id: number | undefined, values: JsonObject): ResourceTexts {
  const json: JsonObject = id === undefined ? {} : { id };
  const texts = kind.id === 'prompt';
  for (const field of Object.keys(values)) {
    const value = values[field] as Json;
    if (!(texts && typeof value === 'string' && isPromptTextField(field))) json[field] = value;
  }
  const parts: Array<readonly [PromptTextField, string]> = [];
  if (texts) {
    for (const field of PROMPT_TEXT_FIELDS) {
      const value = values[field];
      if (typeof value === 'string') parts.push([field, value]);
    }
  }
  return { json: formatDocument(json), parts };
}

/** The files of one resource: `<base>.json` and, for a prompt, a `<base>.<field>.md` per text it holds. */
export function resourceFiles(kind: ResourceKind, id: number | undefined, values: JsonObject, base: string): Map<string, string> {
  return new Map(filesOfTexts(resourceTexts(kind, id, values), base));
}

/**
 * A text part's file holds the text and one newline, so that `echo … >>` starts a line of its own and an editor that
 * keeps a final newline changes nothing; reading takes one final newline off (textOfFile).
 */
export function fileOfText(text: string): string {
  return `${text}\n`;
}

/** A text part's text: its file's less one final newline, where there is one (a file pulled before the rule has none). */
export function textOfFile(content: string): string {
  return content.endsWith('\n') ? content.slice(0, -1) : content;
}

/**
 * A folder pulled before text files ended in a newline holds a text that ends in one as it is, so read less its final
 * newline it would differ from what was pulled, and a push would take the newline off the service's text. A text part
 * that is the pulled text but for that newline is taken as the pulled text.
 */
export function keepPulledNewlines(values: JsonObject, parts: readonly string[], pulled: PulledFingerprints): void {
  for (const field of parts) {
    const value = values[field];
    if (typeof value === 'string' && !sameFingerprint(pulled.fields[field], value) && sameFingerprint(pulled.fields[field], `${value}\n`)) values[field] = `${value}\n`;
  }
}

/** A resource's texts as `[file, text]` pairs: the text parts, then the JSON file. */
export function filesOfTexts({ json, parts }: ResourceTexts, base: string): Array<readonly [string, string]> {
  return [...parts.map(([field, text]) => [textFile(base, field), fileOfText(text)] as const), [`${base}.json`, json]];
}

/**
 * A hash of a resource's file texts, each behind its length. Files that still hash as pulled hold the pulled values
 * exactly (the texts are a function of the values, and read back into them), so a plan need not compare their values
 * and a pull of an unchanged service need not hash them again.
 */
export function filesHash(texts: ResourceTexts): string {
  const framed = texts.parts.map(([field, text]) => `${field}\u0000${text.length}:${text}`);
  return hash('sha1', `${texts.json.length}:${texts.json}\u0000${framed.join('\u0000')}`, 'hex');
}

export interface ReadResourceOk {
  ok: true;
  /** None for a new resource. */
  id?: number;
  values: JsonObject;
  /** The JSON file's text, for pointing a problem at its place. */
  text: string;
  /** The prompt texts read from their Markdown files. */
  parts: string[];
}

export type ReadResource = ReadResourceOk | { ok: false; problem: FolderProblem };

/**
 * A resource read back from its files' texts: `text` its JSON file's (undefined when missing), `part` a text part's
 * (undefined when there is none), asked only for the parts its JSON file leaves out.
 */
export function resourceFromTexts(kind: ResourceKind, base: string, text: string | undefined, part: (field: PromptTextField) => string | undefined): ReadResource {
  const file = `${base}.json`;
  if (text === undefined) return { ok: false, problem: { file, message: 'the file is missing' } };
  const { value, syntaxProblems } = parseDocument(text);
  const first = syntaxProblems[0];
  if (first) return { ok: false, problem: problemAt(file, text, first.offset, `not valid JSON: ${first.message}`) };
  if (!isJsonObject(value)) return { ok: false, problem: { file, line: 1, column: 1, message: 'must hold a JSON object' } };
  const { id, ...values } = value;
  if (id !== undefined && (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0)) {
    return { ok: false, problem: jsonProblem(file, text, ['id'], 'id: must be the resource\'s integer id, or be left out for a new resource') };
  }
  const editable = editableFields(kind);
  // The block is no field to set, but a plan must see it to report its edit.
  const unknown = Object.keys(values).find((field) => !editable.includes(field) && !(field === READ_ONLY && readOnlyHeld(kind)));
  if (unknown !== undefined) {
    return { ok: false, problem: jsonProblem(file, text, [unknown], `${unknown}: not a field a client may set on ${kind.pluralLabel.toLowerCase()}; editable: ${editable.join(', ')}`, 'key') };
  }
  const read: string[] = [];
  if (kind.id === 'prompt') {
    for (const field of PROMPT_TEXT_FIELDS) {
      if (field in values) continue;
      const markdown = part(field);
      if (markdown === undefined) continue;
      values[field] = textOfFile(markdown);
      read.push(field);
    }
  }
  return { ok: true, ...(id === undefined ? {} : { id }), values, text, parts: read };
}

/** A resource read back from its files: its id and its values. */
export async function readResource(kind: ResourceKind, io: FolderIO, base: string): Promise<ReadResource> {
  const text = await io.read(`${base}.json`);
  const parts = new Map<PromptTextField, string | undefined>();
  // The text parts the JSON file leaves out, read before they are asked for.
  const parsed = text === undefined || kind.id !== 'prompt' ? undefined : parseDocument(text).value;
  if (isJsonObject(parsed)) {
    for (const field of PROMPT_TEXT_FIELDS) if (!(field in parsed)) parts.set(field, await io.read(textFile(base, field)));
  }
  return resourceFromTexts(kind, base, text, (field) => parts.get(field));
}

/** Whether the resource's files still hold what was pulled (a user change is kept, never overwritten). */
export async function unchangedSincePull(io: FolderIO, entry: PulledFingerprints & { segment: Segment; id: number; file: string }): Promise<boolean> {
  const kind = kindOfSegment(entry.segment);
  const read = await readResource(kind, io, entry.file.replace(/\.json$/, ''));
  if (!read.ok) return false;
  keepPulledNewlines(read.values, read.parts, entry);
  // A field taken out of the file is no change to send, but the file no longer holds what was pulled either.
  return changedFields(kind, read.id, read.values, entry).length === 0 && Object.keys(entry.fields).every((field) => field in read.values);
}

/**
 * Writes a resource's files, removing a text sibling the resource no longer has; `existing` (the folder's files,
 * when known) spares removing what is not there.
 */
export async function writeResource(io: FolderIO, kind: ResourceKind, id: number | undefined, values: JsonObject, base: string, existing?: ReadonlySet<string>): Promise<void> {
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
