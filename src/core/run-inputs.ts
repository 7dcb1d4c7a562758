/**
 * The inputs of the service's two operations (service API 4.2 and 4.3) as a person edits them: a text
 * (prompt_text, or the action's name) and an object (prompt_params or params) typed as JSON. Pure, so what the
 * results panel's form starts with and the extension's check of what the form sends are tested in plain Node.
 */
import type { Operation } from './history';
import { LIMITS } from './limits';
import { isJsonObject, parseJsonObject, type Json, type JsonObject } from './json';

/** The operations of the service itself; a sent request (send_request) has inputs of its own. */
export type ServiceOperation = Exclude<Operation, 'send_request'>;

export const INPUT_FIELDS = {
  test_prompt: { text: 'prompt_text', object: 'prompt_params' },
  execute_action: { text: 'action', object: 'params' },
} as const satisfies Record<ServiceOperation, { text: string; object: string }>;

/** The longest text either field takes: the form's `maxlength`, and the bound on what its page may send (core/limits.ts). */
export const MAX_INPUT_LENGTH = LIMITS.runInput.value;

/** The form's two fields, as typed. */
export interface InputsDraft {
  text: string;
  json: string;
}

export function isServiceOperation(operation: Operation): operation is ServiceOperation {
  return Object.hasOwn(INPUT_FIELDS, operation);
}

/** The form's fields for some inputs: the object pretty-printed, one key per line; none shows as empty. */
export function draftOf(operation: ServiceOperation, inputs: JsonObject): InputsDraft {
  const { text, object } = INPUT_FIELDS[operation];
  const value = inputs[text];
  const params = inputs[object];
  return {
    text: typeof value === 'string' ? value : '',
    json: isJsonObject(params) ? JSON.stringify(params, null, 2) : '',
  };
}

/** What Test Prompt's form starts with: the prompt's last text (else the last one of all), its placeholders with their last values. */
export function promptDraft(
  placeholders: readonly string[],
  last: JsonObject | undefined,
  recentText = '',
): InputsDraft {
  const lastParams = isJsonObject(last?.prompt_params) ? last.prompt_params : {};
  const params = Object.fromEntries(
    placeholders.map((name): [string, Json] => [
      name,
      Object.hasOwn(lastParams, name) ? (lastParams[name] as Json) : '',
    ]),
  );
  const text = typeof last?.prompt_text === 'string' ? last.prompt_text : recentText;
  return draftOf('test_prompt', { prompt_text: text, ...(placeholders.length > 0 ? { prompt_params: params } : {}) });
}

/** The problem with an empty text, in the words the form shows too. */
export function emptyTextProblem(operation: ServiceOperation): string {
  return operation === 'test_prompt'
    ? 'prompt_text must not be empty: type the text to test the prompt with.'
    : "action must not be empty: type the action's name.";
}

/** The inputs a draft stands for; throws a message naming the field to fix. */
export function inputsOf(operation: ServiceOperation, draft: InputsDraft): JsonObject {
  const { text, object } = INPUT_FIELDS[operation];
  if (draft.text.trim() === '') throw new Error(emptyTextProblem(operation));
  const params = parseJsonObject(draft.json, object);
  return { [text]: draft.text, ...(params ? { [object]: params } : {}) };
}
