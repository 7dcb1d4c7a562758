/** Parsing and copying request bodies; the JSON types and accessors are the core's (src/core/json.ts). */
import type { Json } from '../../src/core/json';
import { messageOf } from '../../src/core/text';

/** Parses request text; JSON.parse keeps `__proto__` as a plain own key. */
export function parseJson(text: string): { ok: true; value: Json } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as Json };
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
}

export function deepCopy<T extends Json>(value: T): T {
  return structuredClone(value);
}
