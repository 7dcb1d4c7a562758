/**
 * Checks a value against a JSON Schema a user wrote (a prompt test's `jsonSchema`). An interpreter of the draft-07
 * keywords such schemas use, so no schema compiler runs in the extension; json-schema-problems.ts first makes sure
 * a schema holds only these keywords, each well formed, which is why the rules may trust their arguments. The
 * applicators, which check parts of the value against subschemas, are here; the keywords that check the value
 * itself are json-schema-validation-keywords.ts's.
 */
import { isJsonObject } from './json';
import { LIMITS } from './limits';
import {
  fail,
  failIf,
  forArrays,
  forObjects,
  found,
  VALIDATION_KEYWORDS,
  type Failure,
} from './json-schema-validation-keywords';

export type SchemaObject = Record<string, unknown>;

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

/** A keyword that checks parts of the value, or the value itself, against its subschemas. */
type Applicator = (argument: unknown, value: unknown, place: Place) => Failure[];

/**
 * The ways `value` fails `schema` (one json-schema-problems.ts accepts), each as `<JSON Pointer or "value"> <message>`;
 * none when it satisfies it.
 */
export function jsonSchemaFailures(schema: unknown, value: unknown): string[] {
  const check: Check = {
    root: schema as SchemaObject,
    refs: new Map(),
    steps: 0,
    limit: BASE_STEPS + STEPS_PER_PART * parts(value),
  };
  try {
    return failuresOf(schema, value, '', check).map((f) => `${f.at === '' ? 'value' : f.at} ${f.message}`);
  } catch (error) {
    if (!(error instanceof TooMuchWork)) throw error;
    return [
      `value could not be checked: the schema took more than ${check.limit} steps on it; simplify the schema (an anyOf or oneOf of $refs multiplies the work at every level)`,
    ];
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
    const applicator = Object.hasOwn(APPLICATORS, keyword) ? APPLICATORS[keyword] : undefined;
    if (applicator) for (const failure of applicator(node[keyword], value, place)) failures.push(failure);
    const rule = Object.hasOwn(VALIDATION_KEYWORDS, keyword) ? VALIDATION_KEYWORDS[keyword] : undefined;
    if (rule) for (const failure of rule(node[keyword], value, at)) failures.push(failure);
  }
  return failures;
}

function passes(schema: unknown, value: unknown, place: Place): boolean {
  return failuresOf(schema, value, place.at, place.check).length === 0;
}

/** The JSON Pointer `at` and one step down to `key`. */
export function child(at: string, key: string | number): string {
  return `${at}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
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

function missingWhenPresent(
  required: unknown,
  value: Record<string, unknown>,
  property: string,
  place: Place,
): Failure[] {
  return (required as string[])
    .filter((name) => !Object.hasOwn(value, name))
    .map((name) => ({ at: place.at, message: `must have property '${name}' when property '${property}' is present` }));
}

function dependencyFailures(argument: unknown, value: Record<string, unknown>, place: Place): Failure[] {
  return Object.entries(argument as Record<string, unknown>)
    .filter(([property]) => Object.hasOwn(value, property))
    .flatMap(([property, dependency]) =>
      Array.isArray(dependency)
        ? missingWhenPresent(dependency, value, property, place)
        : childFailures(dependency, value, place.at, place),
    );
}

function itemsFrom(start: number, schema: unknown, value: unknown[], place: Place): Failure[] {
  return value.slice(start).flatMap((item, i) => childFailures(schema, item, child(place.at, start + i), place));
}

const APPLICATORS: Record<string, Applicator | undefined> = {
  $ref: (argument, value, place) => {
    const { refs, root } = place.check;
    if (!refs.has(argument as string)) refs.set(argument as string, resolveRef(root, argument as string));
    return childFailures(refs.get(argument as string), value, place.at, place);
  },
  allOf: (argument, value, place) =>
    (argument as unknown[]).flatMap((schema) => childFailures(schema, value, place.at, place)),
  anyOf: (argument, value, place) =>
    failIf(
      !(argument as unknown[]).some((schema) => passes(schema, value, place)),
      place.at,
      () => 'must match a schema in anyOf',
    ),
  oneOf: (argument, value, place) => {
    const matching = (argument as unknown[]).filter((schema) => passes(schema, value, place)).length;
    return failIf(matching !== 1, place.at, () => `must match exactly one schema in oneOf (it matches ${matching})`);
  },
  not: (argument, value, place) =>
    failIf(passes(argument, value, place), place.at, () => 'must NOT be valid against the schema in "not"'),
  if: (argument, value, place) => {
    const branch = passes(argument, value, place) ? place.node.then : place.node.else;
    return branch === undefined ? [] : childFailures(branch, value, place.at, place);
  },

  properties: forObjects((argument, value, place) =>
    Object.entries(argument as SchemaObject)
      .filter(([key]) => Object.hasOwn(value, key))
      .flatMap(([key, schema]) => childFailures(schema, value[key], child(place.at, key), place)),
  ),
  patternProperties: forObjects((argument, value, place) =>
    Object.entries(argument as SchemaObject).flatMap(([pattern, schema]) =>
      Object.keys(value)
        .filter((key) => found(pattern, key))
        .flatMap((key) => childFailures(schema, value[key], child(place.at, key), place)),
    ),
  ),
  additionalProperties: forObjects((argument, value, place) =>
    Object.keys(value)
      .filter((key) => isAdditional(place.node, key))
      .flatMap((key) =>
        argument === false
          ? fail(place.at, `must NOT have additional property '${key}'`)
          : childFailures(argument, value[key], child(place.at, key), place),
      ),
  ),
  propertyNames: forObjects((argument, value, place) =>
    Object.keys(value).flatMap((key) =>
      childFailures(argument, key, place.at, place).map((f) => ({
        at: place.at,
        message: `property name '${key}' ${f.message}`,
      })),
    ),
  ),
  dependencies: forObjects(dependencyFailures),
  dependentRequired: forObjects(dependencyFailures),

  items: forArrays((argument, value, place) =>
    Array.isArray(argument)
      ? argument
          .slice(0, value.length)
          .flatMap((schema, i) => childFailures(schema, value[i], child(place.at, i), place))
      : itemsFrom(0, argument, value, place),
  ),
  additionalItems: forArrays((argument, value, place) => {
    if (!Array.isArray(place.node.items) || value.length <= place.node.items.length) return [];
    const tuple = place.node.items.length;
    return argument === false
      ? fail(place.at, `must NOT have more than ${tuple} items`)
      : itemsFrom(tuple, argument, value, place);
  }),
  contains: forArrays((argument, value, place) =>
    failIf(!value.some((item) => passes(argument, item, place)), place.at, () => 'must contain at least 1 valid item'),
  ),
};
