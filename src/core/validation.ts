/**
 * Checks a resource document against its kind's JSON Schema (schemas/) and
 * turns the findings into problems that name the field and the fix.
 */

import type { AnySchemaObject, ErrorObject } from 'ajv';
import type { validators as Validators } from './generated/validators';
import { closest } from './closest-name';
import { parseDocument } from './json-document';
import { jsonSchemaFailures } from './json-schema-check';
import { jsonSchemaProblem } from './json-schema-problems';
import type { Segment } from './resource-kind';
import { isJsonObject } from './json';
import { plural } from './text';

export interface Problem {
  /** JSON path of the offending value (or of the missing or unknown property) in the document. */
  path: Array<string | number>;
  message: string;
  /** The JSON Schema keyword that failed, or `jsonText` for the JSON held in a prompt's strings. */
  keyword: string;
}

/**
 * A resource kind's schema, `apirequest` for an external API request
 * definition file, or `function_defs` for a prompt's function definitions.
 */
export type SchemaName = Segment | 'apirequest' | 'function_defs';

/** The keyword `closed`, which the build expands (scripts/compile-validators.mjs says why and how). */
const CLOSED = 'closed';

let compiled: typeof Validators | undefined;

/** The compiled schemas, evaluated at the first check: a command or an activation that checks nothing skips them. */
function validatorOf(segment: SchemaName): (typeof Validators)[SchemaName] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  compiled ??= (require('./generated/validators') as { validators: typeof Validators }).validators;
  return compiled[segment];
}

export function validateDocument(segment: SchemaName, value: unknown): Problem[] {
  const validate = validatorOf(segment);
  const problems = validate(value) ? [] : problemsOf(validate.errors ?? [], value);
  if (segment === 'ai_prompts' && isJsonObject(value)) {
    problems.push(...jsonTextProblems(value));
  }
  if (segment === 'function_defs' && Array.isArray(value)) {
    problems.push(...duplicateNames(value));
  }
  return problems;
}

/** Why a user's schema (a prompt test's `jsonSchema`) is no schema, or undefined when it is one. */
export function schemaProblem(schema: unknown): string | undefined {
  return jsonSchemaProblem(schema);
}

/** The ways `value` fails a user's schema, each as `<path> <message>`; none when it satisfies it. */
export function schemaFailures(schema: unknown, value: unknown): string[] {
  const problem = jsonSchemaProblem(schema);
  return problem === undefined ? jsonSchemaFailures(schema, value) : [`the schema is invalid: ${problem}`];
}

/** One line for an error message: `3 problems: a; b; and 1 more`. */
export function summarizeProblems(problems: Problem[], max = 5): string {
  if (problems.length === 0) {
    return 'no problems';
  }
  const shown = problems.slice(0, max).map((p) => p.message);
  const rest = problems.length - shown.length;
  return `${plural(problems.length, 'problem')}: ${shown.join('; ')}${rest > 0 ? `; and ${rest} more` : ''}`;
}

function problemsOf(errors: ErrorObject[], document: unknown): Problem[] {
  // A macro keyword adds a summary error of its own beside the errors of what it expands to.
  const problems = errors.filter((error) => error.keyword !== CLOSED).map((error) => toProblem(error, document));
  // A value outside an enum also fails its type when it is of another type; the enum names the fix.
  const enumPaths = new Set(problems.filter((p) => p.keyword === 'enum').map((p) => pathText(p.path)));
  return problems.filter((p) => p.keyword !== 'type' || !enumPaths.has(pathText(p.path)));
}

function toProblem(error: ErrorObject, document: unknown): Problem {
  const path = pathOf(error.instancePath, document);
  const schema = error.parentSchema ?? {};
  const param = (name: string): unknown => (error.params as Record<string, unknown>)[name];
  const problem = (message: string, at = path): Problem => ({
    path: at,
    message: `${pathText(at)}: ${message}`,
    keyword: error.keyword,
  });
  switch (error.keyword) {
    case 'required': {
      const missing = String(param('missingProperty'));
      return problem(`required${fixForMissing(schema, missing)}`, [...path, missing]);
    }
    case 'additionalProperties': {
      const extra = String(param('additionalProperty'));
      const known = closest(extra, Object.keys(record(schema.properties)));
      return problem(`unknown field${known === undefined ? '' : `; did you mean "${known}"?`}`, [...path, extra]);
    }
    case 'enum':
      return problem(`must be one of ${enumChoices(schema)}`);
    case 'type':
      return problem(
        `must be ${String(param('type')).split(',').map(typeName).join(' or ')}, not ${describe(error.data)}`,
      );
    case 'const':
      return problem(`must be ${JSON.stringify(param('allowedValue'))}`);
    case 'minLength':
      return param('limit') === 1
        ? problem('must not be empty')
        : problem(`must be at least ${String(param('limit'))} characters`);
    case 'pattern':
      return problem(`must match the pattern ${String(param('pattern'))}`);
    case 'uniqueItems':
      return problem(
        `must not hold the same item twice (items ${String(param('j'))} and ${String(param('i'))} are equal)`,
      );
    case 'anyOf':
      return problem('is none of the forms it may take');
    // The compiled schemas carry no texts of ajv's (scripts/compile-validators.mjs): each keyword they use is worded above.
    default:
      return problem(`fails ${error.keyword}`);
  }
}

/** `, give the prompt a name`, from the titles of the object and of the missing property. */
function fixForMissing(objectSchema: AnySchemaObject, missing: string): string {
  const owner = stringOf(objectSchema.title);
  const field = stringOf(record(record(objectSchema.properties)[missing]).title);
  if (owner === undefined || field === undefined) {
    return '';
  }
  const lower = (title: string): string =>
    /^[A-Z][A-Z]/.test(title) ? title : title.charAt(0).toLowerCase() + title.slice(1);
  const words = lower(field);
  // "its parameters", "a name", "an id"
  const article = /[^s]s$/.test(words) ? 'its' : /^[aeiou]/i.test(words) ? 'an' : 'a';
  return `, give the ${lower(owner)} ${article} ${words}`;
}

/** `1 (Activated), 2 (Deactivated)`: the enum's values with the readable names of `enumNames`; null goes unsaid. */
function enumChoices(schema: AnySchemaObject): string {
  const values: unknown[] = Array.isArray(schema.enum) ? schema.enum : [];
  const names: unknown[] = Array.isArray(schema.enumNames) ? schema.enumNames : [];
  return values
    .map((value, index) => ({ value, name: stringOf(names[index]) }))
    .filter(({ value }) => value !== null)
    .map(({ value, name }) => (name === undefined ? JSON.stringify(value) : `${JSON.stringify(value)} (${name})`))
    .join(', ');
}

/** A prompt's `settings` and `function_defs` are strings whose content must itself be JSON. */
function jsonTextProblems(prompt: Record<string, unknown>): Problem[] {
  const problems: Problem[] = [];
  const check = (field: string, wantArray: boolean): void => {
    const text = prompt[field];
    if (typeof text !== 'string' || text.trim() === '') {
      return;
    }
    const what = wantArray ? 'JSON array text' : 'JSON text';
    const parsed = parseDocument(text);
    const syntax = parsed.syntaxProblems[0];
    if (syntax) {
      problems.push({
        path: [field],
        message: `${field}: must hold ${what} (${syntax.message} at position ${syntax.offset})`,
        keyword: 'jsonText',
      });
    } else if (wantArray && !Array.isArray(parsed.value)) {
      problems.push({
        path: [field],
        message: `${field}: must hold ${what}, not ${describe(parsed.value)}`,
        keyword: 'jsonText',
      });
    } else if (wantArray) {
      // The definitions inside the text, as the function_defs document checks them.
      for (const problem of validateDocument('function_defs', parsed.value)) {
        problems.push({ path: [field], message: `${field}: ${problem.message}`, keyword: 'jsonText' });
      }
    }
  };
  check('settings', false);
  check('function_defs', true);
  return problems;
}

/** Two function definitions of one name: the AI could not tell which to call. */
function duplicateNames(definitions: unknown[]): Problem[] {
  const first = new Map<string, number>();
  const problems: Problem[] = [];
  definitions.forEach((definition, index) => {
    const name = isJsonObject(definition) ? definition.name : undefined;
    if (typeof name !== 'string') return;
    const earlier = first.get(name);
    if (earlier === undefined) first.set(name, index);
    else
      problems.push({
        path: [index, 'name'],
        keyword: 'uniqueName',
        message: `[${index}].name: "${name}" is already the name of definition [${earlier}]; function names must be unique`,
      });
  });
  return problems;
}

/** ajv's JSON Pointer as path segments; indexes become numbers where the document holds an array. */
function pathOf(pointer: string, document: unknown): Array<string | number> {
  const path: Array<string | number> = [];
  let node = document;
  for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      path.push(Number(key));
      node = node[Number(key)];
    } else {
      path.push(key);
      node = isJsonObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
    }
  }
  return path;
}

/** `configuration.prompt[0].voice`; `document` for the whole document. */
export function pathText(path: ReadonlyArray<string | number>): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') {
      text += `[${segment}]`;
    } else if (/^[A-Za-z_$][\w$]*$/.test(segment)) {
      text += text === '' ? segment : `.${segment}`;
    } else {
      text += `[${JSON.stringify(segment)}]`;
    }
  }
  return text === '' ? 'document' : text;
}

function typeName(type: string): string {
  switch (type) {
    case 'null':
      return 'null';
    case 'integer':
    case 'object':
    case 'array':
      return `an ${type}`;
    default:
      return `a ${type}`;
  }
}

function describe(value: unknown): string {
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return 'an array';
  }
  return typeof value === 'number' ? String(value) : typeName(typeof value);
}

function record(value: unknown): Record<string, unknown> {
  return isJsonObject(value) ? value : {};
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
