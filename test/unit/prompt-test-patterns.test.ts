import * as assert from 'node:assert/strict';
import { checkOutput, expectationProblems } from '../../src/core/prompt-tests/assertions';
import { schemaPattern, writtenPattern } from '../../src/core/pattern';
import { schemaFailures, schemaProblem } from '../../src/core/validation';

/** Whether `written` finds something in `text`; fails the test when the pattern is refused. */
function finds(written: string, text: string): boolean {
  const { pattern, problem } = writtenPattern(written);
  assert.ok(pattern, `${written} is refused: ${problem ?? ''}`);
  return pattern.test(text);
}

function problemOf(written: string): string {
  return writtenPattern(written).problem ?? '(none)';
}

describe('prompt tests: patterns in linear time', () => {
  it('reads a bare pattern and /pattern/flags, each flag as JavaScript reads it', () => {
    assert.equal(finds('^Order [A-Z]-\\d+', 'Order A-17 shipped'), true);
    assert.equal(finds('/^order/i', 'ORDER 5'), true);
    assert.equal(finds('/^order/', 'ORDER 5'), false);
    assert.equal(finds('/^b$/m', 'a\nb\nc'), true);
    assert.equal(finds('/^b$/', 'a\nb\nc'), false);
    assert.equal(finds('/a.b/s', 'a\nb'), true);
    assert.equal(finds('/a.b/', 'a\nb'), false);
    assert.equal(finds('/^.$/u', '🌍'), true);
    assert.equal(finds('/^.$/', '🌍'), true, 'characters are code points, as with the u flag');
    assert.equal(finds('/status/g', 'the status'), true, 'g is harmless: a test asks whether there is a match');
    assert.equal(finds('/api/v1', 'GET /api/v1/x'), true, 'a slash and more than letters after it: a bare pattern');
    assert.equal(finds('\\u00e9|\\u{1F30D}', 'le 🌍'), true, "JavaScript's escapes");
    assert.equal(finds('\\ud83c\\udf0d', '🌍'), true, 'an escaped surrogate pair is the one character it makes');
    assert.equal(finds('(?<word>ok)', 'is ok'), true, 'named groups');
    assert.equal(finds('[^]', 'x'), true);
  });

  it('refuses an unknown, a sticky or a repeated flag, naming it and the fix', () => {
    assert.equal(
      problemOf('/ok/I'),
      'has "I", which is no flag here; use i (ignore case), m (^ and $ at every line), s (. matches line breaks too) or u',
    );
    assert.equal(
      problemOf('/ok/x'),
      'has "x", which is no flag here; use i (ignore case), m (^ and $ at every line), s (. matches line breaks too) or u',
    );
    assert.match(problemOf('/ok/v'), /^has "v", which is no flag here/);
    assert.match(problemOf('/ok/d'), /^has "d", which is no flag here/);
    assert.equal(problemOf('/ok/ii'), 'gives the flag "i" twice; give each flag once');
    assert.equal(
      problemOf('/ok/y'),
      'has the flag "y" (sticky), which means nothing for a test: the whole text is searched; start the pattern with ^ to match at the start',
    );
  });

  it('refuses what linear time cannot match: backreferences and lookaround, saying what to do instead', () => {
    assert.match(
      problemOf('(a)\\1'),
      /^uses the backreference \\1, which linear-time matching \(which keeps any pattern from stalling a run\) does not support: write out the text it repeats/,
    );
    assert.match(problemOf('(?<q>["\'])x\\k<q>'), /^uses the backreference \\k<…>, which linear-time matching/);
    assert.match(
      problemOf('^(?!Sorry)'),
      /^uses the lookahead \(\?!…\), which linear-time matching .* does not support: match the text it looks ahead for as part of the pattern; for text that must not appear, use notContains/,
    );
    assert.match(problemOf('x(?=y)'), /^uses the lookahead \(\?=…\)/);
    assert.match(
      problemOf('(?<=\\$)\\d+'),
      /^uses the lookbehind \(\?<=…\), .*: match the text it looks behind for as part of the pattern/,
    );
    assert.match(problemOf('(?<!a)b'), /^uses the lookbehind \(\?<!…\)/);
    assert.equal(writtenPattern('[(?=)(?<!)]').problem, undefined, 'inside a character class they are characters');
    assert.equal(writtenPattern('\\(?=x').problem, undefined, 'an escaped parenthesis opens nothing');
  });

  it('refuses a pattern JavaScript cannot read, and one too large to match quickly', () => {
    assert.match(
      problemOf('('),
      /^is not a valid regular expression \(Invalid regular expression: \/\(\/: Unterminated group\)$/,
    );
    assert.match(problemOf('/\\-/u'), /^is not a valid regular expression/, "the u flag's stricter syntax");
    assert.match(problemOf('a{1001}'), /^cannot be matched in linear time \(.*invalid repeat count.*\); simplify it$/);
    assert.match(
      problemOf('[a-z]{999}'),
      /^is too large to match quickly \(1001 steps; at most 500\): use smaller repeat counts, and leave a length limit to maxLength$/,
    );
    assert.equal(
      writtenPattern('^\\w[\\w.-]*@[\\w-]+(\\.[\\w-]+)+$').problem,
      undefined,
      'a pattern as people write them is far smaller',
    );
  });

  it('matches catastrophic patterns on an answer that backtracking would take years over', () => {
    // The answer's size is the bound: a backtracking engine would never end here, whatever the machine.
    const answer = `${'a'.repeat(5_000)}!`;
    for (const written of ['(a+)+$', '(.*a){20}$', '(a|aa)+$', '((a*)*)*b', '^(\\w+\\s?)*$', '/(A+)+$/i']) {
      assert.equal(finds(written, answer), false, written);
    }
  });

  it('as the matches assertion: a problem before anything is sent, a failure at run time, both naming the pattern', () => {
    assert.deepEqual(expectationProblems({ matches: '/ok/x' }, false), [
      {
        key: 'matches',
        message:
          'the pattern "/ok/x" has "x", which is no flag here; use i (ignore case), m (^ and $ at every line), s (. matches line breaks too) or u',
      },
    ]);
    assert.deepEqual(
      checkOutput({ response: { matches: '(a+)+$' } }, { response: `${'a'.repeat(40)}!` }).map((f) => f.message),
      [`response: does not match /(a+)+$/; it is "${'a'.repeat(40)}!"`],
    );
    assert.deepEqual(checkOutput({ response: { matches: '/^A/i' } }, { response: 'all good' }), []);
    assert.deepEqual(
      checkOutput({ response: { matches: '(a)\\1' } }, { response: 'aa' }).map((f) => f.message),
      [
        'response: the pattern "(a)\\\\1" uses the backreference \\1, which linear-time matching (which keeps any pattern from stalling a run) does not support: write out the text it repeats, or check it with another assertion',
      ],
    );
  });

  it("a JSON Schema's pattern and patternProperties: linear time too, with the same problems", () => {
    const slow = {
      type: 'object',
      properties: { code: { type: 'string', pattern: '^(a+)+$' } },
      patternProperties: { '^(x+)+$': { type: 'number' } },
    };
    assert.equal(schemaProblem(slow), undefined);
    const value = { code: `${'a'.repeat(5_000)}!`, [`${'x'.repeat(5_000)}!`]: 'not checked: the key does not match' };
    // Answers of this size are the bound, as above.
    assert.deepEqual(schemaFailures(slow, value), ['/code must match pattern "^(a+)+$"']);
    assert.equal(schemaPattern('^\\p{Lu}').pattern?.test('Éa'), true, 'read with the u flag, as draft-07 says');
    assert.match(
      schemaProblem({ pattern: '(?!x)' }) ?? '',
      /^\/pattern: "\(\?!x\)" uses the lookahead \(\?!…\), which linear-time matching/,
    );
    assert.match(
      schemaProblem({ patternProperties: { '(a)\\1': {} } }) ?? '',
      /^\/patternProperties\/\(a\)\\1: "\(a\)\\\\1" uses the backreference \\1/,
    );
  });
});
