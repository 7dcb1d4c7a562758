/**
 * Which files hold a resource in a tenant folder: `<segment>/<name>.json` holding its `id` and its values, and a
 * prompt's texts in sibling Markdown files; and the resource read back from those files' texts.
 */
import { hash } from 'node:crypto';
import { formatDocument, parseDocument } from '../json-document';
import { isPromptTextField, PROMPT_TEXT_FIELDS, type PromptTextField } from '../prompt-text';
import { editableFields } from '../resources';
import type { ResourceKind } from '../resource-kind';
import { jsonProblem, problemAt, type FolderProblem } from './folder-problems';
import { READ_ONLY, readOnlyHeld } from './read-only';
import { isJsonObject, type Json, type JsonObject } from '../json';

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
export function resourceFiles(
  kind: ResourceKind,
  id: number | undefined,
  values: JsonObject,
  base: string,
): Map<string, string> {
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
export function resourceFromTexts(
  kind: ResourceKind,
  base: string,
  text: string | undefined,
  part: (field: PromptTextField) => string | undefined,
): ReadResource {
  const file = `${base}.json`;
  if (text === undefined) return { ok: false, problem: { file, message: 'the file is missing' } };
  const { value, syntaxProblems } = parseDocument(text);
  const first = syntaxProblems[0];
  if (first) return { ok: false, problem: problemAt(file, text, first.offset, `not valid JSON: ${first.message}`) };
  if (!isJsonObject(value))
    return { ok: false, problem: { file, line: 1, column: 1, message: 'must hold a JSON object' } };
  const { id, ...values } = value;
  if (id !== undefined && (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0)) {
    return {
      ok: false,
      problem: jsonProblem(
        file,
        text,
        ['id'],
        "id: must be the resource's integer id, or be left out for a new resource",
      ),
    };
  }
  const editable = editableFields(kind);
  // The block is no field to set, but a plan must see it to report its edit.
  const unknown = Object.keys(values).find(
    (field) => !editable.includes(field) && !(field === READ_ONLY && readOnlyHeld(kind)),
  );
  if (unknown !== undefined) {
    return {
      ok: false,
      problem: jsonProblem(
        file,
        text,
        [unknown],
        `${unknown}: not a field a client may set on ${kind.pluralLabel.toLowerCase()}; editable: ${editable.join(', ')}`,
        'key',
      ),
    };
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
