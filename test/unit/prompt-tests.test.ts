import * as assert from 'node:assert/strict';
import type { JsonObject } from '../../src/core/json';
import { ASSERTIONS, checkOutput, expectationProblems, isAssertionSet } from '../../src/core/prompt-tests/assertions';
import { caseReport, junitXml, publicResult } from '../../src/core/prompt-tests/report';
import { caseMessages, verdictLine } from '../../src/core/prompt-tests/case-messages';
import { runSuite } from '../../src/core/prompt-tests/run';
import { latencyOf, percentile } from '../../src/core/prompt-tests/statistics';
import type { CaseResult, Executor } from '../../src/core/prompt-tests/types';
import { caseResult } from '../../src/core/prompt-tests/verdict';
import { CASE_KEYS, OUTPUTS, suitePath, TURN_KEYS, type Suite, type TestCase } from '../../src/core/prompt-tests/suite';
import { parseSuite } from '../../src/core/prompt-tests/suite-parser';
import { suiteTemplate } from '../../src/core/prompt-tests/template';
import { lineColumnText } from '../../src/core/text';

const messages = (expect: JsonObject, output: JsonObject): string[] =>
  checkOutput(expect, output).map((f) => f.message);

describe('prompt tests: the assertion engine', () => {
  it('equals: deep, with the two sides as text for a diff; a bare value means equals', () => {
    assert.deepEqual(
      messages({ next_prompt_params: { b: 1, a: [1, 2] } }, { next_prompt_params: { a: [1, 2], b: 1 } }),
      [],
    );
    const [failure] = checkOutput({ response: { equals: 'Bonjour 👋' } }, { response: 'Bonjour 👋!' });
    assert.equal(failure?.message, 'response: is not equal to the expected value');
    assert.equal(failure?.expected, 'Bonjour 👋');
    assert.equal(failure?.actual, 'Bonjour 👋!');
    assert.deepEqual(
      messages({ next_prompt_id: 3 }, {}),
      ['next_prompt_id: is not equal to the expected value'],
      'absent is not equal',
    );
  });

  it('contains and notContains: on text, unicode as it is; other values as JSON', () => {
    assert.deepEqual(
      messages({ response: { contains: 'Grüße', notContains: 'refund' } }, { response: 'Viele Grüße 🌍' }),
      [],
    );
    assert.deepEqual(messages({ response: { contains: 'status' } }, { response: 'Your order…' }), [
      'response: does not contain "status"; it is "Your order…"',
    ]);
    assert.deepEqual(messages({ response: { notContains: 'refund' } }, { response: 'A refund is on its way' }), [
      'response: contains "refund", which it must not; it is "A refund is on its way"',
    ]);
    assert.deepEqual(
      messages({ next_prompt_params: { contains: '"step":2' } }, { next_prompt_params: { step: 2 } }),
      [],
    );
    assert.equal(messages({ response: { contains: 'x' } }, {}).length, 1, 'an absent field contains nothing');
  });

  it('matches: a bare pattern or /pattern/flags; an invalid pattern fails with the reason', () => {
    assert.deepEqual(messages({ response: { matches: '^Order [A-Z]-\\d+' } }, { response: 'Order A-17 shipped' }), []);
    assert.deepEqual(messages({ response: { matches: '/^order/i' } }, { response: 'ORDER' }), []);
    assert.deepEqual(
      messages({ response: { matches: '/^.$/u' } }, { response: '🌍' }),
      [],
      'the u flag counts an emoji as one character',
    );
    assert.match(
      messages({ response: { matches: '(' } }, { response: 'x' })[0] ?? '',
      /the pattern "\(" is not a valid regular expression/,
    );
  });

  it('maxLength counts characters as people do, on large texts too', () => {
    assert.deepEqual(messages({ response: { maxLength: 3 } }, { response: '👋🌍é' }), []);
    const large = 'a'.repeat(200_000);
    assert.deepEqual(messages({ response: { maxLength: 200_000 } }, { response: large }), []);
    assert.deepEqual(messages({ response: { maxLength: 199_999 } }, { response: large }), [
      'response: is 200000 characters long, more than 199999',
    ]);
  });

  it('jsonSchema: the value, or its text parsed as JSON; text that does not parse fails saying so', () => {
    const schema = { type: 'object', required: ['status'], properties: { status: { enum: ['open', 'closed'] } } };
    assert.deepEqual(messages({ response: { jsonSchema: schema } }, { response: '{"status": "open"}' }), []);
    assert.deepEqual(
      messages({ next_prompt_params: { jsonSchema: schema } }, { next_prompt_params: { status: 'closed' } }),
      [],
    );
    assert.match(
      messages({ response: { jsonSchema: schema } }, { response: '{"status": "lost"}' })[0] ?? '',
      /does not satisfy the schema: \/status must be equal to one of the allowed values/,
    );
    assert.match(
      messages({ response: { jsonSchema: schema } }, { response: 'Sure! {"status": "open"}' })[0] ?? '',
      /^response: is not JSON, so it cannot satisfy the schema/,
    );
  });

  it('tells assertion objects from expected objects, and names what cannot be checked', () => {
    assert.equal(isAssertionSet({ contains: 'x' }), true);
    assert.equal(isAssertionSet({ step: 2 }), false);
    assert.deepEqual(
      expectationProblems(
        { contains: 'a', containz: 'b', matches: '[', maxLength: -1, jsonSchema: { type: 'nonsense' } },
        false,
      ).map((p) => p.key),
      ['containz', 'matches', 'maxLength', 'jsonSchema'],
    );
    assert.deepEqual(
      expectationProblems({ containz: 'b' }, false).map((p) => p.key),
      ['containz'],
      "a text output's object is assertions",
    );
    assert.deepEqual(expectationProblems({ step: 2 }, true), [], "an object output's object is a value");
  });
});

describe('prompt tests: suites', () => {
  it('names a chosen file as a suite once: what a save dialog doubled or left out', () => {
    assert.equal(suitePath('/w/support-greeting.prompttest.json'), '/w/support-greeting.prompttest.json');
    assert.equal(
      suitePath('/w/support-greeting.prompttest.json.prompttest.json'),
      '/w/support-greeting.prompttest.json',
    );
    assert.equal(suitePath('/w/support-greeting.json'), '/w/support-greeting.prompttest.json');
    assert.equal(suitePath('/w/support-greeting'), '/w/support-greeting.prompttest.json');
  });

  const suiteText = `{
  // a comment, as the starting file has
  "target": { "connection": "local", "tenantId": 1 },
  "prompt": "Order Triage",
  "cases": [
    { "name": "status", "prompt_text": "Where is A-1?", "expect": { "response": { "contains": "A-1" } } },
    { "name": "flaky", "prompt_text": "x", "repeat": 4, "minPassRate": 0.5, "expect": { "next_prompt_id": 3 } },
  ],
}`;

  it('reads a suite with comments and trailing commas', () => {
    const { suite, problems } = parseSuite(suiteText);
    assert.deepEqual(problems, []);
    assert.deepEqual(suite?.resource, {
      segment: 'ai_prompts',
      ref: 'Order Triage',
      range: { offset: suiteText.indexOf('"Order Triage"'), length: '"Order Triage"'.length },
    });
    assert.deepEqual(
      suite?.cases.map((c) => [c.name, c.repeat, c.minPassRate]),
      [
        ['status', 1, 1],
        ['flaky', 4, 0.5],
      ],
    );
    assert.equal(suiteText.slice(suite?.cases[0]?.range.offset ?? 0).startsWith('{ "name": "status"'), true);
  });

  it('names each problem at its place: unknown assertion, bad pattern, not a schema, unknown output, missing input', () => {
    const text = JSON.stringify(
      {
        prompt: 3,
        cases: [
          { name: 'a', prompt_text: 'x', expect: { response: { containz: 'y' } } },
          { name: 'b', prompt_text: 'x', expect: { response: { matches: '(' } } },
          { name: 'c', prompt_text: 'x', expect: { response: { jsonSchema: { type: 'nope' } } } },
          { name: 'd', prompt_text: 'x', expect: { result: 'y' } },
          { name: 'e', expect: {} },
        ],
      },
      null,
      2,
    );
    const { suite, problems } = parseSuite(text);
    assert.equal(suite, undefined);
    const at = (i: number): string =>
      text.slice(problems[i]?.range.offset, (problems[i]?.range.offset ?? 0) + (problems[i]?.range.length ?? 0));
    assert.match(problems[0]?.message ?? '', /"containz" is no assertion/);
    assert.equal(at(0), '"containz"');
    assert.match(problems[1]?.message ?? '', /not a valid regular expression/);
    assert.equal(at(1), '"("');
    assert.match(problems[2]?.message ?? '', /not a JSON Schema/);
    assert.match(problems[3]?.message ?? '', /"result" is no output of test_prompt/);
    assert.match(problems[4]?.message ?? '', /needs "prompt_text"/);
  });

  it('names a key of a suite, a case or a turn that is no field at its key, with the closest field when one is near', () => {
    const text = JSON.stringify(
      {
        prompt: 3,
        varaints: [],
        cases: [{ name: 'a', prompt_txet: 'x', turns: [{ prompt_text: 'y', expcet: {} }] }],
      },
      null,
      2,
    );
    const { suite, problems } = parseSuite(text);
    assert.equal(suite, undefined);
    const messages = problems.map((p) => `${p.path.join('.')}: ${p.message}`);
    assert.deepEqual(messages.slice(0, 1), [
      'varaints: "varaints" is no field of a suite; did you mean "variants"? use target, prompt, integration, variants, cases',
    ]);
    assert.ok(
      messages.some((m) =>
        m.startsWith('cases.0.prompt_txet: "prompt_txet" is no field of a case; did you mean "prompt_text"?'),
      ),
      messages.join('\n'),
    );
    assert.ok(
      messages.some((m) =>
        m.startsWith('cases.0.turns.0.expcet: "expcet" is no field of a turn; did you mean "expect"?'),
      ),
      messages.join('\n'),
    );
    const first = problems[0];
    assert.equal(
      text.slice(first?.range.offset, (first?.range.offset ?? 0) + (first?.range.length ?? 0)),
      '"varaints"',
    );
  });

  it('starts a new suite with a header that names what its cases can hold, above a suite that reads as written', () => {
    const header = (text: string): string =>
      text
        .split('\n')
        .filter((line) => line.startsWith('//'))
        .join('\n');
    const unnamed = (text: string, quoted: readonly string[], words: readonly string[]): string[] => [
      ...quoted.filter((key) => !text.includes(`"${key}"`)),
      ...words.filter((word) => !new RegExp(`(?<![\\w.])${word}(?!\\w)`).test(text)),
    ];
    const kinds = [
      {
        segment: 'ai_prompts',
        testCase: { name: 'greets', prompt_text: 'Hello', expect: { response: { matches: '\\S' } } },
        absent: ['action', 'params'],
      },
      {
        segment: 'integrations',
        testCase: { name: 'ping', action: 'ping', expect: { status: 'success' } },
        absent: ['prompt_text', 'prompt_params', 'turns', 'simulate', 'criteria', 'judgeRepeat'],
      },
    ] as const;
    for (const { segment, testCase, absent } of kinds) {
      const text = suiteTemplate({
        target: { connection: 'local', tenantId: 1 },
        segment,
        name: 'Order Triage',
        cases: [testCase],
      });
      const { suite, problems } = parseSuite(text);
      assert.deepEqual(problems, [], segment);
      assert.deepEqual(
        suite?.cases.map(({ name, expect }) => ({ name, expect })),
        [{ name: testCase.name, expect: testCase.expect }],
      );
      const fields = CASE_KEYS.filter((key) => !(absent as readonly string[]).includes(key));
      const turns = segment === 'ai_prompts' ? [...TURN_KEYS, 'prompt'] : [];
      assert.deepEqual(
        unnamed(
          header(text),
          [...fields, ...turns],
          [...OUTPUTS[segment], ...ASSERTIONS, 'pass', 'flaky', 'fail', 'convai test'],
        ),
        [],
        `${segment}: what its header leaves out`,
      );
      assert.deepEqual(
        absent.filter((key) => header(text).includes(`"${key}"`)),
        [],
        `${segment}: fields its cases cannot hold`,
      );
    }
  });
});

describe('prompt tests: typos caught when a suite is read', () => {
  /** A prompt suite of one case expecting `expect`, and each problem as `<text at its range> <message>`. */
  const read = (
    expect: JsonObject,
    text = JSON.stringify({ prompt: 1, cases: [{ name: 'a', prompt_text: 'x', expect }] }, null, 2),
  ): string[] =>
    parseSuite(text).problems.map((p) => `${text.slice(p.range.offset, p.range.offset + p.range.length)} ${p.message}`);
  const ALL = 'equals, contains, notContains, matches, maxLength, jsonSchema, speakable, maxWords';

  it('next_prompt_id can never equal an object: any object there is assertions, however misspelt', () => {
    assert.deepEqual(read({ next_prompt_id: { equal: 3 } }), [
      `"equal" next_prompt_id: "equal" is no assertion; use one of ${ALL} (did you mean "equals"?)`,
    ]);
    assert.deepEqual(read({ next_prompt_id: { target: 3 } }), [
      `"target" next_prompt_id: "target" is no assertion; use one of ${ALL}`,
    ]);
    assert.deepEqual(read({ next_prompt_id: {} }), [
      `{} next_prompt_id: {} checks nothing: give it assertions (${ALL}), or leave the field out`,
    ]);
    assert.deepEqual(read({ next_prompt_id: { equals: 3 }, response: { contians: 'x' } }), [
      `"contians" response: "contians" is no assertion; use one of ${ALL} (did you mean "contains"?)`,
    ]);
  });

  it("next_prompt_params: an object is the value it must equal, unless a key is an assertion's near miss", () => {
    assert.deepEqual(read({ next_prompt_params: { step: 2, customer: 'Ada' } }), []);
    assert.deepEqual(read({ next_prompt_params: { equal: { step: 2 } } }), [
      '"equal" next_prompt_params: "equal" is no assertion: did you mean "equals"? To expect an object with a key "equal", write it as { "equals": { … } }',
    ]);
    assert.deepEqual(
      read({ next_prompt_params: { macthes: '^a', step: 2 } }).map((p) => p.split(' ')[0]),
      ['"macthes"'],
    );
    assert.deepEqual(
      read({ next_prompt_params: { equals: { equal: 1 } } }),
      [],
      'an object with such a key, on purpose',
    );
    assert.deepEqual(
      checkOutput({ next_prompt_params: { equals: { equal: 1 } } }, { next_prompt_params: { equal: 1 } }),
      [],
    );
    assert.equal(
      checkOutput({ next_prompt_params: { equals: { equal: 1 } } }, { next_prompt_params: { equal: 2 } }).length,
      1,
    );
  });

  it("a pattern's flags and syntax, at the pattern", () => {
    assert.deepEqual(read({ response: { matches: '/^ok/x' } }), [
      '"/^ok/x" response: the pattern "/^ok/x" has "x", which is no flag here; use i (ignore case), m (^ and $ at every line), s (. matches line breaks too) or u',
    ]);
    assert.deepEqual(read({ response: { matches: '/^ok/gg' } }), [
      '"/^ok/gg" response: the pattern "/^ok/gg" gives the flag "g" twice; give each flag once',
    ]);
    assert.match(
      read({ response: { matches: '^(?!Sorry)' } })[0] ?? '',
      /^"\^\(\?!Sorry\)" response: the pattern "\^\(\?!Sorry\)" uses the lookahead/,
    );
    assert.match(
      read({ altered_prompt: { matches: 'a{2,1}' } })[0] ?? '',
      /^"a\{2,1\}" altered_prompt: the pattern "a\{2,1\}" is not a valid regular expression \(/,
    );
  });

  it('ignores a byte-order mark, and places problems in the text as given, columns as an editor shows them', () => {
    const text = `\uFEFF${JSON.stringify({ prompt: 1, cases: [{ name: 'a', prompt_text: 'x', expect: { response: { containz: 'y' } } }] })}`;
    const { problems } = parseSuite(text);
    assert.deepEqual(
      problems.map((p) => text.slice(p.range.offset, p.range.offset + p.range.length)),
      ['"containz"'],
    );
    assert.equal(
      lineColumnText(text, problems[0]?.range.offset ?? 0),
      `1:${text.indexOf('"containz"')}`,
      'the mark is no column',
    );
    const good = `\uFEFF{ "prompt": 1, "cases": [{ "name": "a", "turns": [{ "prompt_text": "hi" }] }] }`;
    const { suite, problems: none } = parseSuite(good);
    assert.deepEqual(none, []);
    const turn = suite?.cases[0]?.turns?.[0]?.range;
    assert.equal(good.slice(suite?.cases[0]?.range.offset), good.slice(good.indexOf('{ "name"')));
    assert.equal(good.slice(turn?.offset, (turn?.offset ?? 0) + (turn?.length ?? 0)), '{ "prompt_text": "hi" }');
  });

  it("two case names that are one name in Unicode's normal form (NFC) are a duplicate", () => {
    const composed = 'caf\u00e9';
    const decomposed = 'cafe\u0301';
    const text = JSON.stringify({
      prompt: 1,
      cases: [composed, decomposed].map((name) => ({ name, prompt_text: 'x', expect: { response: 'y' } })),
    });
    assert.deepEqual(
      parseSuite(text).problems.map((p) => p.message),
      [`another case is named "${composed}", the same name in other code points (Unicode NFC); names must be unique`],
    );
  });
});

describe('prompt tests: checks that end', () => {
  const deep = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('a suite nested deeper than 100 levels is a problem at the place, not a stack overflow', () => {
    const text = `{ "prompt": 1, "cases": [{ "name": "a", "prompt_text": "x", "expect": { "next_prompt_params": ${deep(100_000)} } }] }`;
    const { suite, problems } = parseSuite(text);
    assert.equal(suite, undefined);
    assert.deepEqual(
      problems.map((p) => [p.message, p.range.offset]),
      [
        [
          'arrays and objects nest more than 100 levels deep here; a suite never needs that many',
          text.indexOf('[[') + 96,
        ],
      ],
      'the 101st level: 4 of the suite, 97 of the value',
    );
  });

  it('an answer nested deeper than 100 levels fails every check that reads it, saying so', () => {
    const answer = JSON.parse(deep(100_000)) as JsonObject;
    assert.deepEqual(
      messages(
        { next_prompt_params: { step: 1 }, response: { contains: 'x', jsonSchema: { type: 'array' } } },
        { next_prompt_params: answer, response: deep(100_000) },
      ),
      [
        'next_prompt_params: nests more than 100 levels of arrays and objects, deeper than a check follows',
        'response: does not contain "x"; it is "' + deep(100_000) + '"',
        'response: nests more than 100 levels of arrays and objects, deeper than a check follows',
      ],
    );
  });

  it('an argument an assertion cannot take fails the check with the reason read time gives, whatever it holds', () => {
    assert.deepEqual(
      messages(
        {
          response: {
            maxWords: { toString: '' },
            contains: { valueOf: 1 },
            matches: '/x/y',
            jsonSchema: { constructor: {} },
          },
        },
        { response: 'x' },
      ),
      [
        'response: contains takes a text',
        'response: the pattern "/x/y" has the flag "y" (sticky), which means nothing for a test: the whole text is searched; start the pattern with ^ to match at the start',
        'response: not a JSON Schema: /constructor: unknown keyword (not one of the draft-07 keywords this check supports)',
        'response: maxWords takes a whole number of words',
      ],
    );
  });

  it('jsonSchema: a schema whose work doubles at every $ref stops with a message; uniqueItems on thousands of items names the one pair that is equal', () => {
    const definitions: JsonObject = { d30: { type: 'string' } };
    for (let i = 0; i < 30; i++)
      definitions[`d${i}`] = { anyOf: [{ $ref: `#/definitions/d${i + 1}` }, { $ref: `#/definitions/d${i + 1}` }] };
    // The step budget named in the message is the bound, not a clock: 2^30 paths would not end.
    assert.deepEqual(
      messages({ response: { jsonSchema: { definitions, $ref: '#/definitions/d0' } } }, { response: '5' }),
      [
        'response: does not satisfy the schema: value could not be checked: the schema took more than 10010 steps on it; simplify the schema (an anyOf or oneOf of $refs multiplies the work at every level)',
      ],
    );
    const items = Array.from({ length: 20_000 }, (_, i) => ({ i }));
    assert.deepEqual(
      messages({ response: { jsonSchema: { uniqueItems: true } } }, { response: JSON.stringify(items) }),
      [],
    );
    assert.deepEqual(
      messages({ response: { jsonSchema: { uniqueItems: true } } }, { response: JSON.stringify([...items, { i: 7 }]) }),
      ['response: does not satisfy the schema: value must NOT have duplicate items (items 7 and 20000 are equal)'],
    );
  });
});

describe('prompt tests: running', () => {
  const suite = (cases: Partial<Suite['cases'][number]>[]): Suite => ({
    resource: { segment: 'ai_prompts', ref: 'p' },
    cases: cases.map((c, i) => ({
      name: `case ${i}`,
      prompt_text: 'x',
      expect: { response: { contains: 'ok' } },
      repeat: 1,
      minPassRate: 1,
      range: { offset: 0, length: 0 },
      ...c,
    })),
  });

  it('passes and fails cases on their assertions, and a failed request fails its run with the reason', async () => {
    const execute: Executor['send'] = (c) =>
      c.name === 'case 2'
        ? Promise.reject(new Error('429 Too Many Requests'))
        : Promise.resolve({ response: c.name === 'case 0' ? 'ok' : 'no' });
    const result = await runSuite(suite([{}, {}, {}]), { send: execute });
    assert.deepEqual(
      result.cases.map((c) => [c.name, c.passed, c.verdict, c.runs, c.errors, caseMessages(c)]),
      [
        ['case 0', true, 'pass', 1, 0, []],
        ['case 1', false, 'fail', 1, 0, ['response: does not contain "ok"; it is "no"']],
        ['case 2', false, 'error', 0, 1, ['1 of 1 run errored (so it is not counted): 429 Too Many Requests']],
      ],
    );
    assert.deepEqual(publicResult(result), { passed: 1, failed: 2, skipped: 0, cases: result.cases.map(caseReport) });
  });

  it('weighs repeated runs by the pass rate', async () => {
    let n = 0;
    const execute: Executor['send'] = () => Promise.resolve({ response: n++ % 2 === 0 ? 'ok' : 'no' });
    const result = await runSuite(
      suite([
        { repeat: 4, minPassRate: 0.5 },
        { repeat: 4, minPassRate: 0.75 },
      ]),
      { send: execute },
      { concurrency: 1 },
    );
    assert.deepEqual(
      result.cases.map((c) => [c.passed, c.passRate]),
      [
        [true, 0.5],
        [false, 0.5],
      ],
    );
    assert.match(result.cases.map(caseMessages)[1]?.at(-1) ?? '', /passed 2 of 4 answered runs \(50%\); it needs 75%/);
  });

  it('gives every case its runs, passes, interval and verdict: pass, flaky or fail', async () => {
    let n = 0;
    const execute: Executor['send'] = (c) =>
      Promise.resolve({ response: c.name !== 'case 0' && n++ % 10 < 3 ? 'no' : 'ok' });
    const result = await runSuite(
      suite([{ repeat: 20 }, { repeat: 20, minPassRate: 0.6 }, { repeat: 10, minPassRate: 0.9 }]),
      { send: execute },
      { concurrency: 1 },
    );
    assert.deepEqual(
      result.cases.map((c) => [c.verdict, c.passed, c.passes, c.runs, c.passRate]),
      [
        ['pass', true, 20, 20, 1],
        ['flaky', true, 14, 20, 0.7],
        ['fail', false, 7, 10, 0.7],
      ],
    );
    assert.equal(verdictLine(result.cases[1] as CaseResult), 'flaky: 14/20 passed, 95% interval 48–86%');
    assert.ok(Math.abs((result.cases[1]?.interval[0] ?? 0) - 0.4810271816464766) < 1e-9);
  });

  it('never sends more than the concurrency at once', async () => {
    let open = 0;
    let most = 0;
    const execute: Executor['send'] = async () => {
      most = Math.max(most, ++open);
      await new Promise<void>((resolve) => setImmediate(resolve));
      open--;
      return { response: 'ok' };
    };
    await runSuite(suite([{ repeat: 5 }, { repeat: 5 }]), { send: execute }, { concurrency: 3 });
    assert.equal(most, 3);
  });

  it('fails a run slower than maxMs', async () => {
    let clock = 0;
    const execute: Executor['send'] = () => {
      clock += 250;
      return Promise.resolve({ response: 'ok' });
    };
    const result = await runSuite(suite([{ maxMs: 100 }]), { send: execute }, { now: () => clock });
    assert.deepEqual(result.cases.map(caseMessages)[0], ['duration: took 250 ms, more than maxMs 100']);
  });

  it("reports a case's latency, its answered runs' median and 95th percentile, and fails one whose p95 is over maxP95Ms", () => {
    // 20 answered runs taking 100, 200, …, 2000 ms, and one that errored after 9000 ms, which is no latency of the prompt.
    const answered = Array.from({ length: 20 }, (_, i) => ({ passed: true, durationMs: (i + 1) * 100, failures: [] }));
    const errored = { passed: false, durationMs: 9000, failures: [], error: 'HTTP error 503' };
    const testCase = suite([{ repeat: 21, maxP95Ms: 1500 }]).cases[0] as TestCase;
    const result = caseResult(testCase, [...answered, errored]);
    assert.deepEqual(result.latency, { p50: 1000, p95: 1900 });
    assert.ok(
      result.failures.some(
        (f) =>
          f.message === 'latency: the 95th percentile of 20 runs is 1900 ms, more than maxP95Ms 1500 (median 1000 ms)',
      ),
      JSON.stringify(result.failures),
    );
    // The errored run leaves the case without a verdict on its answers: error, not a pass and not hidden by the latency.
    assert.equal(result.verdict, 'error');
    const fast = caseResult({ ...testCase, repeat: 20 }, answered.slice(0, 15).concat(answered.slice(0, 5)));
    assert.equal(fast.verdict, 'pass', 'a p95 within maxP95Ms passes');
    const slow = caseResult({ ...testCase, repeat: 20 }, answered);
    assert.equal(slow.verdict, 'fail');
    assert.equal(caseReport(slow).latency?.p95, 1900, 'reports carry the latency');
  });

  it('takes percentiles by nearest rank, a measured duration and never one between two', () => {
    assert.equal(percentile([5], 95), 5);
    assert.equal(percentile([3, 1, 2], 50), 2);
    assert.equal(percentile([1, 2, 3, 4], 50), 2);
    assert.equal(percentile([1, 2, 3, 4], 95), 4);
    assert.equal(percentile([10, 20, 30, 40, 50, 60, 70, 80, 90, 100], 95), 100);
    assert.equal(percentile([10, 20, 30, 40, 50, 60, 70, 80, 90, 100], 90), 90);
    assert.equal(latencyOf([]), undefined);
  });

  it('marks what a cancellation left unrun as skipped', async () => {
    const controller = new AbortController();
    const execute: Executor['send'] = async (c, { signal }) => {
      if (c.name === 'case 0') {
        controller.abort();
        return { response: 'ok' };
      }
      return signal.aborted ? Promise.reject(new Error('cancelled')) : { response: 'ok' };
    };
    const result = await runSuite(
      suite([{}, {}, {}]),
      { send: execute },
      { concurrency: 1, signal: controller.signal },
    );
    assert.deepEqual(
      result.cases.map((c) => [c.passed, c.skipped]),
      [
        [true, false],
        [false, true],
        [false, true],
      ],
    );
    assert.equal(result.skipped, 2);
  });

  it('writes JUnit XML: one testcase per case, failures with their messages, text escaped', async () => {
    const result = await runSuite(suite([{ name: 'ok <1>' }, { name: 'bad & sad' }]), {
      send: (c) => Promise.resolve({ response: c.name === 'ok <1>' ? 'ok' : '<no>' }),
    });
    const xml = junitXml([{ name: 'triage.prompttest.json', result }]);
    assert.equal((xml.match(/<testcase /g) ?? []).length, 2);
    assert.match(
      xml,
      /<testcase classname="triage\.prompttest\.json" name="ok &lt;1&gt;" time="[\d.]+"><properties>.*<\/properties><\/testcase>/,
    );
    assert.match(
      xml,
      /<testcase classname="triage\.prompttest\.json" name="bad &amp; sad" time="[\d.]+"><properties>.*<\/properties><failure message="response: does not contain &quot;ok&quot;; it is &quot;&lt;no&gt;&quot;">/,
    );
    assert.match(xml, /<testsuites tests="2" failures="1" errors="0" skipped="0">/);
  });
});
