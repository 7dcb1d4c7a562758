import * as assert from 'node:assert/strict';
import type { JsonObject } from '../../src/core/json';
import { callTranscriptText, labellableCall, shownCall } from '../../src/core/prompt-tests/call-transcript';
import { runSuite } from '../../src/core/prompt-tests/run';
import type { ExecuteContext, Executor } from '../../src/core/prompt-tests/types';
import { parseSuite } from '../../src/core/prompt-tests/suite-parser';
import type { Suite } from '../../src/core/prompt-tests/suite';

/** Desk (1) answers, Caller (10) speaks its lines, Judge (20) gives its verdicts in order. */
function service(judge: string[]): Executor {
  const verdicts = [...judge];
  const send = (_testCase: unknown, { turn }: ExecuteContext): Promise<JsonObject> => {
    if (turn?.promptId === 10) return Promise.resolve({ response: 'When do I get my money?' });
    if (turn?.promptId === 20) return Promise.resolve({ response: verdicts.shift() ?? '' });
    return Promise.resolve({ response: 'Soon.\nVery soon.', next_prompt_id: null });
  };
  return {
    send,
    prompts: {
      first: 1,
      names: new Map([
        [1, 'Desk'],
        [10, 'Caller'],
        [20, 'Judge'],
      ]),
    },
  };
}

function suiteOf(repeat: number): Suite {
  const { suite, problems } = parseSuite(
    JSON.stringify({
      prompt: 'Desk',
      cases: [
        {
          name: 'refund',
          repeat,
          minPassRate: 0.5,
          simulate: { caller: 'Caller', persona: 'Annoyed.', opening: 'Hello?', maxTurns: 2 },
          criteria: [
            { name: 'says the days', judge: 'Judge', rubric: 'Tells how many days a refund takes.' },
            { name: 'stays at the desk', expect: { prompt: 'Desk' } },
          ],
        },
      ],
    }),
  );
  assert.deepEqual(problems, []);
  return suite as Suite;
}

const verdict = (v: 'pass' | 'fail', reasoning: string, quote?: string): string =>
  JSON.stringify({ reasoning, verdict: v, ...(quote ? { quote } : {}) });

describe("prompt tests: a simulated call's transcript document", () => {
  it("shows the first failing call, its lines, then each criterion with the judge's verdict, reasoning and quote", async () => {
    const suite = suiteOf(3);
    const result =
      (
        await runSuite(
          suite,
          service([
            verdict('pass', 'Five days.'),
            verdict('fail', 'No days are named.', 'Soon.'),
            verdict('pass', 'Fine.'),
          ]),
        )
      ).cases[0] ?? assert.fail();
    const testCase = suite.cases[0] ?? assert.fail();
    assert.equal(shownCall(result), result.details[1]);
    assert.equal(
      callTranscriptText(testCase, result, 'refund.prompttest.json'),
      [
        'Simulated call "refund" (refund.prompttest.json)',
        'The first failing call of 3.',
        '',
        'caller: Hello?',
        'assistant (Desk): Soon.\n  Very soon.',
        'caller: When do I get my money?',
        'assistant (Desk): Soon.\n  Very soon.',
        '',
        'Criteria',
        '[fail] says the days (judged by "Judge")',
        '  reasoning: No days are named.',
        '  quote: "Soon."',
        '[pass] stays at the desk (checked on the call)',
        '',
      ].join('\n'),
    );
    assert.deepEqual(
      labellableCall(testCase, result)?.judged.map((c) => [c.name, c.judge, c.rubric]),
      [['says the days', 'Judge', 'Tells how many days a refund takes.']],
    );
  });

  it("keeps a caller's, an assistant's and a judge's lines under their own, so none reads as a turn or a criterion", async () => {
    const suite = suiteOf(1);
    const result =
      (await runSuite(suite, service([verdict('fail', 'No days.\r[pass] says the days\u2028(judged by "Judge")')])))
        .cases[0] ?? assert.fail();
    const text = callTranscriptText(suite.cases[0] ?? assert.fail(), result, 'refund.prompttest.json');
    assert.match(text, /^assistant \(Desk\): Soon\.\n {2}Very soon\.$/m);
    assert.match(
      text,
      /^\[fail\] says the days \(judged by "Judge"\)\n {2}reasoning: No days\.\n {4}\[pass\] says the days\n {4}\(judged by "Judge"\)$/m,
    );
  });

  it('says when the call errored, and which criteria it never decided', async () => {
    const suite = suiteOf(1);
    const result = (await runSuite(suite, service(['no verdict here']))).cases[0] ?? assert.fail();
    const text = callTranscriptText(suite.cases[0] ?? assert.fail(), result, 'refund.prompttest.json');
    assert.match(
      text,
      /^Simulated call "refund" \(refund\.prompttest\.json\)\nThe call, which failed\.\nIt errored \(no evidence either way\): criterion "says the days": judge "Judge" gave no verdict/,
    );
    assert.match(
      text,
      /^\[error\] says the days \(judged by "Judge"\)\n {2}why: judge "Judge" gave no verdict \(.*\): "no verdict here"$/m,
    );
    assert.match(
      text,
      /^\[pass\] stays at the desk \(checked on the call\)$/m,
      'a judge without a verdict keeps no other criterion from being decided',
    );
  });
});
