import * as assert from 'node:assert/strict';
import { redactor } from '../../src/cli/failure';

describe('the command-line tool: redacting the token', () => {
  const LONG = '3f9a0c1e7b2d4c6a8e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b';

  it('hides a long token wherever it is, also glued to other characters', () => {
    const hide = redactor(LONG);
    for (const text of [LONG, `Bearer ${LONG}`, `token=${LONG}&next`, `"${LONG}"`, `(${LONG}).`, `Echo (gpt-4o-mini): ${LONG}`, `${LONG}\n${LONG}`, `line\\n${LONG}`, `Bearer%20${LONG}`, `x${LONG}y`]) {
      const hidden = hide(text);
      assert.ok(!hidden.includes(LONG), hidden);
      assert.match(hidden, /\[redacted\]/);
    }
  });

  it('leaves a short token inside numbers and words alone, and hides it where it stands alone', () => {
    const hide = redactor('1');
    assert.equal(hide('Prompt tests: 10 passed, 21 failed, 1.5 s, 0.1 s, v2.1.0, id1, 1x'), 'Prompt tests: 10 passed, 21 failed, 1.5 s, 0.1 s, v2.1.0, id1, 1x');
    assert.equal(hide('the token is 1; (1) "1" 1.'), 'the token is [redacted]; ([redacted]) "[redacted]" [redacted].');
    assert.equal(hide('an escaped line break: line\\n1\\t1'), 'an escaped line break: line\\n[redacted]\\t[redacted]', 'the n of \\n is no letter of a word');
    const word = redactor('pass');
    assert.equal(word('passed, PASS, passes, bypass, a pass'), 'passed, PASS, passes, bypass, a [redacted]');
  });

  it('needs no boundary at an edge that is no word character', () => {
    const hide = redactor('ab+/=');
    assert.equal(hide('(ab+/=y'), '([redacted]y', 'nothing runs on across a trailing =');
    assert.equal(hide('xab+/='), 'xab+/=', 'its leading letter is glued to the x');
    assert.equal(redactor('=ab')('x=ab.'), 'x[redacted].');
  });

  it('keeps a JSON document parseable and its numbers and keys true, hiding the token in string values only', () => {
    const report = { passed: 1, failed: 11, suites: [{ file: '1.prompttest.json', cases: [{ name: '1', passRate: 0.1, interval: [0.01, 1], messages: ['it is "1"', 'line\n1'] }] }] };
    const hidden = JSON.parse(redactor('1')(JSON.stringify(report, null, 2))) as typeof report;
    assert.deepEqual(hidden, { ...report, suites: [{ file: '[redacted].prompttest.json', cases: [{ name: '[redacted]', passRate: 0.1, interval: [0.01, 1], messages: ['it is "[redacted]"', 'line\n[redacted]'] }] }] });
    const keyed = JSON.stringify({ test: 'a test', tests: ['test'] });
    assert.equal(redactor('test')(keyed), JSON.stringify({ test: 'a [redacted]', tests: ['[redacted]'] }));
  });

  it('finds a token after an escaped newline in JSON, and writes back a valid string around any token', () => {
    const hide = redactor(LONG);
    const text = JSON.stringify({ messages: [`answer:\n${LONG}`, `"${LONG}"\\`] });
    const hidden = hide(text);
    assert.ok(!hidden.includes(LONG));
    assert.deepEqual(JSON.parse(hidden), { messages: ['answer:\n[redacted]', '"[redacted]"\\'] });
    const quoted = redactor('a"b');
    assert.deepEqual(JSON.parse(quoted(JSON.stringify({ m: 'x a"b y' }))), { m: 'x [redacted] y' });
  });

  it('changes nothing without a token', () => {
    assert.equal(redactor(undefined)('1 passed'), '1 passed');
    assert.equal(redactor('')('1 passed'), '1 passed');
  });
});
