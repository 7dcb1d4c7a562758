import * as assert from 'node:assert/strict';
import { namingProblems, runsInFolder, whereSuiteRuns } from '../../src/core/prompt-tests/target';
import { parseSuite } from '../../src/core/prompt-tests/suite-parser';

describe('prompt tests: where a suite runs, one rule for both shells', () => {
  const suite = { target: { connection: 'staging', tenantId: 2 } };

  it("takes what the command names over the suite's target, and the target over the shell's default", () => {
    assert.deepEqual(whereSuiteRuns(suite, { tenantId: 7 }, { connection: 'local', tenantId: 1 }), {
      connection: 'staging',
      tenantId: 7,
    });
    assert.deepEqual(whereSuiteRuns(suite, {}, { connection: 'local', tenantId: 1 }), {
      connection: 'staging',
      tenantId: 2,
    });
    assert.deepEqual(whereSuiteRuns({}, {}, { connection: 'local', tenantId: 1 }), {
      connection: 'local',
      tenantId: 1,
    });
    assert.deepEqual(
      whereSuiteRuns({ target: { tenantId: 0 } }, {}, { tenantId: 1 }),
      { connection: undefined, tenantId: 0 },
      'tenant 0 is a tenant',
    );
  });

  it("counts a suite as the folder's when it names the folder's tenant and connection, or leaves them out", () => {
    const folder = { connection: 'local', tenantId: 1 };
    assert.equal(runsInFolder({ connection: 'local', tenantId: 1 }, folder), true);
    assert.equal(runsInFolder({}, folder), true, 'a suite naming nothing runs, and says so itself');
    assert.equal(runsInFolder({ tenantId: 2 }, folder), false);
    assert.equal(runsInFolder({ connection: 'staging', tenantId: 1 }, folder), false);
  });
});

describe('prompt tests: the names a suite gives, checked against a listing', () => {
  const listing = [
    { id: 1, name: 'Support Greeting' },
    { id: 2, name: 'Order Triage' },
    { id: 3, name: 'Call Judge' },
  ];
  const suiteOf = (value: unknown): { text: string; suite: NonNullable<ReturnType<typeof parseSuite>['suite']> } => {
    const text = JSON.stringify(value, null, 2);
    const { suite, problems } = parseSuite(text);
    assert.deepEqual(problems, []);
    assert.ok(suite);
    return { text, suite };
  };
  const call = (stopWhen: string, judge: string): unknown => ({
    prompt: 'Support Greeting',
    cases: [
      {
        name: 'call',
        simulate: { caller: 'Order Triage', persona: 'p', opening: 'Hello', stopWhen: { prompt: stopWhen } },
        criteria: [{ name: 'days', judge, rubric: 'r' }],
      },
    ],
  });

  it('finds nothing wrong when every name is in the listing', () => {
    const { suite } = suiteOf(call('Order Triage', 'Call Judge'));
    assert.deepEqual(namingProblems(suite, listing, 1, 'connection "local"'), []);
  });

  it('names each missing prompt, with the closest name when there is one, at the place that gives it', () => {
    const { text, suite } = suiteOf(call('Closing', 'Call Jugde'));
    const problems = namingProblems(suite, listing, 1, 'connection "local"');
    assert.deepEqual(
      problems.map((p) => p.message),
      [
        'case "call", simulate.stopWhen.prompt "Closing" names no prompt of tenant 1; give the name or id of one of its prompts',
        'case "call", criterion "days": judge "Call Jugde" names no prompt of tenant 1; did you mean "Call Judge"?',
      ],
    );
    const judged = problems[1];
    assert.ok(judged);
    assert.match(text.slice(judged.range.offset, judged.range.offset + judged.range.length), /"judge": "Call Jugde"/);
  });

  it('places the name of a suite that starts with a byte-order mark in the text as given', () => {
    const text = `\ufeff${JSON.stringify({ prompt: 'Nowhere', cases: [{ name: 'a', prompt_text: 'x', expect: { response: 'y' } }] })}`;
    const { suite } = parseSuite(text);
    assert.ok(suite);
    const [problem] = namingProblems(suite, listing, 1, 'connection "local"');
    assert.ok(problem);
    assert.equal(text.slice(problem.range.offset, problem.range.offset + problem.range.length), '"Nowhere"');
  });

  it("puts a suite's own missing prompt on its name, and checks nothing else until it is found", () => {
    const { text, suite } = suiteOf({ ...(call('Closing', 'x') as object), prompt: 'Support Greting' });
    const problems = namingProblems(suite, listing, 1, 'connection "local"');
    assert.equal(problems.length, 1);
    const [problem] = problems;
    assert.ok(problem);
    assert.match(
      problem.message,
      /^AI Prompt "Support Greting" is not in tenant 1 on connection "local"; it holds "Support Greeting", /,
    );
    assert.equal(text.slice(problem.range.offset, problem.range.offset + problem.range.length), '"Support Greting"');
  });
});
