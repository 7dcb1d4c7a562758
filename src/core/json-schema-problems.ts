/**
 * Whether what a user wrote as a JSON Schema (a prompt test's `jsonSchema`) is one json-schema-check.ts can check:
 * only keywords it knows, each with a value of the right shape, patterns that compile, local `$ref`s that resolve
 * and do not loop. An unknown keyword is named rather than ignored: a misspelt `requried` would let anything pass.
 */
import { closest } from './closest-name';
import { child, resolveRef, type SchemaObject } from './json-schema-check';
import { JSON_TYPES } from './json-schema-validation-keywords';
import { isJsonObject } from './json';
import { schemaPattern } from './pattern';

interface Walk {
  root: SchemaObject;
  problems: string[];
  /** Every schema object met, with its JSON Pointer, for the search for `$ref` loops. */
  schemas: Map<SchemaObject, string>;
}

/** Checks the value of one keyword found at `at` (the keyword's JSON Pointer in the schema). */
type Shape = (argument: unknown, at: string, walk: Walk) => void;

/** Why `schema` is not a JSON Schema this extension can check, or undefined when it is one. */
export function jsonSchemaProblem(schema: unknown): string | undefined {
  if (!isJsonObject(schema)) return 'must be a JSON Schema object, such as { "type": "object" }';
  const walk: Walk = { root: schema, problems: [], schemas: new Map() };
  checkSchema(schema, '', walk);
  if (walk.problems.length === 0) {
    const loop = refLoop(walk);
    if (loop !== undefined)
      walk.problems.push(
        `${loop}: its $ref leads back to it without stepping into the value, so the check would never end`,
      );
  }
  return walk.problems.length === 0 ? undefined : walk.problems.join('; ');
}

function checkSchema(node: unknown, at: string, walk: Walk): void {
  if (typeof node === 'boolean') return;
  if (!isJsonObject(node)) {
    walk.problems.push(`${at || '/'}: must be a schema (an object, or true or false), not ${describe(node)}`);
    return;
  }
  walk.schemas.set(node, at);
  for (const [keyword, argument] of Object.entries(node)) {
    // Own shapes only: a keyword such as "constructor" or "__proto__" is unknown, not Object.prototype's.
    const shape = Object.hasOwn(SHAPES, keyword) ? SHAPES[keyword] : undefined;
    if (shape) {
      shape(argument, child(at, keyword), walk);
    } else {
      const known = closest(keyword, Object.keys(SHAPES));
      walk.problems.push(
        `${child(at, keyword)}: unknown keyword${known === undefined ? ' (not one of the draft-07 keywords this check supports)' : `; did you mean "${known}"?`}`,
      );
    }
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  return isJsonObject(value) ? 'an object' : JSON.stringify(value);
}

function regexProblem(pattern: string): string | undefined {
  const { problem } = schemaPattern(pattern);
  return problem === undefined ? undefined : `${JSON.stringify(pattern)} ${problem}`;
}

/** A keyword whose value must pass `test`; `what` says what it must be. */
function must(test: (argument: unknown) => boolean, what: string): Shape {
  return (argument, at, walk) => {
    if (!test(argument)) walk.problems.push(`${at}: must be ${what}, not ${describe(argument)}`);
  };
}

const isNames = (argument: unknown): boolean =>
  Array.isArray(argument) && argument.every((name) => typeof name === 'string');
const anything: Shape = () => undefined;
const text = must((argument) => typeof argument === 'string', 'a text');
const count = must(
  (argument) => Number.isSafeInteger(argument) && (argument as number) >= 0,
  'a whole number, 0 or more',
);
const number = must((argument) => typeof argument === 'number', 'a number');
const names = must(isNames, 'an array of property names');
const subschema: Shape = checkSchema;

function schemaList(argument: unknown, at: string, walk: Walk): void {
  if (!Array.isArray(argument) || argument.length === 0)
    walk.problems.push(`${at}: must be a non-empty array of schemas, not ${describe(argument)}`);
  else argument.forEach((schema, index) => checkSchema(schema, child(at, index), walk));
}

/** An object mapping names to what `each` checks. */
function mapOf(each: Shape, what: string): Shape {
  return (argument, at, walk) => {
    if (!isJsonObject(argument)) walk.problems.push(`${at}: must be an object of ${what}, not ${describe(argument)}`);
    else Object.entries(argument).forEach(([name, value]) => each(value, child(at, name), walk));
  };
}

const schemaMap = mapOf(subschema, 'schemas');

const SHAPES: Record<string, Shape | undefined> = {
  type: (argument, at, walk) => {
    const types = Array.isArray(argument) ? argument : [argument];
    const wrong = types.find((type) => !(JSON_TYPES as readonly unknown[]).includes(type));
    if (types.length > 0 && wrong === undefined) return;
    const known = typeof wrong === 'string' ? closest(wrong, [...JSON_TYPES]) : undefined;
    walk.problems.push(
      `${at}: ${describe(wrong)} is no JSON Schema type; use one of ${JSON_TYPES.join(', ')}${known === undefined ? '' : ` (did you mean "${known}"?)`}`,
    );
  },
  enum: must((argument) => Array.isArray(argument) && argument.length > 0, 'a non-empty array of the allowed values'),
  const: anything,
  $ref: (argument, at, walk) => {
    if (typeof argument !== 'string') return text(argument, at, walk);
    if (!argument.startsWith('#')) {
      walk.problems.push(
        `${at}: ${JSON.stringify(argument)} is not in this schema; only local references such as "#/definitions/name" can be followed`,
      );
      return;
    }
    const target = resolveRef(walk.root, argument);
    if (typeof target !== 'boolean' && !isJsonObject(target))
      walk.problems.push(
        `${at}: ${JSON.stringify(argument)} points at ${target === undefined ? 'nothing' : 'no schema'} in this schema`,
      );
  },
  allOf: schemaList,
  anyOf: schemaList,
  oneOf: schemaList,
  not: subschema,
  if: subschema,
  then: subschema,
  else: subschema,
  definitions: schemaMap,
  $defs: schemaMap,

  required: names,
  properties: schemaMap,
  patternProperties: (argument, at, walk) => {
    schemaMap(argument, at, walk);
    if (!isJsonObject(argument)) return;
    for (const pattern of Object.keys(argument)) {
      const problem = regexProblem(pattern);
      if (problem !== undefined) walk.problems.push(`${child(at, pattern)}: ${problem}`);
    }
  },
  additionalProperties: subschema,
  propertyNames: subschema,
  minProperties: count,
  maxProperties: count,
  dependencies: mapOf(
    (argument, at, walk) => (Array.isArray(argument) ? names(argument, at, walk) : checkSchema(argument, at, walk)),
    'property names or schemas',
  ),
  dependentRequired: mapOf(names, 'property names'),

  items: (argument, at, walk) =>
    Array.isArray(argument) ? schemaList(argument, at, walk) : checkSchema(argument, at, walk),
  additionalItems: subschema,
  minItems: count,
  maxItems: count,
  uniqueItems: must((argument) => typeof argument === 'boolean', 'true or false'),
  contains: subschema,

  minLength: count,
  maxLength: count,
  pattern: (argument, at, walk) => {
    const problem = typeof argument === 'string' ? regexProblem(argument) : `must be a text, not ${describe(argument)}`;
    if (problem !== undefined) walk.problems.push(`${at}: ${problem}`);
  },

  minimum: number,
  maximum: number,
  exclusiveMinimum: number,
  exclusiveMaximum: number,
  multipleOf: must((argument) => typeof argument === 'number' && argument > 0, 'a number greater than 0'),

  // Annotations: they say something about the value but do not constrain it (format included, as by default in draft-07).
  title: text,
  description: text,
  $comment: text,
  $schema: text,
  $id: text,
  format: text,
  contentMediaType: text,
  contentEncoding: text,
  default: anything,
  examples: must(Array.isArray, 'an array'),
  readOnly: must((argument) => typeof argument === 'boolean', 'true or false'),
  writeOnly: must((argument) => typeof argument === 'boolean', 'true or false'),
  deprecated: must((argument) => typeof argument === 'boolean', 'true or false'),
};

/**
 * The first schema whose `$ref` leads back to it through keywords that check the same value (`$ref`, `allOf`, `anyOf`,
 * `oneOf`, `not`, `if`, `then`, `else`, `dependencies`), as `#` and its JSON Pointer. Only a `$ref` can close such a
 * loop: every other keyword leads down the schema's tree.
 */
function refLoop(walk: Walk): string | undefined {
  const state = new Map<unknown, 'open' | 'done'>();
  const visit = (node: unknown): string | undefined => {
    if (!isJsonObject(node) || state.get(node) === 'done') return undefined;
    state.set(node, 'open');
    for (const next of sameValueSchemas(node, walk.root)) {
      const loop = state.get(next) === 'open' ? `#${walk.schemas.get(next as SchemaObject) ?? ''}` : visit(next);
      if (loop !== undefined) return loop;
    }
    state.set(node, 'done');
    return undefined;
  };
  for (const schema of walk.schemas.keys()) {
    const loop = visit(schema);
    if (loop !== undefined) return loop;
  }
  return undefined;
}

function sameValueSchemas(node: SchemaObject, root: SchemaObject): unknown[] {
  const lists = [node.allOf, node.anyOf, node.oneOf].flatMap((list) => (Array.isArray(list) ? list : []));
  const dependencies = isJsonObject(node.dependencies)
    ? Object.values(node.dependencies).filter((d) => !Array.isArray(d))
    : [];
  const ref = typeof node.$ref === 'string' ? [resolveRef(root, node.$ref)] : [];
  return [...ref, ...lists, node.not, node.if, node.then, node.else, ...dependencies];
}
