/**
 * Checks a value against a JSON Schema a user wrote (a prompt test's `jsonSchema`). An interpreter of the draft-07
 * keywords such schemas use, so no schema compiler runs in the extension; json-schema-problems.ts first makes sure
 * a schema holds only these keywords, each well formed, which is why the rules below may trust their arguments.
 */
import { canonical, isJsonObject, type Json } from './json';
import { schemaPattern } from './pattern';
import { LIMITS } from './limits';

export type SchemaObject = Record<string, unknown>;

interface Failure {
  /** JSON Pointer of the failing value; empty for the value itself. */
  at: string;
  message: string;
}

interface Place {
  /** The schema object whose keyword is checked, for keywords that read their neighbours. */
  node: SchemaObject;
  at: string;
  check: Check;
}

/** One check of a value: the schema's root, for `$ref`, and the schemas applied so far and at most. */
interface Check {
  root: SchemaObject;
  /** What each `$ref` met points at, resolved once. */
  refs: Map<string, unknown>;
  steps: number;
  limit: number;
}

/**
 * Schemas applied at most: these, plus STEPS_PER_PART for each array, object and scalar of the value. A schema a person
 * writes applies a few to each part; without a bound, a few definitions each an `anyOf` of two `$ref`s to the next
 * double the work at every one, and a schema of twenty lines would check for hours.
 */
const BASE_STEPS = LIMITS.schemaSteps.value;
const STEPS_PER_PART = LIMITS.schemaStepsPerPart.value;

/** The arrays, objects and scalars of a value, counted without recursion. */
function parts(value: unknown): number {
  let count = 0;
  for (const pending = [value]; pending.length > 0; count++) {
    const next = pending.pop();
    const children: unknown[] = Array.isArray(next) ? next : isJsonObject(next) ? Object.values(next) : [];
    for (const child of children) pending.push(child);
  }
  return count;
}

class TooMuchWork extends Error {}

type Rule = (argument: unknown, value: unknown, place: Place) => Failure[];

/**
 * The ways `value` fails `schema` (one json-schema-problems.ts accepts), each as `<JSON Pointer or "value"> <message>`;
 * none when it satisfies it.
 */
export function jsonSchemaFailures(schema: unknown, value: unknown): string[] {
  const check: Check = { root: schema as SchemaObject, refs: new Map(), steps: 0, limit: BASE_STEPS + STEPS_PER_PART * parts(value) };
  try {
    return failuresOf(schema, value, '', check).map((f) => `${f.at === '' ? 'value' : f.at} ${f.message}`);
  } catch (error) {
    if (!(error instanceof TooMuchWork)) throw error;
    return [`value could not be checked: the schema took more than ${check.limit} steps on it; simplify the schema (an anyOf or oneOf of $refs multiplies the work at every level)`];
  }
}

/** The schema a local `$ref` ("#", "#/definitions/a", any JSON Pointer in the fragment) points at, if any. */
export function resolveRef(root: SchemaObject, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  const pointer = decodeURIComponent(ref.slice(1));
  for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return pointer === '' || pointer.startsWith('/') ? node : undefined;
}

function failuresOf(schema: unknown, value: unknown, at: string, check: Check): Failure[] {
  if (++check.steps > check.limit) throw new TooMuchWork();
  if (schema === true) return [];
  if (schema === false) return [{ at, message: 'is not allowed here (the schema is false)' }];
  const node = schema as SchemaObject;
  const place: Place = { node, at, check };
  const failures: Failure[] = [];
  for (const keyword of Object.keys(node)) {
    // Own rules only: a keyword such as "constructor" or "__proto__" must not reach Object.prototype.
    const rule = Object.hasOwn(RULES, keyword) ? RULES[keyword] : undefined;
    if (rule) for (const failure of rule(node[keyword], value, place)) failures.push(failure);
  }
  return failures;
}

function passes(schema: unknown, value: unknown, place: Place): boolean {
  return failuresOf(schema, value, place.at, place.check).length === 0;
}

export const JSON_TYPES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'] as const;

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isJsonObject(value);
    default:
      return typeof value === type;
  }
}

function equal(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => equal(item, b[i]));
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && equal(a[key], b[key]));
  }
  return a === b;
}

/** Characters as JSON Schema counts them: code points, so an emoji is one. */
function length(text: string): number {
  return Array.from(text).length;
}

/** The JSON Pointer `at` and one step down to `key`. */
export function child(at: string, key: string | number): string {
  return `${at}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** Whether `pattern` (one json-schema-problems.ts accepted) is found in `text`, in linear time (pattern.ts says why). */
function found(pattern: unknown, text: string): boolean {
  return schemaPattern(pattern as string).pattern?.test(text) ?? false;
}

const fail = (place: Place, message: string): Failure[] => [{ at: place.at, message }];
const failIf = (failed: boolean, place: Place, message: () => string): Failure[] => (failed ? fail(place, message()) : []);

/** A rule for values of one type; a value of another type passes it (the `type` keyword is the one to say so). */
function forObjects(rule: (argument: unknown, value: Record<string, unknown>, place: Place) => Failure[]): Rule {
  return (argument, value, place) => (isJsonObject(value) ? rule(argument, value, place) : []);
}

function forArrays(rule: (argument: unknown, value: unknown[], place: Place) => Failure[]): Rule {
  return (argument, value, place) => (Array.isArray(value) ? rule(argument, value, place) : []);
}

function forStrings(rule: (argument: unknown, value: string, place: Place) => Failure[]): Rule {
  return (argument, value, place) => (typeof value === 'string' ? rule(argument, value, place) : []);
}

function forNumbers(rule: (argument: number, value: number, place: Place) => Failure[]): Rule {
  return (argument, value, place) => (typeof value === 'number' ? rule(argument as number, value, place) : []);
}

function childFailures(schema: unknown, value: unknown, at: string, place: Place): Failure[] {
  return failuresOf(schema, value, at, place.check);
}

/** Names a property without a schema in `properties` or a matching `patternProperties`. */
function isAdditional(node: SchemaObject, key: string): boolean {
  const properties = isJsonObject(node.properties) ? node.properties : {};
  const patterns = isJsonObject(node.patternProperties) ? Object.keys(node.patternProperties) : [];
  return !Object.hasOwn(properties, key) && !patterns.some((pattern) => found(pattern, key));
}

function missingWhenPresent(required: unknown, value: Record<string, unknown>, property: string, place: Place): Failure[] {
  return (required as string[]).filter((name) => !Object.hasOwn(value, name))
    .map((name) => ({ at: place.at, message: `must have property '${name}' when property '${property}' is present` }));
}

function dependencyFailures(argument: unknown, value: Record<string, unknown>, place: Place): Failure[] {
  return Object.entries(argument as Record<string, unknown>).filter(([property]) => Object.hasOwn(value, property))
    .flatMap(([property, dependency]) => Array.isArray(dependency)
      ? missingWhenPresent(dependency, value, property, place)
      : childFailures(dependency, value, place.at, place));
}

function itemsFrom(start: number, schema: unknown, value: unknown[], place: Place): Failure[] {
  return value.slice(start).flatMap((item, i) => childFailures(schema, item, child(place.at, start + i), place));
}

const RULES: Record<string, Rule | undefined> = {
  type: (argument, value, place) => {
    const types = Array.isArray(argument) ? (argument as string[]) : [argument as string];
    return failIf(!types.some((type) => hasType(value, type)), place, () => `must be ${types.join(' or ')}`);
  },
  enum: (argument, value, place) => failIf(!(argument as unknown[]).some((allowed) => equal(allowed, value)), place,
    () => `must be equal to one of the allowed values (${(argument as unknown[]).map((allowed) => JSON.stringify(allowed)).join(', ')})`),
  const: (argument, value, place) => failIf(!equal(argument, value), place, () => `must be equal to constant ${JSON.stringify(argument)}`),
  $ref: (argument, value, place) => {
    const { refs, root } = place.check;
    if (!refs.has(argument as string)) refs.set(argument as string, resolveRef(root, argument as string));
    return childFailures(refs.get(argument as string), value, place.at, place);
  },
  allOf: (argument, value, place) => (argument as unknown[]).flatMap((schema) => childFailures(schema, value, place.at, place)),
  anyOf: (argument, value, place) => failIf(!(argument as unknown[]).some((schema) => passes(schema, value, place)), place, () => 'must match a schema in anyOf'),
  oneOf: (argument, value, place) => {
    const matching = (argument as unknown[]).filter((schema) => passes(schema, value, place)).length;
    return failIf(matching !== 1, place, () => `must match exactly one schema in oneOf (it matches ${matching})`);
  },
  not: (argument, value, place) => failIf(passes(argument, value, place), place, () => 'must NOT be valid against the schema in "not"'),
  if: (argument, value, place) => {
    const branch = passes(argument, value, place) ? place.node.then : place.node.else;
    return branch === undefined ? [] : childFailures(branch, value, place.at, place);
  },

  required: forObjects((argument, value, place) => (argument as string[]).filter((name) => !Object.hasOwn(value, name))
    .map((name) => ({ at: place.at, message: `must have required property '${name}'` }))),
  properties: forObjects((argument, value, place) => Object.entries(argument as SchemaObject).filter(([key]) => Object.hasOwn(value, key))
    .flatMap(([key, schema]) => childFailures(schema, value[key], child(place.at, key), place))),
  patternProperties: forObjects((argument, value, place) => Object.entries(argument as SchemaObject)
    .flatMap(([pattern, schema]) => Object.keys(value).filter((key) => found(pattern, key))
      .flatMap((key) => childFailures(schema, value[key], child(place.at, key), place)))),
  additionalProperties: forObjects((argument, value, place) => Object.keys(value).filter((key) => isAdditional(place.node, key))
    .flatMap((key) => argument === false
      ? fail(place, `must NOT have additional property '${key}'`)
      : childFailures(argument, value[key], child(place.at, key), place))),
  propertyNames: forObjects((argument, value, place) => Object.keys(value)
    .flatMap((key) => childFailures(argument, key, place.at, place).map((f) => ({ at: place.at, message: `property name '${key}' ${f.message}` })))),
  minProperties: forObjects((argument, value, place) => failIf(Object.keys(value).length < (argument as number), place, () => `must NOT have fewer than ${String(argument)} properties`)),
  maxProperties: forObjects((argument, value, place) => failIf(Object.keys(value).length > (argument as number), place, () => `must NOT have more than ${String(argument)} properties`)),
  dependencies: forObjects(dependencyFailures),
  dependentRequired: forObjects(dependencyFailures),

  items: forArrays((argument, value, place) => Array.isArray(argument)
    ? argument.slice(0, value.length).flatMap((schema, i) => childFailures(schema, value[i], child(place.at, i), place))
    : itemsFrom(0, argument, value, place)),
  additionalItems: forArrays((argument, value, place) => {
    if (!Array.isArray(place.node.items) || value.length <= place.node.items.length) return [];
    const tuple = place.node.items.length;
    return argument === false ? fail(place, `must NOT have more than ${tuple} items`) : itemsFrom(tuple, argument, value, place);
  }),
  minItems: forArrays((argument, value, place) => failIf(value.length < (argument as number), place, () => `must NOT have fewer than ${String(argument)} items`)),
  maxItems: forArrays((argument, value, place) => failIf(value.length > (argument as number), place, () => `must NOT have more than ${String(argument)} items`)),
  uniqueItems: forArrays((argument, value, place) => {
    if (argument !== true) return [];
    // By canonical text, one pass: comparing every pair took minutes on an answer of some thousand items.
    const first = new Map<string, number>();
    for (const [later, item] of value.entries()) {
      const key = canonical(item as Json);
      const earlier = first.get(key);
      if (earlier !== undefined) return fail(place, `must NOT have duplicate items (items ${earlier} and ${later} are equal)`);
      first.set(key, later);
    }
    return [];
  }),
  contains: forArrays((argument, value, place) => failIf(!value.some((item) => passes(argument, item, place)), place, () => 'must contain at least 1 valid item')),

  minLength: forStrings((argument, value, place) => failIf(length(value) < (argument as number), place, () => `must NOT have fewer than ${String(argument)} characters`)),
  maxLength: forStrings((argument, value, place) => failIf(length(value) > (argument as number), place, () => `must NOT have more than ${String(argument)} characters`)),
  pattern: forStrings((argument, value, place) => failIf(!found(argument, value), place, () => `must match pattern "${String(argument)}"`)),

  minimum: forNumbers((limit, value, place) => failIf(value < limit, place, () => `must be >= ${limit}`)),
  maximum: forNumbers((limit, value, place) => failIf(value > limit, place, () => `must be <= ${limit}`)),
  exclusiveMinimum: forNumbers((limit, value, place) => failIf(value <= limit, place, () => `must be > ${limit}`)),
  exclusiveMaximum: forNumbers((limit, value, place) => failIf(value >= limit, place, () => `must be < ${limit}`)),
  // A little tolerance: 0.3 is a multiple of 0.1 to people, though not in binary floating point.
  multipleOf: forNumbers((factor, value, place) => {
    const quotient = value / factor;
    return failIf(Math.abs(quotient - Math.round(quotient)) > 1e-9, place, () => `must be a multiple of ${factor}`);
  }),
};
