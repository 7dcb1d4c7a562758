/** The one test for "a JSON object" (not null, not an array), which every reader of parsed JSON and arguments shares. */
import type { JsonObject } from './client';

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
