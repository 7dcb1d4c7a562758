// The variant lab's parts that need no editor: Apply Variant's text, a cell's run as a document, the table's words
// and the page's messages.
import * as assert from 'node:assert/strict';
import { caseRunText, shownRun } from '../../src/core/prompt-tests/run-text';
import type { TestCase } from '../../src/core/prompt-tests/suite';
import type { CaseRun } from '../../src/core/prompt-tests/types';
import { caseResult } from '../../src/core/prompt-tests/verdict';
import { withVariantFields } from '../../src/core/variants/variant-apply';
import { variantReports } from '../../src/core/variants/variant-report';
import { parsePageMessage } from '../../src/variant-lab/messages';
import { labView } from '../../src/variant-lab/view';
import { pText } from '../../src/core/prompt-tests/case-messages';
import { vsBaseText } from '../../src/core/variants/variant-report';

const CASE: TestCase = {
  name: 'greets',
  prompt_text: 'Hi',
  expect: { response: { contains: 'Hello' } },
  repeat: 3,
  minPassRate: 1,
  range: { offset: 0, length: 0 },
};

const run = (passed: boolean, durationMs: number, extra: Partial<CaseRun> = {}): CaseRun => ({
  passed,
  durationMs,
  failures: [],
  ...extra,
});

describe('variant lab: Apply Variant', () => {
  it("sets the variant's fields and keeps every other field, its place and the document's unsaved edits", () => {
    const text = `${JSON.stringify({ id: 7, name: 'Greeting', system: 'Be long.', temperature: 0.9, ai_model: 'edited' }, null, 2)}\n`;
    const applied = withVariantFields(text, { system: 'Say exactly: Hello', max_tokens: 20 }, 'short');
    assert.equal(
      applied,
      `${JSON.stringify({ id: 7, name: 'Greeting', system: 'Say exactly: Hello', temperature: 0.9, ai_model: 'edited', max_tokens: 20 }, null, 2)}\n`,
    );
  });

  it('refuses a document that is no JSON object, saying how to go on', () => {
    assert.throws(
      () => withVariantFields('{ "name": ', { system: 'x' }, 'short'),
      /The variant "short" cannot be applied: the prompt's document is not a JSON object \(.+\)\. Fix or revert the document/,
    );
    assert.throws(() => withVariantFields('[1]', { system: 'x' }, 'short'), /it holds no JSON object/);
  });
});

describe("variant lab: a cell's run", () => {
  const failure = {
    field: 'response',
    assertion: 'contains' as const,
    message: 'response does not contain "Hello"',
    expected: 'Hello',
    actual: 'Echo: Hi\nsecond line',
  };
  const result = caseResult(CASE, [
    run(true, 10, { output: { response: 'Hello' } }),
    run(false, 10, { error: 'HTTP 500' }),
    run(false, 20, { output: { response: 'Echo: Hi\nsecond line' }, failures: [failure] }),
  ]);

  it('shows the first failing run, before an errored one', () => {
    assert.equal(shownRun(result), result.details[2]);
  });

  it('says which case, version and run, what was sent and answered, and each failure, indented under its label', () => {
    const text = caseRunText(CASE, result, 'greeting.prompttest.json', { prompt_text: 'Hi' }, 'shorter');
    assert.equal(
      text,
      [
        'Case "greets" (greeting.prompttest.json), on the variant "shorter"',
        'The first failing run (run 3 of 3).',
        '',
        'Sent',
        '  {',
        '    "prompt_text": "Hi"',
        '  }',
        'Answer',
        '  {',
        '    "response": "Echo: Hi\\nsecond line"',
        '  }',
        'Failures',
        '  [response contains] response does not contain "Hello"',
        '    expected: Hello',
        '    actual:   Echo: Hi',
        '      second line',
        '',
      ].join('\n'),
    );
  });

  it("names the base as such, and an errored run's error", () => {
    const errored = caseResult(CASE, [run(false, 5, { error: 'HTTP 503: busy' })]);
    const text = caseRunText(CASE, errored, 's.prompttest.json', { prompt_text: 'Hi' }, 'base');
    assert.match(text, /^Case "greets" \(s\.prompttest\.json\), on the base\nThe first errored run: no answer/);
    assert.match(text, /\nError\n {2}HTTP 503: busy\n$/);
  });
});

describe("variant lab: the table's words", () => {
  it('writes p as a reader weighs it', () => {
    assert.equal(pText(0.41234), 'p = 0.412');
    assert.equal(pText(0.0031), 'p = 0.003');
    assert.equal(pText(1), 'p = 1.000');
    assert.equal(pText(0.0004), 'p < 0.001');
    assert.equal(vsBaseText({ change: 'better', p: 0.0031 }), 'better, p = 0.003');
    assert.equal(vsBaseText({ change: 'same', p: 0.41 }), 'same, p = 0.410');
  });

  it('gives every cell its rate, interval, latency and verdict, the base first, and each variant its vsBase', () => {
    const suite = (runs: CaseRun[]) => {
      const judged = caseResult(CASE, runs);
      return { passed: judged.passed ? 1 : 0, failed: judged.passed ? 0 : 1, skipped: 0, cases: [judged] };
    };
    const base = suite([run(false, 100), run(false, 200), run(false, 300)]);
    const better = suite([run(true, 100), run(true, 100), run(true, 120)]);
    const view = labView(
      'Variant Lab: g.prompttest.json',
      'note',
      variantReports(base, [{ name: 'v', result: better }]),
    );
    assert.deepEqual(
      view.columns.map((c) => [c.name, c.verdict, c.rate, c.vsBase?.change]),
      [
        ['base', 'fail', '0/3 passed (0%)', undefined],
        ['v', 'pass', '3/3 passed (100%)', 'same'],
      ],
    );
    assert.deepEqual(view.rows, [
      {
        name: 'greets',
        cells: [
          {
            verdict: 'fail',
            rate: '0/3 passed (0%)',
            interval: '95% interval 0–57%',
            latency: 'p50 200 ms · p95 300 ms',
            errors: '',
          },
          {
            verdict: 'pass',
            rate: '3/3 passed (100%)',
            interval: '95% interval 43–100%',
            latency: 'p50 100 ms · p95 120 ms',
            errors: '',
          },
        ],
      },
    ]);
    assert.equal(view.columns[1]?.vsBase?.text, 'same, p = 0.100');
  });
});

describe("variant lab: the page's messages", () => {
  it('takes only known messages with whole, non-negative indexes', () => {
    assert.deepEqual(parsePageMessage({ type: 'open', row: 1, column: 2 }), { type: 'open', row: 1, column: 2 });
    assert.deepEqual(parsePageMessage({ type: 'apply', column: 1 }), { type: 'apply', column: 1 });
    assert.deepEqual(parsePageMessage({ type: 'drawn', seq: 3 }), { type: 'drawn', seq: 3 });
    for (const bad of [
      { type: 'open', row: '1', column: 2 },
      { type: 'apply', column: -1 },
      { type: 'apply', column: 1.5 },
      { type: 'run', command: 'x' },
      null,
    ])
      assert.equal(parsePageMessage(bad), undefined, JSON.stringify(bad));
  });
});
