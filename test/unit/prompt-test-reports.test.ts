import * as assert from 'node:assert/strict';
import { baselineFor, BaselineError, parseBaseline } from '../../src/core/prompt-tests/baseline';
import { caseReport, junitXml } from '../../src/core/prompt-tests/report';
import { cut } from '../../src/core/text';
import { caseMessages, verdictLine } from '../../src/core/prompt-tests/case-messages';
import { caseResult } from '../../src/core/prompt-tests/verdict';
import type { CaseRun, SuiteResult } from '../../src/core/prompt-tests/types';
import { inShard, parseShard } from '../../src/core/prompt-tests/shard';
import type { TestCase } from '../../src/core/prompt-tests/suite';

const testCase = (name: string, repeat = 1, minPassRate = 1): TestCase => ({
  name,
  prompt_text: 'x',
  expect: {},
  repeat,
  minPassRate,
  range: { offset: 0, length: 0 },
});
const pass: CaseRun = { passed: true, durationMs: 10, failures: [] };
const wrong = (expected: string, actual: string): CaseRun => ({
  passed: false,
  durationMs: 10,
  failures: [
    {
      field: 'response',
      assertion: 'equals',
      message: 'response: is not equal to the expected value',
      expected,
      actual,
    },
  ],
});
const requestFailed: CaseRun = { passed: false, durationMs: 10, failures: [], error: '503 Service Unavailable' };
const runs = (passes: number, total: number): CaseRun[] =>
  Array.from({ length: total }, (_, i) => (i < passes ? pass : wrong('a', 'b')));
const suiteOf = (...cases: SuiteResult['cases']): SuiteResult => ({
  passed: cases.filter((c) => c.passed).length,
  failed: cases.filter((c) => !c.passed && !c.skipped).length,
  skipped: cases.filter((c) => c.skipped).length,
  cases,
});

describe('prompt test reports: JUnit XML', () => {
  it('gives every testcase its verdict as properties, a failed request an <error>, a failed assertion a <failure> with both sides', () => {
    const result = suiteOf(
      caseResult(testCase('steady', 2), runs(2, 2)),
      caseResult(testCase('down'), [requestFailed]),
      caseResult(testCase('wrong'), [wrong('Bonjour', '<Hello>')]),
      caseResult(testCase('later'), []),
    );
    const xml = junitXml([{ name: 'a.prompttest.json', result }]);
    assert.match(xml, /<testsuites tests="4" failures="1" errors="1" skipped="1">/);
    assert.match(
      xml,
      /name="steady" time="0\.020"><properties><property name="runs" value="2"\/><property name="passes" value="2"\/><property name="errors" value="0"\/><property name="passRate" value="1"\/><property name="verdict" value="pass"\/><\/properties><\/testcase>/,
    );
    assert.match(
      xml,
      /name="down"[^\n]*<property name="runs" value="0"\/><property name="passes" value="0"\/><property name="errors" value="1"\/>[^\n]*<property name="verdict" value="error"\/><\/properties><error message="1 of 1 run errored \(so it is not counted\): 503 Service Unavailable">/,
    );
    assert.match(
      xml,
      /name="wrong"[^\n]*<failure message="response: is not equal to the expected value: expected Bonjour, actual &lt;Hello&gt;">/,
    );
    assert.match(xml, /name="later"[^\n]*<skipped message="not run: the run was cancelled"\/><\/testcase>/);
  });

  it('marks a regressed case with a property', () => {
    const regressed = caseResult(testCase('r', 20, 0.5), runs(12, 20), { passes: 20, runs: 20 });
    assert.match(
      junitXml([{ name: 'a', result: suiteOf(regressed) }]),
      /<property name="regressed" value="true"\/><\/properties><failure message="regressed: 12\/20 passed, against 20\/20 in the baseline \(p = 0\.002\)">[^<]*response: is not equal/,
    );
  });

  it("says an unequal value's two sides once, and a turn's answering prompt as its message says it", () => {
    const turn: CaseRun = {
      passed: false,
      durationMs: 1,
      failures: [
        {
          field: 'prompt',
          assertion: 'prompt',
          message: 'turn 2: answered by "Billing" (12), expected "Human Handoff"',
          expected: '"Human Handoff"',
          actual: '"Billing" (12)',
          turn: 2,
        },
      ],
    };
    const xml = junitXml([{ name: 'a', result: suiteOf(caseResult(testCase('t'), [turn])) }]);
    assert.match(
      xml,
      /<failure message="turn 2: answered by &quot;Billing&quot; \(12\), expected &quot;Human Handoff&quot;">/,
    );
    assert.equal((xml.match(/Human Handoff/g) ?? []).length, 2, 'once in the message attribute, once in the body');
  });

  it('keeps errored runs apart from the evidence: out of runs, the rate and the interval, and the case never passes', () => {
    const result = caseResult(testCase('e', 10, 0.5), [...runs(7, 7), requestFailed, requestFailed, requestFailed]);
    assert.deepEqual(
      [result.runs, result.passes, result.errors, result.passRate, result.verdict, result.passed],
      [7, 7, 3, 1, 'error', false],
    );
    assert.deepEqual(result.interval, caseResult(testCase('e', 7), runs(7, 7)).interval);
    assert.deepEqual(caseMessages(result), ['3 of 10 runs errored (so they are not counted): 503 Service Unavailable']);
    assert.match(
      junitXml([{ name: 'a', result: suiteOf(result) }]),
      /<testsuites tests="1" failures="0" errors="1" skipped="0">/,
    );
  });

  it('reports what ended of a case a cancellation cut short, and does not pass it', () => {
    const result = caseResult(testCase('s', 20), runs(14, 14));
    assert.deepEqual(
      [result.runs, result.passes, result.skipped, result.passed, result.verdict, result.reason],
      [14, 14, true, false, 'skipped', 'stopped: the run was cancelled after 14 of 20 runs'],
    );
    assert.deepEqual(caseMessages(result), ['stopped: the run was cancelled after 14 of 20 runs']);
    assert.match(
      junitXml([{ name: 'a', result: suiteOf(result) }]),
      /<property name="runs" value="14"\/>.*<property name="verdict" value="skipped"\/><\/properties><skipped message="stopped: the run was cancelled after 14 of 20 runs"\/>/,
    );
  });

  it('says error, not fail, of a case whose every run errored, with the reason and no rate of nothing', () => {
    const result = caseResult(testCase('down', 3), [requestFailed, requestFailed, requestFailed]);
    assert.deepEqual(
      [result.verdict, result.passed, result.runs, result.reason],
      ['error', false, 0, '3 of 3 runs errored (so they are not counted): 503 Service Unavailable'],
    );
    assert.deepEqual(
      caseMessages(result),
      ['3 of 3 runs errored (so they are not counted): 503 Service Unavailable'],
      'no "passed 0 of 0 answered runs"',
    );
    assert.deepEqual([caseReport(result).verdict, caseReport(result).reason], ['error', result.reason]);
    assert.equal(verdictLine(result), 'error', 'no "0/0 passed, 95% interval 0–100%"');
  });
});

describe('prompt test reports: --json cases', () => {
  it('holds the verdict, runs as a count, the interval, and expected and actual cut to a readable length', () => {
    const long = 'x'.repeat(500);
    const report = caseReport(caseResult(testCase('c'), [wrong('short', long)]));
    assert.deepEqual(Object.keys(report), [
      'name',
      'passed',
      'verdict',
      'runs',
      'passes',
      'errors',
      'passRate',
      'interval',
      'latency',
      'messages',
    ]);
    assert.equal(report.runs, 1);
    assert.equal(report.verdict, 'fail');
    assert.equal(
      report.messages[0],
      `response: is not equal to the expected value: expected short, actual ${'x'.repeat(200)}…`,
    );
    assert.equal(cut('👋'.repeat(3), 2), '👋👋…', 'cut counts an emoji as one character and never splits it');
  });
});

describe('prompt test reports: --baseline', () => {
  const baseline = parseBaseline(
    JSON.stringify({
      passed: 1,
      failed: 0,
      suites: [
        {
          file: 'a.prompttest.json',
          cases: [
            { name: 'c', passes: 20, runs: 20 },
            { name: 'd', passes: 20, runs: 20 },
          ],
        },
      ],
    }),
  );

  it('fails a case whose passes dropped significantly, even when its rate meets minPassRate, and says by how much', () => {
    const before = baselineFor(baseline, 'a.prompttest.json')?.cases;
    const dropped = caseResult(testCase('c', 20, 0.5), runs(12, 20), before?.get('c'));
    const chance = caseResult(testCase('d', 20, 0.5), runs(19, 20), before?.get('d'));
    assert.equal(dropped.passed, false);
    assert.deepEqual(dropped.regressed?.before, { passes: 20, runs: 20 });
    assert.deepEqual(caseMessages(dropped), [
      'regressed: 12/20 passed, against 20/20 in the baseline (p = 0.002)',
      'response: is not equal to the expected value',
    ]);
    assert.equal(caseReport(dropped).regressed, true);
    assert.equal(chance.regressed, undefined, 'one failure in 20 is chance');
    assert.equal(chance.passed, true);
  });

  it('finds a suite by its path from the file name up, wherever the run was started, and never guesses between equals', () => {
    const two = parseBaseline(
      JSON.stringify({
        suites: [
          { file: 'suites/billing/a.prompttest.json', cases: [] },
          { file: 'suites/orders/a.prompttest.json', cases: [] },
          { file: 'suites/b.prompttest.json', cases: [] },
        ],
      }),
    );
    assert.equal(
      baselineFor(two, '../repo/suites/billing/a.prompttest.json')?.file,
      'suites/billing/a.prompttest.json',
    );
    assert.equal(baselineFor(two, 'orders/a.prompttest.json')?.file, 'suites/orders/a.prompttest.json');
    assert.equal(baselineFor(two, 'b.prompttest.json')?.file, 'suites/b.prompttest.json', 'run from another folder');
    assert.equal(baselineFor(two, 'a.prompttest.json'), undefined, 'two suites fit equally well');
    assert.equal(baselineFor(two, 'c.prompttest.json'), undefined, 'another suite');
    assert.equal(baselineFor(baseline, 'C:\\work\\a.prompttest.json')?.file, 'a.prompttest.json');
  });

  it('names what is not of the shape of a test --json report', () => {
    assert.throws(() => parseBaseline('{'), BaselineError);
    assert.throws(() => parseBaseline('{"suites": {}}'), /no "suites" list/);
    assert.throws(
      () => parseBaseline('{"suites": [{"file": "a", "cases": [{"name": "c", "passes": 3, "runs": 2}]}]}'),
      /suites\[0\]\.cases\[0\] needs/,
    );
  });
});

describe('prompt test reports: --shard', () => {
  it('reads i/n with 1 ≤ i ≤ n only', () => {
    assert.deepEqual(parseShard('2/4'), { index: 2, count: 4 });
    for (const bad of ['0/4', '5/4', '1/0', 'a/b', '1']) assert.equal(parseShard(bad), undefined, bad);
  });

  it('puts every case in exactly one shard, the same one every time', () => {
    const cases = Array.from({ length: 200 }, (_, i) => [`suites/s${i % 7}.prompttest.json`, `case ${i}`] as const);
    const count = 4;
    const owners = cases.map(([file, name]) => [1, 2, 3, 4].filter((index) => inShard({ index, count }, file, name)));
    assert.ok(owners.every((o) => o.length === 1));
    assert.ok(
      [1, 2, 3, 4].every((index) => owners.filter((o) => o[0] === index).length > 20),
      'no shard is nearly empty',
    );
    assert.equal(
      inShard({ index: 1, count: 3 }, 'a.prompttest.json', 'greets'),
      inShard({ index: 1, count: 3 }, 'a.prompttest.json', 'greets'),
    );
    assert.deepEqual(
      [1, 2, 3].map((index) => inShard({ index, count: 3 }, 'a.prompttest.json', 'greets')),
      [true, false, false],
      'fixed across versions',
    );
  });
});
