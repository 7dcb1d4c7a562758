import * as assert from 'node:assert/strict';
import { redactor } from '../../src/cli/failure';

describe('the command-line tool: redacting the token', () => {
  const LONG = '3f9a0c1e7b2d4c6a8e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b';

  it('hides a long token wherever it is, also glued to other characters', () => {
    const hide = redactor(LONG);
    for (const text of [
      LONG,
      `Bearer ${LONG}`,
      `token=${LONG}&next`,
      `"${LONG}"`,
      `(${LONG}).`,
      `Echo (gpt-4o-mini): ${LONG}`,
      `${LONG}\n${LONG}`,
      `line\\n${LONG}`,
      `Bearer%20${LONG}`,
      `x${LONG}y`,
    ]) {
      const hidden = hide(text);
      assert.ok(!hidden.includes(LONG), hidden);
      assert.match(hidden, /\[redacted\]/);
    }
  });

  it('leaves a shorter token inside numbers and words alone, and hides it where it stands alone', () => {
    const hide = redactor('12345678');
    assert.equal(
      hide('Prompt tests: 123456789 passed, 0.12345678 s, 12345678.5 s, v2.12345678.0, id12345678, 12345678x'),
      'Prompt tests: 123456789 passed, 0.12345678 s, 12345678.5 s, v2.12345678.0, id12345678, 12345678x',
    );
    assert.equal(
      hide('the token is 12345678; (12345678) "12345678" 12345678.'),
      'the token is [redacted]; ([redacted]) "[redacted]" [redacted].',
    );
    assert.equal(
      hide('an escaped line break: line\\n12345678\\t12345678'),
      'an escaped line break: line\\n[redacted]\\t[redacted]',
      'the n of \\n is no letter of a word',
    );
    const word = redactor('password');
    assert.equal(
      word('passwords, PASSWORD, password1, mypassword, a password'),
      'passwords, PASSWORD, password1, mypassword, a [redacted]',
    );
  });

  it('needs no boundary at an edge that is no word character', () => {
    const hide = redactor('abcdef+/=');
    assert.equal(hide('(abcdef+/=y'), '([redacted]y', 'nothing runs on across a trailing =');
    assert.equal(hide('xabcdef+/='), 'xabcdef+/=', 'its leading letter is glued to the x');
    assert.equal(redactor('=abcdefg')('x=abcdefg.'), 'x[redacted].');
  });

  it('keeps a JSON document parseable and its numbers and keys true, hiding the token in string values only', () => {
    const token = '12345678';
    const report = {
      passed: 12345678,
      failed: 11,
      suites: [
        {
          file: `${token}.prompttest.json`,
          cases: [
            {
              name: token,
              passRate: 0.12345678,
              interval: [0.01, 1],
              messages: [`it is "${token}"`, `line\n${token}`],
            },
          ],
        },
      ],
    };
    const hidden = JSON.parse(redactor(token)(JSON.stringify(report, null, 2))) as typeof report;
    assert.deepEqual(hidden, {
      ...report,
      suites: [
        {
          file: '[redacted].prompttest.json',
          cases: [
            {
              name: '[redacted]',
              passRate: 0.12345678,
              interval: [0.01, 1],
              messages: ['it is "[redacted]"', 'line\n[redacted]'],
            },
          ],
        },
      ],
    });
    const keyed = JSON.stringify({ testcase: 'a testcase', testcases: ['testcase'] });
    assert.equal(redactor('testcase')(keyed), JSON.stringify({ testcase: 'a [redacted]', testcases: ['[redacted]'] }));
  });

  it("shows a token shorter than 8 characters as it is: no secret, and the tool's own ids and numbers as often as an echo", () => {
    const coverage = JSON.stringify(
      {
        coverage: [
          {
            tenantId: 1,
            nodes: { 'ai_prompts/1': 'passed', 'ai_prompts/2': 'passed' },
            edges: ['ai_prompts/1 -> ai_prompts/2'],
          },
        ],
      },
      null,
      2,
    );
    for (const token of ['1', '2', 'pass', 'test123']) {
      const hide = redactor(token);
      assert.equal(hide(coverage), coverage, token);
      assert.equal(
        hide('1 passed, 2 failed: ai_prompts/2 (id 2) -> ai_prompts/1; pass test123'),
        '1 passed, 2 failed: ai_prompts/2 (id 2) -> ai_prompts/1; pass test123',
        token,
      );
    }
    assert.equal(redactor('test1234')('a test1234'), 'a [redacted]', 'from 8 characters on it is hidden');
  });

  it('finds a token after an escaped newline in JSON, and writes back a valid string around any token', () => {
    const hide = redactor(LONG);
    const text = JSON.stringify({ messages: [`answer:\n${LONG}`, `"${LONG}"\\`] });
    const hidden = hide(text);
    assert.ok(!hidden.includes(LONG));
    assert.deepEqual(JSON.parse(hidden), { messages: ['answer:\n[redacted]', '"[redacted]"\\'] });
    const quoted = redactor('a"bcdefg');
    assert.deepEqual(JSON.parse(quoted(JSON.stringify({ m: 'x a"bcdefg y' }))), { m: 'x [redacted] y' });
  });

  it('changes nothing without a token', () => {
    assert.equal(redactor(undefined)('1 passed'), '1 passed');
    assert.equal(redactor('')('1 passed'), '1 passed');
  });
});
