/**
 * Request body validation driven by the service's table of kinds (kinds.ts):
 * which fields a client may send, their types, which are required on create,
 * and the values the spec enumerates.
 */

import { isJsonObject, type Json, type JsonObject, own } from '../../src/core/json';
import { deepCopy } from './json';
import { clientFields, type FieldType, type Kind, VOICES } from './kinds';
import { type FieldErrors, paramMissing, unprocessable } from './replies';

export type WriteMode = 'create' | 'update';

const TYPE_MESSAGES: Record<FieldType, string> = {
  string: 'must be a string',
  integer: 'must be an integer',
  number: 'must be a number',
  object: 'must be an object',
  array: 'must be an array',
};

const EMAIL = /^[^@\s]+@[^@\s]+$/;

/** The object under the kind's wrapper key, or 400 as Rails' `params.require` would answer. */
export function unwrap(kind: Kind, body: Json | undefined): JsonObject {
  const inner = isJsonObject(body) ? own(body, kind.wrapperKey) : undefined;
  if (!isJsonObject(inner)) {
    throw paramMissing(kind.wrapperKey);
  }
  return inner;
}

/**
 * The client-settable fields of `input`, copied, or 422 naming every bad
 * field. Unknown and service-owned fields are dropped, like strong params.
 */
export function acceptFields(kind: Kind, input: JsonObject, mode: WriteMode): JsonObject {
  const errors: FieldErrors = {};
  const accepted: JsonObject = {};
  for (const field of clientFields(kind)) {
    const value = own(input, field);
    const message = value === undefined ? absentError(kind, field, mode) : valueError(kind, field, value);
    if (message) {
      errors[field] = [message];
    } else if (value !== undefined) {
      accepted[field] = deepCopy(value);
    }
  }
  if (Object.keys(errors).length > 0) {
    throw unprocessable(errors);
  }
  return accepted;
}

function isType(value: Json, type: FieldType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'object':
      return isJsonObject(value);
    case 'array':
      return Array.isArray(value);
  }
}

function absentError(kind: Kind, field: string, mode: WriteMode): string | undefined {
  return mode === 'create' && kind.fields[field]?.requiredOnCreate ? "can't be blank" : undefined;
}

function valueError(kind: Kind, field: string, value: Json): string | undefined {
  const spec = kind.fields[field];
  if (!spec) {
    return undefined;
  }
  if (value === null) {
    return spec.requiredOnCreate ? "can't be blank" : undefined;
  }
  if (!isType(value, spec.type)) {
    return TYPE_MESSAGES[spec.type];
  }
  if (spec.requiredOnCreate && typeof value === 'string' && value.trim() === '') {
    return "can't be blank";
  }
  if (spec.allowed && !spec.allowed.includes(value)) {
    return 'is not included in the list';
  }
  if (kind.id === 'tenant' && field === 'email' && typeof value === 'string' && !EMAIL.test(value)) {
    return 'is invalid';
  }
  if (kind.id === 'agent' && field === 'configuration' && isJsonObject(value)) {
    return configurationError(value);
  }
  return undefined;
}

/** An agent's `configuration.prompt`: elements carry name, prompt, initial_response and voice. */
function configurationError(configuration: JsonObject): string | undefined {
  const prompts = own(configuration, 'prompt');
  if (prompts === undefined || prompts === null) {
    return undefined;
  }
  if (!Array.isArray(prompts)) {
    return 'prompt must be an array';
  }
  for (const [index, element] of prompts.entries()) {
    const where = `prompt[${index}]`;
    if (!isJsonObject(element)) {
      return `${where} must be an object`;
    }
    const name = own(element, 'name');
    if (typeof name !== 'string' || name.trim() === '') {
      return `${where}.name can't be blank`;
    }
    for (const text of ['prompt', 'initial_response']) {
      const value = own(element, text);
      if (value !== undefined && value !== null && typeof value !== 'string') {
        return `${where}.${text} must be a string`;
      }
    }
    const voice = own(element, 'voice');
    if (voice !== undefined && voice !== null && !VOICES.some((v) => v === voice)) {
      return `${where}.voice is not included in the list`;
    }
  }
  return undefined;
}
