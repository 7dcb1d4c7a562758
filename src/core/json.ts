/** JSON values and the small operations on them that every reader of parsed JSON and arguments shares. */
import { messageOf } from './text';
import { LIMITS } from './limits';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A step into an array (an index) or an object (a key). */
export type JsonPath = ReadonlyArray<string | number>;

/** The one test for "a JSON object": not null, not an array. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON object a person typed as `field`; empty text means none. Throws a message naming the field and the problem. */
export function parseJsonObject(text: string, field: string): JsonObject | undefined {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${field} must be a JSON object: ${messageOf(error)}.`);
  }
  if (!isJsonObject(value)) throw new Error(`${field} must be a JSON object such as {"name": "value"}.`);
  return value;
}

/** An own property only, so keys such as `__proto__` or `constructor` in input never reach inherited members. */
export function own(object: JsonObject, key: string): Json | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** The value at `path`, or undefined where it leads nowhere; only own keys count. */
export function valueAt(value: Json | undefined, path: JsonPath): Json | undefined {
  let current = value;
  for (const step of path) {
    if (Array.isArray(current) && typeof step === 'number') current = current[step];
    else if (isJsonObject(current) && typeof step === 'string') current = own(current, step);
    else return undefined;
  }
  return current;
}

/** A copy of `value` with the value at `path` replaced; where the path does not exist the copy equals `value`, for a path is never created. */
export function setAt(value: Json, path: JsonPath, next: Json): Json {
  const [step, ...rest] = path;
  if (step === undefined) return next;
  if (Array.isArray(value) && typeof step === 'number' && step < value.length)
    return value.map((item, i) => (i === step ? setAt(item, rest, next) : item));
  if (isJsonObject(value) && typeof step === 'string' && Object.hasOwn(value, step)) {
    // fromEntries defines own keys, so a "__proto__" key stays data and never becomes the copy's prototype.
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, key === step ? setAt(item, rest, next) : item]),
    );
  }
  return value;
}

/** One text for equal values, keys sorted: two values are deeply equal when their canonical texts are. */
export function canonical(value: Json | undefined): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isJsonObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}

/** Deeper than any suite or answer means to nest (core/limits.ts jsonDepth). */
export const MAX_DEPTH = LIMITS.jsonDepth.value;

/** Whether `value` nests arrays and objects more than `limit` levels deep; found without recursion, so at any depth. */
export function deeperThan(value: Json | undefined, limit: number): boolean {
  const pending: Array<{ value: Json | undefined; depth: number }> = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const children = Array.isArray(next.value)
      ? next.value
      : isJsonObject(next.value)
        ? Object.values(next.value)
        : undefined;
    if (children === undefined) continue;
    if (next.depth === limit) return true;
    for (const child of children) pending.push({ value: child, depth: next.depth + 1 });
  }
  return false;
}
