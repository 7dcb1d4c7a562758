// The suite `npm start` writes for the README's tour, and the tour's step 4 that a new user follows with it.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { isAssertionSet } from '../../src/core/prompt-tests/assertions';
import { parseSuite } from '../../src/core/prompt-tests/suite-parser';
import type { Suite } from '../../src/core/prompt-tests/suite';
import { SAMPLE_SUITE_FILE, sampleSuiteText, TOUR_CASE, TOUR_EDIT } from '../service/sample-suite';

const readme = readFileSync(path.join(__dirname, '../../../README.md'), 'utf8');

function parsed(text: string): Suite {
  const { suite, problems } = parseSuite(text);
  assert.deepEqual(problems, []);
  assert.ok(suite);
  return suite;
}

/** The tour case's expected altered_prompt: a plain value, which is compared with equals and fails as a diff. */
function tourExpectation(suite: Suite): string {
  const expected = suite.cases.find((c) => c.name === TOUR_CASE)?.expect.altered_prompt;
  assert.ok(expected !== undefined && !isAssertionSet(expected), `${TOUR_CASE} expects a plain altered_prompt`);
  return String(expected);
}

describe("the sample suite of the README's tour", () => {
  it('reads as written, on the connection it is given, its tour case compared with equals', () => {
    const suite = parsed(sampleSuiteText('local'));
    assert.deepEqual(suite.target, { connection: 'local', tenantId: 1 });
    assert.match(tourExpectation(suite), new RegExp(TOUR_EDIT.from));
  });

  it("takes the tour's edit in exactly one place, the tour case's expected value, and still reads", () => {
    const text = sampleSuiteText('local');
    assert.equal(text.split(TOUR_EDIT.from).length, 2, `"${TOUR_EDIT.from}" occurs once`);
    const edited = parsed(text.replace(TOUR_EDIT.from, TOUR_EDIT.to));
    assert.equal(tourExpectation(edited), tourExpectation(parsed(text)).replace(TOUR_EDIT.from, TOUR_EDIT.to));
  });

  it("is the suite the README's step 4 tells a user to run, change and run again", () => {
    const step = /\*\*4\. Run a test suite\.\*\*[\s\S]*?\n\n/.exec(readme)?.[0].replace(/\s+/g, ' ') ?? '';
    for (const named of [
      `**${SAMPLE_SUITE_FILE}**`,
      `**${TOUR_CASE}**`,
      '`altered_prompt`',
      `\`${TOUR_EDIT.from}\``,
      `\`${TOUR_EDIT.to}\``,
    ]) {
      assert.ok(step.includes(named), `step 4 names ${named}: ${step}`);
    }
  });
});
