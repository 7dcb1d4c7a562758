/**
 * A suite's `variants` (contract: "Variant lab"): named versions of its prompt, each some of the prompt's fields
 * replaced, written in the suite or one field read from a file beside it. Checked against the prompt's schema as
 * they are read, so a misspelt field or a wrong type stops the run before anything is sent.
 */
import type { TextRange } from '../json-document';
import { isJsonObject, type Json, type JsonObject } from '../json';
import { validateDocument } from '../validation';
import { editableFields, kindById } from '../resources';
import { unknownKeys, type At } from '../prompt-tests/expect-problems';

/** What the base column is called; no variant may take its name. */
export const BASE_NAME = 'base';

export const VARIANT_KEYS: readonly string[] = ['name', 'fields', 'file', 'field'];

const PROMPT = kindById('prompt');

/** A field a variant cannot replace: one the service owns (the resource table says which), or the name its copy gets. */
function kept(field: string): boolean {
  return field === 'name' || (Object.hasOwn(PROMPT.fields, field) && !editableFields(PROMPT).includes(field));
}

export interface VariantSpec {
  name: string;
  /** The fields it replaces; for a `file` variant, filled once the file is read (variant-files.ts). */
  fields?: JsonObject;
  /** A file relative to the suite whose text is the value of `field`. */
  file?: string;
  field?: string;
  /** Where the variant is in the suite, and where its `file` is named. */
  range: TextRange;
  fileRange?: TextRange;
}

/** A variant ready to run: every field it replaces known. */
export interface Variant {
  name: string;
  fields: JsonObject;
}

/** A prompt's fields a variant may read from a file: its texts (the schema's string fields, less its name). */
export const TEXT_FIELDS: readonly string[] = [
  'description',
  'user_prompt',
  'system',
  'assistant',
  'user_name',
  'ai_model',
  'settings',
  'function_defs',
  'initial_announcement',
  'initial_response',
];

/** The problems of `fields` as a prompt's, each at its field. */
function fieldProblems(at: At, path: Array<string | number>, fields: JsonObject): void {
  for (const field of Object.keys(fields).filter(kept))
    at(
      [...path, field],
      `a variant cannot change the prompt's ${field}: its copy keeps the tenant and gets a name of its own`,
      true,
    );
  const checked = Object.fromEntries(Object.entries(fields).filter(([f]) => !kept(f)));
  for (const problem of validateDocument('ai_prompts', { name: 'variant', ...checked })) {
    const onKey = problem.keyword === 'additionalProperties';
    at([...path, ...problem.path], `${problem.message} (a variant's fields are the prompt's)`, onKey);
  }
}

/** One variant at `variants[index]`, or undefined after naming its problems. */
function parseVariant(
  at: At,
  index: number,
  item: Json,
  names: Set<string>,
  located: Located,
): VariantSpec | undefined {
  const path = ['variants', index];
  if (!isJsonObject(item)) {
    at(
      path,
      'a variant is { "name": …, "fields": { … } } or { "name": …, "file": "<path>", "field": "<prompt field>" }',
    );
    return undefined;
  }
  const before = located.count();
  unknownKeys(at, path, item, VARIANT_KEYS, 'a variant');
  const { name, fields, file, field } = item;
  if (typeof name !== 'string' || name.trim() === '') at([...path, 'name'], 'a variant needs a name: a non-empty text');
  else if (name === BASE_NAME)
    at([...path, 'name'], `"${BASE_NAME}" names the prompt as it is; give the variant another name`);
  else if (names.has(name)) at([...path, 'name'], `another variant is named "${name}"; give each a name of its own`);
  else names.add(name);
  if (fields !== undefined && file !== undefined)
    at([...path, 'file'], 'a variant has "fields" or "file" and "field", not both', true);
  else if (fields === undefined && file === undefined)
    at(
      path,
      'a variant needs "fields" (the prompt fields it replaces) or "file" and "field" (a text read from a file)',
    );
  if (fields !== undefined) {
    if (!isJsonObject(fields) || Object.keys(fields).length === 0)
      at(
        [...path, 'fields'],
        'fields must be an object of prompt fields and their values, e.g. { "temparature": 0.2 }',
      );
    else fieldProblems(at, [...path, 'fields'], fields);
  }
  if (file !== undefined && (typeof file !== 'string' || file.trim() === ''))
    at([...path, 'file'], 'file must be a path relative to the suite, e.g. "variants/greeting-b.md"');
  if (file !== undefined && field === undefined)
    at(path, `a variant read from a file names the field it holds: "field": one of ${TEXT_FIELDS.join(', ')}`);
  if (field !== undefined && (typeof field !== 'string' || !TEXT_FIELDS.includes(field)))
    at([...path, 'field'], `field must be the prompt text the file holds: one of ${TEXT_FIELDS.join(', ')}`);
  if (located.count() > before) return undefined;
  return {
    name: name as string,
    ...(fields === undefined ? {} : { fields: fields as JsonObject }),
    ...(typeof file === 'string' ? { file, field: field as string } : {}),
    range: located.range(path),
    ...(typeof file === 'string' ? { fileRange: located.range([...path, 'file']) } : {}),
  };
}

/** How the parser places what it reads: how many problems so far, and where a path's value is. */
export interface Located {
  count(): number;
  range(path: Array<string | number>): TextRange;
}

/** A suite's `variants`, or none after naming their problems; only a prompt's suite may have them. */
export function parseVariants(at: At, value: Json | undefined, segment: string, located: Located): VariantSpec[] {
  if (value === undefined) return [];
  if (segment !== 'ai_prompts') {
    at(['variants'], 'variants are versions of a prompt: only a suite of a "prompt" has them');
    return [];
  }
  if (!Array.isArray(value) || value.length === 0) {
    at(['variants'], 'variants must be a list of at least one variant: { "name": …, "fields": { … } }');
    return [];
  }
  const names = new Set<string>();
  return value.flatMap((item, index) => parseVariant(at, index, item, names, located) ?? []);
}
