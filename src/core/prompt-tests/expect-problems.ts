/**
 * What an `expect` may hold, checked where it is written: a case's, a turn's,
 * a simulated call's `stopWhen` and a criterion's. Each takes the outputs of
 * the operation, with their assertions, and some keys of its own.
 */
import type { Json, JsonObject } from '../json';
import { closest } from '../closest-name';
import { expectationProblems } from './assertions';

/** Places a problem at a path of the suite (on the key, when `onKey`). */
export type At = (path: Array<string | number>, message: string, onKey?: boolean) => void;

/**
 * Every key of `value` that is none of `known`, as a problem on the key: a misspelt key is never silently ignored. It
 * names the closest known key, when one is within a typo, and the known keys (`$schema` is allowed, not suggested).
 */
export function unknownKeys(
  at: At,
  path: Array<string | number>,
  value: JsonObject,
  known: readonly string[],
  what: string,
): void {
  const shown = known.filter((key) => key !== '$schema');
  for (const extra of Object.keys(value).filter((key) => !known.includes(key))) {
    const near = closest(extra, shown);
    const guess = near === undefined ? '' : `did you mean "${near}"? `;
    at([...path, extra], `"${extra}" is no field of ${what}; ${guess}use ${shown.join(', ')}`, true);
  }
}

/** The output fields a case may expect, by what the suite tests; the suite schema and a new suite's header name the same. */
export const OUTPUTS = {
  ai_prompts: ['response', 'altered_prompt', 'next_prompt_id', 'next_prompt_params'],
  integrations: ['result', 'status'],
} as const;
/** The outputs that can hold an object; every other output is a text, a number or null. */
const OBJECT_OUTPUTS: readonly string[] = ['next_prompt_params'];

/** A prompt named by its name or its id. */
export function isPromptRef(value: Json | undefined): value is string | number {
  return (typeof value === 'string' && value !== '') || (typeof value === 'number' && Number.isSafeInteger(value));
}

/** Keys an `expect` takes besides the outputs, each with why a value of it is wrong (undefined when right). */
export type ExtraKeys = Readonly<Record<string, (value: Json) => string | undefined>>;

/** The problems of an `expect` at `path`. */
export function checkExpect(
  at: At,
  path: Array<string | number>,
  expect: JsonObject,
  segment: keyof typeof OUTPUTS,
  extra: ExtraKeys = {},
): void {
  const outputs: readonly string[] = OUTPUTS[segment];
  for (const [field, expectation] of Object.entries(expect)) {
    const own = Object.hasOwn(extra, field) ? extra[field] : undefined;
    if (own) {
      const problem = own(expectation);
      if (problem !== undefined) at([...path, field], problem);
      continue;
    }
    if (!outputs.includes(field))
      at(
        [...path, field],
        `"${field}" is no output of ${segment === 'ai_prompts' ? 'test_prompt' : 'execute_action'}; expect one of ${[...outputs, ...Object.keys(extra)].join(', ')}`,
        true,
      );
    for (const problem of expectationProblems(expectation, OBJECT_OUTPUTS.includes(field)))
      at(
        [...path, field, ...(problem.key ? [problem.key] : [])],
        `${field}: ${problem.message}`,
        problem.message.startsWith('"'),
      );
  }
}
