import * as assert from 'node:assert/strict';
import { failurePlace } from '../../src/core/prompt-tests/places';
import { parseSuite } from '../../src/core/prompt-tests/suite-parser';

describe('prompt test failure places', () => {
  const text = `{
  "prompt": "Order Triage",
  "cases": [
    { "name": "status", "prompt_text": "Where is A-1?", "maxMs": 900, "expect": { "response": { "contains": "A-1" }, "next_prompt_id": 3 } }
  ]
}`;
  const testCase = parseSuite(text).suite?.cases[0];
  const placed = (failure: Parameters<typeof failurePlace>[2]): string => {
    assert.ok(testCase);
    const { offset, length } = failurePlace(text, testCase, failure);
    return text.slice(offset, offset + length);
  };

  it('places a failed assertion on its value in the suite', () => {
    assert.equal(placed({ field: 'response', assertion: 'contains', message: 'no A-1' }), '"A-1"');
    assert.equal(placed({ field: 'next_prompt_id', assertion: 'equals', message: 'was 4' }), '3');
    assert.equal(placed({ field: 'response', assertion: 'maxMs', message: 'took 1200 ms' }), '900');
  });

  it('points at the closest part the case still holds, else at the case', () => {
    assert.equal(placed({ field: 'response', assertion: 'matches', message: 'no match' }), '{ "contains": "A-1" }');
    assert.ok(testCase);
    assert.deepEqual(
      failurePlace(' '.repeat(text.length), testCase, { field: 'response', assertion: 'contains', message: 'no A-1' }),
      testCase.range,
    );
  });
});
