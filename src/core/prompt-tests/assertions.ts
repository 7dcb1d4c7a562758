/**
 * The assertion engine of prompt test suites: what a case expects of each
 * output field, checked against what the service answered. Pure, so every
 * assertion is unit-tested on its edge cases.
 */
import { closest } from '../closest-name';
import { schemaFailures, schemaProblem } from '../validation';
import { canonical, deeperThan, isJsonObject, MAX_DEPTH, own, type Json, type JsonObject } from '../json';
import { messageOf } from '../text';
import { writtenPattern, type Pattern } from '../pattern';
import { unspeakable, wordCount } from './spoken';

export const ASSERTIONS = [
  'equals',
  'contains',
  'notContains',
  'matches',
  'maxLength',
  'jsonSchema',
  'speakable',
  'maxWords',
] as const;
export type AssertionName = (typeof ASSERTIONS)[number];

export interface Failure {
  field: string;
  /**
   * The assertion that failed; `maxMs` for a run that took too long, `maxP95Ms` for a case whose runs were too slow;
   * `prompt` for a conversation's turn that the wrong prompt answered.
   */
  assertion: AssertionName | 'maxMs' | 'maxP95Ms' | 'prompt' | 'criterion';
  message: string;
  /** For `equals`: the two sides as text, for a diff. */
  expected?: string;
  actual?: string;
}

/** An object holding an assertion name is a set of assertions; any other value must be equal. */
export function isAssertionSet(expectation: Json): expectation is JsonObject {
  return (
    isJsonObject(expectation) && Object.keys(expectation).some((key) => (ASSERTIONS as readonly string[]).includes(key))
  );
}

/** The assertion a key that is none was probably meant to be, such as "equals" for "equal". */
function meant(key: string): string | undefined {
  return closest(key, [...ASSERTIONS]);
}

/**
 * Why an expectation cannot be checked (an unknown assertion, a bad pattern or schema), each with its key.
 * `objectOutput`: the field can hold an object (next_prompt_params), so an object without an assertion is the value it
 * must equal; any other field can never equal an object, so an object expected of it is assertions, however misspelt.
 */
export function expectationProblems(
  expectation: Json,
  objectOutput: boolean,
): Array<{ key?: string; message: string }> {
  if (!isJsonObject(expectation)) return [];
  if (!isAssertionSet(expectation)) return objectOutput ? nearMisses(expectation) : unknownAssertions(expectation);
  return Object.entries(expectation).flatMap(([key, value]) => {
    if (!(ASSERTIONS as readonly string[]).includes(key)) return unknownAssertions({ [key]: value });
    const message = argumentProblem(key as AssertionName, value);
    return message === undefined ? [] : [{ key, message }];
  });
}

const isCount = (value: Json): boolean => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** Why an assertion cannot take `value`: when a suite is read, and again when a check is given it some other way. */
function argumentProblem(assertion: AssertionName, value: Json): string | undefined {
  switch (assertion) {
    case 'equals':
      return undefined;
    case 'contains':
    case 'notContains':
      return typeof value === 'string' ? undefined : `${assertion} takes a text`;
    case 'matches':
      return typeof value === 'string'
        ? problemWith(writtenPattern(value).problem, (problem) => `the pattern ${JSON.stringify(value)} ${problem}`)
        : 'matches takes a text';
    case 'maxLength':
      return isCount(value) ? undefined : 'maxLength takes a whole number of characters';
    case 'maxWords':
      return isCount(value) ? undefined : 'maxWords takes a whole number of words';
    case 'speakable':
      return value === true ? undefined : 'speakable takes true; leave it out to allow Markdown, URLs and emoji';
    case 'jsonSchema':
      return problemWith(schemaProblem(value), (problem) => `not a JSON Schema: ${problem}`);
  }
}

function problemWith(problem: string | undefined, say: (problem: string) => string): string | undefined {
  return problem === undefined ? undefined : say(problem);
}

function unknownAssertions(expectation: JsonObject): Array<{ key?: string; message: string }> {
  if (Object.keys(expectation).length === 0)
    return [{ message: `{} checks nothing: give it assertions (${ASSERTIONS.join(', ')}), or leave the field out` }];
  return Object.keys(expectation).map((key) => {
    const known = meant(key);
    return {
      key,
      message: `"${key}" is no assertion; use one of ${ASSERTIONS.join(', ')}${known === undefined ? '' : ` (did you mean "${known}"?)`}`,
    };
  });
}

/** An expected object whose key is one letter or two from an assertion's name: a typo, more likely than a value. */
function nearMisses(expectation: JsonObject): Array<{ key?: string; message: string }> {
  return Object.keys(expectation).flatMap((key) => {
    const known = meant(key);
    return known === undefined
      ? []
      : [
          {
            key,
            message: `"${key}" is no assertion: did you mean "${known}"? To expect an object with a key "${key}", write it as { "equals": { … } }`,
          },
        ];
  });
}

/** Values as people compare them: strings as they are, anything else as indented JSON. */
export function comparableText(value: Json | undefined): string {
  if (value === undefined) return '(absent)';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** Text to search in: a string as it is, anything else as JSON. */
function textOf(value: Json | undefined): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/** Characters as people count them: code points, so an emoji is one. */
function length(text: string): number {
  return Array.from(text).length;
}

function check(field: string, assertion: AssertionName, expected: Json, actual: Json | undefined): Failure | undefined {
  const fail = (message: string, sides?: { expected: string; actual: string }): Failure => ({
    field,
    assertion,
    message: `${field}: ${message}`,
    ...sides,
  });
  const tooDeep = `nests more than ${MAX_DEPTH} levels of arrays and objects, deeper than a check follows`;
  // A suite's values are never this deep (parseSuite says so); a caller's might be, and an answer may.
  if (deeperThan(expected, MAX_DEPTH)) return fail(`the expected ${assertion} ${tooDeep}`);
  if (deeperThan(actual, MAX_DEPTH)) return fail(tooDeep);
  const problem = argumentProblem(assertion, expected);
  if (problem !== undefined) return fail(problem);
  const text = textOf(actual);
  switch (assertion) {
    case 'equals':
      return canonical(expected) === canonical(actual)
        ? undefined
        : fail('is not equal to the expected value', {
            expected: comparableText(expected),
            actual: comparableText(actual),
          });
    case 'contains':
      return actual !== undefined && text.includes(expected as string)
        ? undefined
        : fail(`does not contain ${JSON.stringify(expected)}; it is ${JSON.stringify(text)}`);
    case 'notContains':
      return actual === undefined || !text.includes(expected as string)
        ? undefined
        : fail(`contains ${JSON.stringify(expected)}, which it must not; it is ${JSON.stringify(text)}`);
    case 'matches': {
      const pattern = writtenPattern(expected as string).pattern as Pattern;
      return actual !== undefined && pattern.test(text)
        ? undefined
        : fail(`does not match ${pattern.shown}; it is ${JSON.stringify(text)}`);
    }
    case 'maxLength':
      return length(text) <= (expected as number)
        ? undefined
        : fail(`is ${length(text)} characters long, more than ${String(expected)}`);
    case 'speakable': {
      const found = unspeakable(text);
      return found.length === 0 ? undefined : fail(`not speakable: ${found.join('; ')}`);
    }
    case 'maxWords': {
      const words = wordCount(text);
      return words <= (expected as number)
        ? undefined
        : fail(`has ${words} words, more than maxWords ${String(expected)}`);
    }
    case 'jsonSchema': {
      let value: unknown = actual;
      if (typeof actual === 'string') {
        try {
          value = JSON.parse(actual);
        } catch (error) {
          return fail(
            `is not JSON, so it cannot satisfy the schema (${messageOf(error)}); it is ${JSON.stringify(actual)}`,
          );
        }
      }
      if (deeperThan(value as Json, MAX_DEPTH)) return fail(tooDeep);
      const failures = schemaFailures(expected, value);
      return failures.length === 0 ? undefined : fail(`does not satisfy the schema: ${failures.join('; ')}`);
    }
  }
}

/** Every way `output` fails what a case expects, field by field. */
export function checkOutput(expect: JsonObject, output: JsonObject): Failure[] {
  const failures: Failure[] = [];
  for (const [field, expectation] of Object.entries(expect)) {
    const actual = own(output, field);
    if (!isAssertionSet(expectation)) {
      const failure = check(field, 'equals', expectation, actual);
      if (failure) failures.push(failure);
      continue;
    }
    for (const assertion of ASSERTIONS) {
      if (!(assertion in expectation)) continue;
      const failure = check(field, assertion, expectation[assertion] as Json, actual);
      if (failure) failures.push(failure);
    }
  }
  return failures;
}
