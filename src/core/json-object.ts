/** The one test for "a JSON object" (not null, not an array), which every reader of parsed JSON and arguments shares. */
import type { JsonObject } from './client';

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
    throw new Error(`${field} must be a JSON object: ${error instanceof Error ? error.message : String(error)}.`);
  }
  if (!isJsonObject(value)) throw new Error(`${field} must be a JSON object such as {"name": "value"}.`);
  return value;
}
