/** JSON value types and safe accessors for values that came from a request. */

export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads an own property only, so keys such as `__proto__` or `constructor` in
 * input never reach inherited members.
 */
export function own(object: JsonObject, key: string): Json | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** Parses request text; JSON.parse keeps `__proto__` as a plain own key. */
export function parseJson(text: string): { ok: true; value: Json } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as Json };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

export function deepCopy<T extends Json>(value: T): T {
  return structuredClone(value);
}
