/**
 * The keywords of a JSON Schema that check a value itself (draft-07's validation keywords: type, enum, const, the
 * bounds of numbers, strings, arrays and objects, pattern, required, uniqueItems). None applies a schema to a part of
 * the value: those, the applicators, are json-schema-check.ts's. Each trusts its argument, which
 * json-schema-problems.ts made sure is well formed.
 */
import { canonical, isJsonObject, type Json } from './json';
import { schemaPattern } from './pattern';

export interface Failure {
  /** JSON Pointer of the failing value; empty for the value itself. */
  at: string;
  message: string;
}

/** A keyword's check of the value at the JSON Pointer `at`, given the keyword's argument. */
export type ValidationRule = (argument: unknown, value: unknown, at: string) => Failure[];

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

/** Whether `pattern` (one json-schema-problems.ts accepted) is found in `text`, in linear time (pattern.ts says why). */
export function found(pattern: unknown, text: string): boolean {
  return schemaPattern(pattern as string).pattern?.test(text) ?? false;
}

export const fail = (at: string, message: string): Failure[] => [{ at, message }];
export const failIf = (failed: boolean, at: string, message: () => string): Failure[] =>
  failed ? fail(at, message()) : [];

/**
 * A rule for values of one type; a value of another type passes it (the `type` keyword is the one to say so). `Where`
 * is what the rule is told of the value's place: its JSON Pointer here, more for an applicator.
 */
export function forObjects<Where>(
  rule: (argument: unknown, value: Record<string, unknown>, where: Where) => Failure[],
): (argument: unknown, value: unknown, where: Where) => Failure[] {
  return (argument, value, where) => (isJsonObject(value) ? rule(argument, value, where) : []);
}

export function forArrays<Where>(
  rule: (argument: unknown, value: unknown[], where: Where) => Failure[],
): (argument: unknown, value: unknown, where: Where) => Failure[] {
  return (argument, value, where) => (Array.isArray(value) ? rule(argument, value, where) : []);
}

function forStrings(rule: (argument: unknown, value: string, at: string) => Failure[]): ValidationRule {
  return (argument, value, at) => (typeof value === 'string' ? rule(argument, value, at) : []);
}

function forNumbers(rule: (argument: number, value: number, at: string) => Failure[]): ValidationRule {
  return (argument, value, at) => (typeof value === 'number' ? rule(argument as number, value, at) : []);
}

export const VALIDATION_KEYWORDS: Record<string, ValidationRule | undefined> = {
  type: (argument, value, at) => {
    const types = Array.isArray(argument) ? (argument as string[]) : [argument as string];
    return failIf(!types.some((type) => hasType(value, type)), at, () => `must be ${types.join(' or ')}`);
  },
  enum: (argument, value, at) =>
    failIf(
      !(argument as unknown[]).some((allowed) => equal(allowed, value)),
      at,
      () =>
        `must be equal to one of the allowed values (${(argument as unknown[]).map((allowed) => JSON.stringify(allowed)).join(', ')})`,
    ),
  const: (argument, value, at) =>
    failIf(!equal(argument, value), at, () => `must be equal to constant ${JSON.stringify(argument)}`),
  required: forObjects((argument, value, at) =>
    (argument as string[])
      .filter((name) => !Object.hasOwn(value, name))
      .map((name) => ({ at, message: `must have required property '${name}'` })),
  ),
  minProperties: forObjects((argument, value, at) =>
    failIf(
      Object.keys(value).length < (argument as number),
      at,
      () => `must NOT have fewer than ${String(argument)} properties`,
    ),
  ),
  maxProperties: forObjects((argument, value, at) =>
    failIf(
      Object.keys(value).length > (argument as number),
      at,
      () => `must NOT have more than ${String(argument)} properties`,
    ),
  ),
  minItems: forArrays((argument, value, at) =>
    failIf(value.length < (argument as number), at, () => `must NOT have fewer than ${String(argument)} items`),
  ),
  maxItems: forArrays((argument, value, at) =>
    failIf(value.length > (argument as number), at, () => `must NOT have more than ${String(argument)} items`),
  ),
  uniqueItems: forArrays((argument, value, at) => {
    if (argument !== true) return [];
    // By canonical text, one pass: comparing every pair grows with the square of the items.
    const first = new Map<string, number>();
    for (const [later, item] of value.entries()) {
      const key = canonical(item as Json);
      const earlier = first.get(key);
      if (earlier !== undefined)
        return fail(at, `must NOT have duplicate items (items ${earlier} and ${later} are equal)`);
      first.set(key, later);
    }
    return [];
  }),
  minLength: forStrings((argument, value, at) =>
    failIf(length(value) < (argument as number), at, () => `must NOT have fewer than ${String(argument)} characters`),
  ),
  maxLength: forStrings((argument, value, at) =>
    failIf(length(value) > (argument as number), at, () => `must NOT have more than ${String(argument)} characters`),
  ),
  pattern: forStrings((argument, value, at) =>
    failIf(!found(argument, value), at, () => `must match pattern "${String(argument)}"`),
  ),

  minimum: forNumbers((limit, value, at) => failIf(value < limit, at, () => `must be >= ${limit}`)),
  maximum: forNumbers((limit, value, at) => failIf(value > limit, at, () => `must be <= ${limit}`)),
  exclusiveMinimum: forNumbers((limit, value, at) => failIf(value <= limit, at, () => `must be > ${limit}`)),
  exclusiveMaximum: forNumbers((limit, value, at) => failIf(value >= limit, at, () => `must be < ${limit}`)),
  // A little tolerance: 0.3 is a multiple of 0.1 to people, though not in binary floating point.
  multipleOf: forNumbers((factor, value, at) => {
    const quotient = value / factor;
    return failIf(Math.abs(quotient - Math.round(quotient)) > 1e-9, at, () => `must be a multiple of ${factor}`);
  }),
};
