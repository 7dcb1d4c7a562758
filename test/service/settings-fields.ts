/**
 * Reading the scripted behaviour a test puts in a prompt's `settings` (routes,
 * a caller's lines, a judge's rules): a malformed script is the test author's
 * mistake, answered 422 naming `settings` and where in it the problem is.
 */

import type { Json, JsonObject } from '../../src/core/json';
import type { HttpError } from './replies';
import { invalidField } from './replies';
import { PLACEHOLDER } from './outgoing-request';

export function settingsError(message: string): HttpError {
  return invalidField('settings', message);
}

/** A case-insensitive regular expression, as every `when` of a script is. */
export function pattern(value: Json | undefined, where: string): RegExp {
  if (typeof value !== 'string' || value === '') throw settingsError(`${where} must be a non-empty regular expression`);
  try {
    return new RegExp(value, 'i');
  } catch (error) {
    throw settingsError(
      `${where} is not a regular expression: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** `pattern` for a field that may be left out. */
export function optionalPattern(value: Json | undefined, where: string): RegExp | undefined {
  return value === undefined ? undefined : pattern(value, where);
}

export function text(value: Json | undefined, where: string): string {
  if (typeof value !== 'string') throw settingsError(`${where} must be a string`);
  return value;
}

/** `{{name}}` becomes `String(params[name])` when that parameter exists; other placeholders stay, as in altered_prompt. */
export function fillPlaceholders(template: string, params: JsonObject): string {
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}
