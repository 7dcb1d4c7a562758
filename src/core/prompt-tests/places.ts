/**
 * Where a failure is written in its suite: the assertion that failed, so an
 * editor's marker and a test peek point at the line to change, not at the
 * case's opening brace.
 */
import { locate, type TextRange } from '../json-document';
import { isAssertionSet } from './assertions';
import type { CaseFailure } from './types';
import type { TestCase } from './suite';

/** The failure's path inside its case's object. */
function pathInCase(testCase: TestCase, failure: CaseFailure): Array<string | number> {
  if (failure.assertion === 'maxMs' || failure.assertion === 'maxP95Ms') return [failure.assertion];
  if (failure.criterion !== undefined) {
    const index = testCase.criteria?.findIndex((c) => c.name === failure.criterion) ?? -1;
    return index < 0 ? ['criteria'] : ['criteria', index];
  }
  const turn = failure.turn !== undefined ? testCase.turns?.[failure.turn - 1] : undefined;
  const at = turn ? ['turns', (failure.turn as number) - 1, 'expect'] : ['expect'];
  if (failure.assertion === 'prompt') return [...at, 'prompt'];
  const expectation = (turn ? turn.expect : testCase.expect)[failure.field];
  return expectation !== undefined && isAssertionSet(expectation)
    ? [...at, failure.field, failure.assertion]
    : [...at, failure.field];
}

/** The failed assertion's value in the suite's text; the case itself when the text no longer holds it there. */
export function failurePlace(text: string, testCase: TestCase, failure: CaseFailure): TextRange {
  const { offset, length } = testCase.range;
  const found = locate(text.slice(offset, offset + length), pathInCase(testCase, failure));
  return found ? { offset: offset + found.offset, length: found.length } : testCase.range;
}
