import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Json, JsonObject } from '../../src/core/json';
import { checkOutput } from '../../src/core/prompt-tests/assertions';
import { requestBound } from '../../src/core/prompt-tests/cost';
import { readJudgeAnswer } from '../../src/core/prompt-tests/judge';
import { isJudged } from '../../src/core/prompt-tests/simulated-case';
import { transcriptText } from '../../src/core/prompt-tests/call-transcript';
import { parseSuite } from '../../src/core/prompt-tests/suite-parser';

/**
 * Whatever a suite holds and whatever the service answers, the reader and the assertion engine answer: a suite or its
 * problems, failures or none. Random JSON, valid suites broken in every way a hand or a merge breaks them, patterns
 * that make a backtracking engine run for years, schemas whose work doubles, answers of kilobytes. The run is bounded
 * as a whole, by its number of runs and the test's time-out, not call by call by a clock: one call that blew up would
 * not end, where a busy machine only makes every call a little slower.
 */
const SUITES = 5_000;
const CHECKS = 5_000;
const SIMULATED = 10_000;
const JUDGE_ANSWERS = 10_000;

/** What some reader takes for a line break (LF alone is the transcript's own). */
const LINE_BREAKS = [
  '\r\n',
  '\n',
  '\r',
  '\u000b',
  '\u000c',
  '\u001c',
  '\u001d',
  '\u001e',
  '\u0085',
  '\u2028',
  '\u2029',
];

/** Characters that break naive code: lone surrogates, joined emoji, a byte-order mark, Markdown, JSON and regex syntax. */
const unit = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: fc.constantFrom('a', 'a', 'b', ' ', '\n', '!', '1', '2025. ') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '\ud800',
      '\udfff',
      '\uFEFF',
      'e\u0301',
      '👨‍👩‍👧',
      '🇩🇪',
      '1️⃣',
      '👍🏽',
      '\u200D',
      '**',
      '__',
      '`',
      '```',
      '[',
      '](',
      '# ',
      '- ',
      '|',
      'https://x.test',
      '{',
      '}',
      '"',
      '\\',
      '/',
      '(',
      ')',
      '*',
      '+',
      '?',
      '$',
      '^',
      '\u2028',
    ),
  },
);
const text = (maxLength: number) => fc.string({ unit, maxLength });
// fast-check's JSON is ours: its object type only allows the `undefined` that JSON never holds.
const json = fc.jsonValue({ maxDepth: 4, stringUnit: unit }) as fc.Arbitrary<Json>;

/** Patterns a backtracking engine would spend years on, with the answers that make it. */
const CATASTROPHIC = [
  '(a+)+$',
  '(.*a){20}',
  '(.*a){20}$',
  '(a|aa)+$',
  '(a|a)*b',
  '((a*)*)*$',
  '^(\\w+\\s?)*$',
  '^(a+)+b',
  '(x+x+)+y',
  '(a+){25}$',
  '/(A+)+$/i',
  '(?:a?){40}a{40}',
  '([a-z]+)*[0-9]$',
  '^(\\d+)*$',
  '(.*){1,32000}[bc]',
  '(\\w|\\d)+!$',
  '^(([a-z])+.)+[A-Z]([a-z])+$',
  '.{0,999}.{0,999}!',
  // As large as a pattern may be, and as slow as those get on an answer of some kilobytes.
  '[a-z]{480}!',
  '(a|b|c){160}!',
  '(?i)[\\s\\S]{0,160}[^a]{160}$',
  '(\\w+\\s?){1,68}!',
];
const TOKENS = [
  'a',
  'b',
  '.',
  '*',
  '+',
  '?',
  '*?',
  '(',
  ')',
  '(?:',
  '|',
  '[',
  ']',
  '[^',
  '-',
  '{2}',
  '{2,5}',
  '{0,999}',
  '{1000}',
  '{40}',
  '\\d',
  '\\w',
  '\\s',
  '\\b',
  '\\1',
  '\\k<n>',
  '(?<n>',
  '(?=',
  '(?!',
  '(?<=',
  '(?<!',
  '^',
  '$',
  '\\',
  '\\u00e9',
  '\\u{1F30D}',
  '\\p{L}',
  '\\ud83c\\udf0d',
  '/',
  'é',
  '🌍',
  '🇩🇪',
];
const patternSource = fc.oneof(
  fc.constantFrom(...CATASTROPHIC),
  fc.array(fc.constantFrom(...TOKENS), { maxLength: 24 }).map((tokens) => tokens.join('')),
  text(30),
);
const flags = fc.string({ unit: fc.constantFrom('g', 'i', 'm', 's', 'u', 'y', 'v', 'd', 'x', 'I'), maxLength: 3 });
const written = fc.oneof(
  patternSource,
  fc.tuple(patternSource, flags).map(([source, f]) => `/${source}/${f}`),
);

/** Schemas with user patterns and work that multiplies, and random junk where a schema goes. */
const chain = (links: number, kind: 'anyOf' | 'allOf' | 'oneOf'): JsonObject => {
  const definitions: JsonObject = { [`d${links}`]: { type: 'string', pattern: '^(a+)+$' } };
  for (let i = 0; i < links; i++)
    definitions[`d${i}`] = { [kind]: [{ $ref: `#/definitions/d${i + 1}` }, { $ref: `#/definitions/d${i + 1}` }] };
  return { definitions, $ref: '#/definitions/d0' };
};
const schema: fc.Arbitrary<Json> = fc.oneof(
  patternSource.map((pattern) => ({ type: 'string', pattern })),
  patternSource.map((pattern) => ({
    type: 'object',
    patternProperties: { [pattern]: { type: 'number' } },
    additionalProperties: false,
  })),
  patternSource.map(
    (pattern): Json => ({ type: 'array', items: { anyOf: [{ pattern }, { $ref: '#' }] }, uniqueItems: true }),
  ),
  fc
    .tuple(
      fc.integer({ min: 1, max: 40 }),
      fc.constantFrom('anyOf', 'allOf', 'oneOf') as fc.Arbitrary<'anyOf' | 'allOf' | 'oneOf'>,
    )
    .map(([links, kind]) => chain(links, kind)),
  fc.constantFrom<Json>(
    { $ref: '#' },
    { not: { $ref: '#' } },
    { items: { $ref: '#' } },
    { definitions: { a: { $ref: '#/definitions/a' } }, $ref: '#/definitions/a' },
  ),
  json,
);

const assertionSet: fc.Arbitrary<JsonObject> = fc.record(
  {
    equals: json,
    contains: fc.oneof(text(10), json),
    notContains: text(10),
    matches: fc.oneof(written, json),
    maxLength: fc.oneof(fc.nat(5_000), json),
    jsonSchema: schema,
    speakable: fc.oneof(fc.constant(true), json),
    maxWords: fc.oneof(fc.nat(500), json),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<JsonObject>;
const expectation: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: assertionSet },
  { weight: 1, arbitrary: json },
);
const FIELDS = ['response', 'altered_prompt', 'next_prompt_id', 'next_prompt_params', 'result', 'status'];
const expect = fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), text(8)), expectation, { maxKeys: 4 });

/** Answers of up to some kilobytes: the runs of one character that catastrophic patterns need, Markdown, JSON as text. */
const longText = fc
  .tuple(
    fc.constantFrom('a', 'x', 'ab', 'aaaa!', '**a ', '[a](', '`a', '👍', '🇩🇪', '- a\n', '1. ', ' ', 'A'),
    fc.integer({ min: 1, max: 3_000 }),
  )
  .map(([piece, times]) => `${piece.repeat(times).slice(0, 3_000)}!`);
const answer: fc.Arbitrary<Json> = fc.oneof(
  text(200),
  longText,
  json.map((value) => JSON.stringify(value)),
  json,
  fc.constant(null),
);
const output = fc.record(Object.fromEntries(FIELDS.map((field) => [field, answer])), {
  requiredKeys: [],
}) as fc.Arbitrary<JsonObject>;

/** A suite that reads without problems: the seed of the mutations. */
const turn = fc.record({
  prompt_text: text(20),
  expect: fc.record(
    {
      prompt: fc.oneof(text(10), fc.nat()),
      response: fc.record({ speakable: fc.constant(true), maxWords: fc.nat(50) }),
    },
    { requiredKeys: [] },
  ),
});
const validCase = fc.oneof(
  fc.record(
    {
      prompt_text: text(40),
      prompt_params: fc.dictionary(text(8), json, { maxKeys: 3 }),
      expect: fc.record(
        {
          response: fc.oneof(
            text(20),
            fc.record({ contains: text(5), matches: written, maxLength: fc.nat(1_000) }, { requiredKeys: [] }),
          ),
          next_prompt_id: fc.oneof(fc.nat(), fc.constant(null)),
          next_prompt_params: fc.dictionary(text(8), json, { maxKeys: 3 }),
        },
        { requiredKeys: [] },
      ),
      repeat: fc.integer({ min: 1, max: 100 }),
      minPassRate: fc.double({ min: 0, max: 1, noNaN: true }),
    },
    { requiredKeys: ['prompt_text', 'expect'] },
  ),
  fc.record({ turns: fc.array(turn, { minLength: 1, maxLength: 3 }) }),
);
// Seeds that read: texts that are never empty, patterns that compile; the mutations break them.
const filled = (maxLength: number) => text(maxLength).map((t) => `x${t}`);
const ref = fc.oneof(filled(12), fc.nat());
const goodPattern = fc.constantFrom('days', '^Sure', '/refund/i', '\\d+ days');
const criterion = fc.oneof(
  fc.record({ judge: ref, rubric: filled(40) }),
  fc.record({
    expect: fc.record(
      {
        prompt: ref,
        maxTurns: fc.integer({ min: 1, max: 60 }),
        response: fc.record({ speakable: fc.constant(true), matches: goodPattern }, { requiredKeys: [] }),
      },
      { requiredKeys: ['prompt'] },
    ),
  }),
);
const simulatedCase = fc.record(
  {
    simulate: fc.record(
      {
        caller: ref,
        persona: text(40),
        opening: filled(30),
        maxTurns: fc.integer({ min: 1, max: 50 }),
        params: fc.dictionary(text(8), json, { maxKeys: 2 }),
        stopWhen: fc.record(
          { prompt: ref, response: fc.record({ contains: text(8), matches: goodPattern }, { requiredKeys: [] }) },
          { requiredKeys: ['prompt'] },
        ),
      },
      { requiredKeys: ['caller', 'opening'] },
    ),
    criteria: fc
      .array(criterion, { minLength: 1, maxLength: 4 })
      .map((criteria) => criteria.map((c, i) => ({ name: `criterion ${i}`, ...c }))),
    judgeRepeat: fc.constantFrom(1, 3, 5, 15),
    repeat: fc.integer({ min: 1, max: 100 }),
  },
  { requiredKeys: ['simulate', 'criteria'] },
);
const suiteOf = (cases: fc.Arbitrary<JsonObject>) =>
  fc.record(
    {
      target: fc.record({ connection: text(10), tenantId: fc.nat() }, { requiredKeys: [] }),
      prompt: fc.oneof(text(20), fc.nat()),
      cases: fc
        .array(cases, { minLength: 1, maxLength: 4 })
        .map((list) => list.map((c, i) => ({ name: `case ${i}`, ...c }))),
    },
    { requiredKeys: ['prompt', 'cases'] },
  );
const validSuite = suiteOf(validCase as fc.Arbitrary<JsonObject>);
const simulatedSuite = suiteOf(
  fc.oneof(simulatedCase as fc.Arbitrary<JsonObject>, validCase as fc.Arbitrary<JsonObject>),
);

/** What a judge prompt may answer: the verdict object in any key order, fenced or not, cut, wrapped, or anything else. */
const verdictObject = fc.record(
  {
    reasoning: fc.oneof(text(80), json),
    verdict: fc.oneof(fc.constantFrom('pass', 'fail', 'PASS', 'yes'), json),
    quote: fc.oneof(text(20), json),
  },
  { requiredKeys: [] },
);
const judgeAnswer = fc.oneof(
  verdictObject.map((value) => JSON.stringify(value)),
  fc
    .tuple(
      verdictObject,
      fc.constantFrom('```json\n', '```\n', ' ```JSON\n', ''),
      fc.constantFrom('\n```', '```', '', ' and more'),
    )
    .map(([value, open, close]) => `${open}${JSON.stringify(value, null, 2)}${close}`),
  fc.tuple(verdictObject, fc.nat()).map(([value, cut]) => JSON.stringify(value).slice(0, cut)),
  json.map((value) => JSON.stringify(value)),
  text(300),
  longText,
);

type Mutation = { at: number; how: 'delete' | 'rename' | 'retype' | 'odd' | 'nest'; junk: Json; name: string };
const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  how: fc.constantFrom('delete', 'rename', 'retype', 'odd', 'nest'),
  junk: fc.oneof(json, text(50), fc.constantFrom('x'.repeat(100_000), '🇩🇪'.repeat(5_000), '\ud800'.repeat(1_000))),
  name: fc.oneof(
    fc.constantFrom(
      'equal',
      'containz',
      'macthes',
      'nmae',
      'expcet',
      'turn',
      'prompt_txt',
      'repeats',
      'cases',
      '__proto__',
      'constructor',
    ),
    text(8),
  ),
});

/** Every object and array in `value` with the key that holds it, for a mutation to pick one. */
function places(
  value: Json,
  found: Array<{ parent: JsonObject | Json[]; key: string | number }> = [],
): Array<{ parent: JsonObject | Json[]; key: string | number }> {
  const children: Array<[string | number, Json]> = Array.isArray(value)
    ? value.map((item, i) => [i, item])
    : value !== null && typeof value === 'object'
      ? Object.entries(value)
      : [];
  for (const [key, child] of children) {
    found.push({ parent: value as JsonObject | Json[], key });
    places(child, found);
  }
  return found;
}

function mutated(suite: Json, mutations: Mutation[]): Json {
  const copy = structuredClone(suite);
  for (const { at, how, junk, name } of mutations) {
    const all = places(copy);
    const place = all[at % Math.max(all.length, 1)];
    if (!place) continue;
    const { parent, key } = place;
    const value = (parent as Record<string | number, Json>)[key] as Json;
    const set = (next: Json): void => void ((parent as Record<string | number, Json>)[key] = next);
    if (how === 'delete' && Array.isArray(parent)) parent.splice(key as number, 1);
    else if (how === 'delete') delete (parent as JsonObject)[key as string];
    else if (how === 'rename' && !Array.isArray(parent)) {
      delete parent[key as string];
      // Defined, not assigned: "__proto__" stays a key, as a parser reads it.
      Object.defineProperty(parent, name, { value, enumerable: true, writable: true, configurable: true });
    } else if (how === 'retype')
      set(
        typeof value === 'string'
          ? 3
          : typeof value === 'number'
            ? String(value)
            : Array.isArray(value)
              ? {}
              : value === null
                ? []
                : typeof value === 'object'
                  ? [value]
                  : null,
      );
    else if (how === 'odd') set(junk);
    else set({ [name]: value, equals: junk });
  }
  return copy;
}

/** How the text of a suite is written: indented or not, with a byte-order mark, comments, a trailing comma, or cut short. */
const layout = fc.record({
  indent: fc.constantFrom(0, 2),
  bom: fc.boolean(),
  comment: fc.boolean(),
  cut: fc.option(fc.nat(), { nil: undefined }),
});
function textOf(value: Json, how: { indent: number; bom: boolean; comment: boolean; cut?: number }): string {
  let text = JSON.stringify(value, null, how.indent);
  if (how.comment) text = text.replace('{', '{ // a comment\n').replace(/\}$/, ', }');
  if (how.cut !== undefined) text = text.slice(0, how.cut % (text.length + 1));
  return `${how.bom ? '\uFEFF' : ''}${text}`;
}

const suiteText = fc.oneof(
  {
    weight: 2,
    arbitrary: fc
      .tuple(validSuite, fc.array(mutation, { maxLength: 4 }), layout)
      .map(([suite, mutations, how]) => textOf(mutated(suite as Json, mutations), how)),
  },
  { weight: 1, arbitrary: fc.tuple(json, layout).map(([value, how]) => textOf(value, how)) },
  { weight: 1, arbitrary: text(300) },
);

describe('prompt tests: properties of the reader and the checks', () => {
  it(`${SUITES} suites, ${CHECKS} checks, ${SIMULATED} suites of simulated calls and ${JUDGE_ANSWERS} judge answers each end with a result or a problem and never an exception`, function () {
    this.timeout(120_000);
    let calls = 0;
    const counted = <T>(call: () => T): T => {
      calls++;
      return call();
    };
    // Loading re2js's Unicode tables and compiling the code once is no input's doing.
    checkOutput({ response: { matches: '\\p{L}', speakable: true, jsonSchema: { pattern: 'a' } } }, { response: 'a' });

    fc.assert(
      fc.property(suiteText, output, (text, answer) => {
        const { suite, problems } = counted(() => parseSuite(text));
        assert.ok(suite !== undefined || problems.length > 0, 'a suite or why not');
        for (const problem of problems) {
          assert.ok(problem.message.length > 0);
          assert.ok(
            problem.range.offset >= 0 && problem.range.offset + problem.range.length <= text.length + 1,
            `${problem.message} lies within the text`,
          );
        }
        for (const testCase of suite?.cases ?? []) {
          for (const expected of [testCase.expect, ...(testCase.turns ?? []).map((t) => t.expect)]) {
            counted(() => checkOutput(expected, answer));
          }
        }
      }),
      { numRuns: SUITES },
    );

    fc.assert(
      fc.property(expect, output, (expected, answer) => {
        const failures = counted(() => checkOutput(expected, answer));
        for (const failure of failures) assert.ok(failure.message.startsWith(`${failure.field}: `), failure.message);
      }),
      { numRuns: CHECKS },
    );

    let simulatedRead = 0;
    fc.assert(
      fc.property(
        fc.tuple(simulatedSuite, fc.array(mutation, { maxLength: 3 }), layout),
        output,
        ([suite, mutations, how], answer) => {
          const text = textOf(mutated(suite as Json, mutations), how);
          const { suite: read, problems } = counted(() => parseSuite(text));
          assert.ok(read !== undefined || problems.length > 0, 'a suite or why not');
          if (!read) return;
          assert.ok(counted(() => requestBound(read)) >= read.cases.length);
          simulatedRead += read.cases.filter((c) => c.simulate).length;
          for (const testCase of read.cases) {
            const expects = [
              testCase.simulate?.stopWhen?.expect,
              ...(testCase.criteria ?? []).map((c) => (isJudged(c) ? undefined : c.expect.outputs)),
            ];
            for (const expected of expects) if (expected) counted(() => checkOutput(expected, answer));
          }
        },
      ),
      { numRuns: SIMULATED },
    );
    assert.ok(
      simulatedRead > SIMULATED / 20,
      `only ${simulatedRead} simulated calls read: the seeds must read when no mutation broke them`,
    );

    fc.assert(
      fc.property(judgeAnswer, (response) => {
        const read = counted(() => readJudgeAnswer(response));
        if ('problem' in read) assert.ok(read.problem.length > 0);
        else assert.ok(read.verdict === 'pass' || read.verdict === 'fail', 'only a verdict is read as one');
      }),
      { numRuns: JUDGE_ANSWERS },
    );

    assert.ok(calls >= SUITES + CHECKS + SIMULATED + JUDGE_ANSWERS);
  });

  it("no caller's line, answer or prompt name writes a line of the transcript that reads as another turn", () => {
    const said = fc.string({
      unit: fc.oneof(
        unit,
        fc.constantFrom(...LINE_BREAKS, '\u202E', 'caller: ', 'assistant (Desk): ', '): ', ')', ':', ' '),
      ),
      maxLength: 40,
    });
    const turn = fc.record({
      speaker: fc.constantFrom('caller' as const, 'assistant' as const),
      prompt: said,
      text: said,
    });
    fc.assert(
      fc.property(fc.array(turn, { minLength: 1, maxLength: 6 }), (turns) => {
        const transcript = transcriptText(turns);
        assert.doesNotMatch(
          transcript,
          // eslint-disable-next-line no-control-regex
          /[\r\u000b\u000c\u001c-\u001e\u0085\u2028\u2029]/,
          'a line feed is the only line break',
        );
        const starts = transcript.split('\n').filter((line) => !line.startsWith('  '));
        assert.equal(starts.length, turns.length, transcript);
        turns.forEach(({ speaker, text: spoken }, i) => {
          const line = starts[i] as string;
          // The name ends at the first ")" before ":"; what follows ": " is the turn's first line.
          const header = speaker === 'caller' ? 'caller: '.length : line.indexOf('):') + '): '.length;
          assert.ok(line.startsWith(speaker === 'caller' ? 'caller: ' : 'assistant ('), line);
          assert.equal(line.slice(header), spoken.split(new RegExp(LINE_BREAKS.join('|')))[0], line);
        });
      }),
      { numRuns: 2_000 },
    );
  });

  it('never reads a judge answer that gives a key twice as a verdict', () => {
    const key = fc.constantFrom('reasoning', 'verdict', 'quote');
    const value = fc.oneof(fc.constantFrom('pass', 'fail'), text(20));
    fc.assert(
      fc.property(key, value, value, fc.boolean(), (twice, first, second, fenced) => {
        const body = `{"reasoning":"Why.",${JSON.stringify(twice)}:${JSON.stringify(first)},"verdict":"pass",${JSON.stringify(twice)}:${JSON.stringify(second)}}`;
        const read = readJudgeAnswer(fenced ? `\`\`\`json\n${body}\n\`\`\`` : body);
        assert.ok('problem' in read, body);
      }),
      { numRuns: 2_000 },
    );
  });
});
