import * as assert from 'node:assert/strict';
import type { JsonObject } from '../../src/core/json';
import { caseReport } from '../../src/core/prompt-tests/report';
import { caseMessages } from '../../src/core/prompt-tests/case-messages';
import { runSuite } from '../../src/core/prompt-tests/run';
import type { ExecuteContext, Executor, TurnRequest } from '../../src/core/prompt-tests/types';
import { parseSuite } from '../../src/core/prompt-tests/suite-parser';
import type { Suite, TestCase } from '../../src/core/prompt-tests/suite';

/** Greeting (1) hands over to Billing (2), which hands over to Closing (3); Closing stays. */
const ROUTES: Record<number, number | null> = { 1: 2, 2: 3, 3: null };
const names = new Map([
  [1, 'Greeting'],
  [2, 'Billing'],
  [3, 'Closing'],
]);

/** A service that answers each prompt with its route and carries the parameters it got forward, plus one. */
function fakeService(sent: TurnRequest[], answers: (request: TurnRequest) => JsonObject = () => ({})): Executor {
  const send = (_testCase: unknown, { turn }: ExecuteContext): Promise<JsonObject> => {
    if (!turn) return Promise.reject(new Error('a conversation sends turns'));
    sent.push(turn);
    const params = (turn.inputs.prompt_params ?? {}) as JsonObject;
    return Promise.resolve({
      response: `${names.get(turn.promptId) ?? '?'} heard ${String(turn.inputs.prompt_text)}`,
      next_prompt_id: ROUTES[turn.promptId] ?? null,
      next_prompt_params: { ...params, step: turn.turn },
      ...answers(turn),
    });
  };
  return { send, prompts: { first: 1, names } };
}

function conversation(turns: unknown[], extra: JsonObject = {}): Suite {
  const { suite, problems } = parseSuite(
    JSON.stringify({
      prompt: 'Greeting',
      cases: [{ name: 'talk', prompt_params: { caller: 'Ada' }, turns, ...extra }],
    }),
  );
  assert.deepEqual(problems, []);
  return suite as Suite;
}

describe('prompt tests: conversations', () => {
  it("routes each turn by the previous answer's next_prompt_id, carrying its next_prompt_params with the turn's own merged over them", async () => {
    const sent: TurnRequest[] = [];
    const suite = conversation([
      { prompt_text: 'Hello', prompt_params: { lang: 'en' }, expect: { prompt: 'Greeting' } },
      {
        prompt_text: 'Refund',
        prompt_params: { step: 'mine' },
        expect: { prompt: 2, response: { contains: 'Billing' } },
      },
      { prompt_text: 'Bye', expect: { prompt: 'Closing' } },
      { prompt_text: 'Still there?', expect: { prompt: 'Closing' } },
    ]);
    const result = await runSuite(suite, fakeService(sent));
    assert.deepEqual(result.cases.map(caseMessages)[0], []);
    assert.deepEqual(
      sent.map((t) => [t.turn, t.promptId, t.inputs]),
      [
        [1, 1, { prompt_text: 'Hello', prompt_params: { caller: 'Ada', lang: 'en' } }],
        [2, 2, { prompt_text: 'Refund', prompt_params: { caller: 'Ada', lang: 'en', step: 'mine' } }],
        [3, 3, { prompt_text: 'Bye', prompt_params: { caller: 'Ada', lang: 'en', step: 2 } }],
        [4, 3, { prompt_text: 'Still there?', prompt_params: { caller: 'Ada', lang: 'en', step: 3 } }],
      ],
      'a null next_prompt_id keeps the conversation on Closing',
    );
    assert.deepEqual(
      result.cases[0]?.turns?.map((t) => [t.turn, t.promptName, t.passed]),
      [
        [1, 'Greeting', true],
        [2, 'Billing', true],
        [3, 'Closing', true],
        [4, 'Closing', true],
      ],
    );
  });

  it('ends a run at its first failing turn, naming the turn, the prompt that answered and the one expected', async () => {
    const sent: TurnRequest[] = [];
    const suite = conversation([
      { prompt_text: 'Hello' },
      { prompt_text: 'Refund', expect: { prompt: 'Greeting' } },
      { prompt_text: 'Bye' },
    ]);
    const result = await runSuite(suite, fakeService(sent));
    assert.equal(sent.length, 2);
    assert.deepEqual(result.cases.map(caseMessages)[0], ['turn 2: answered by "Billing" (2), expected "Greeting"']);
    assert.deepEqual(
      result.cases[0]?.turns?.map((t) => t.passed),
      [true, false],
    );
    const [failure] = result.cases[0]?.turns?.[1]?.failures ?? [];
    assert.deepEqual([failure?.expected, failure?.actual], ['"Greeting"', '"Billing" (2)']);
  });

  it("names the turn and its prompt in an output's failure and in a failed request", async () => {
    const wrong = conversation([
      { prompt_text: 'Hello' },
      { prompt_text: 'Refund', expect: { prompt: 1, response: { speakable: true } } },
    ]);
    const answered = await runSuite(
      wrong,
      fakeService([], (t): JsonObject => (t.turn === 2 ? { response: '**No**' } : {})),
    );
    assert.deepEqual(answered.cases.map(caseMessages)[0], [
      'turn 2: answered by "Billing" (2), expected "Greeting" (1)',
      'turn 2: answered by "Billing" (2); response: not speakable: emphasis "**No**" at line 1, column 1',
    ]);
    const sent: TurnRequest[] = [];
    const failing: Executor = {
      send: (c, context) =>
        context.turn?.turn === 2
          ? Promise.reject(new Error('503 Service Unavailable'))
          : fakeService(sent).send(c, context),
      prompts: { first: 1, names },
    };
    const failed = await runSuite(conversation([{ prompt_text: 'Hello' }, { prompt_text: 'Refund' }]), failing);
    assert.deepEqual(failed.cases.map(caseMessages)[0], [
      '1 of 1 run errored (so it is not counted): turn 2: sent to "Billing" (2): 503 Service Unavailable',
    ]);
    assert.deepEqual([failed.cases[0]?.errors, failed.cases[0]?.runs, failed.cases[0]?.verdict], [1, 0, 'error']);
    assert.equal(failed.cases[0]?.turns?.[1]?.error, 'turn 2: sent to "Billing" (2): 503 Service Unavailable');
  });

  it("counts runs of the whole conversation for repeat and minPassRate, and shows the first failing run's turns", async () => {
    let run = 0;
    const suite = conversation(
      [{ prompt_text: 'Hello' }, { prompt_text: 'Refund', expect: { response: { contains: 'Billing' } } }],
      { repeat: 4, minPassRate: 0.5 },
    );
    const result = await runSuite(
      suite,
      fakeService([], (t): JsonObject => (t.turn === 2 && run++ % 2 === 1 ? { response: 'lost' } : {})),
      { concurrency: 1 },
    );
    assert.deepEqual([result.cases[0]?.passes, result.cases[0]?.runs, result.cases[0]?.verdict], [2, 4, 'flaky']);
    assert.deepEqual(
      result.cases[0]?.turns?.map((t) => t.passed),
      [true, false],
    );
  });

  it("leaves a wait before a retry out of each turn's time and the run's, so maxMs bounds the service alone", async () => {
    let clock = 0;
    const service = fakeService([]);
    const waiting: Executor = {
      prompts: service.prompts,
      send: (c: TestCase, context: ExecuteContext) => {
        // Turn 1 is refused once and retried after 1000 ms; each answer itself takes 50 ms.
        if (context.turn?.turn === 1) {
          clock += 1000;
          context.onWait?.(1000);
        }
        clock += 50;
        return service.send(c, context);
      },
    };
    const result = await runSuite(
      conversation([{ prompt_text: 'Hello' }, { prompt_text: 'Refund' }], { maxMs: 200 }),
      waiting,
      { now: () => clock },
    );
    assert.deepEqual(
      result.cases[0]?.turns?.map((t) => t.durationMs),
      [50, 50],
    );
    assert.deepEqual([result.cases[0]?.durationMs, result.cases[0]?.passed], [100, true]);
  });

  it('reads turns, and names each problem of a conversation with its fix', () => {
    const { suite } = parseSuite(
      JSON.stringify({
        prompt: 1,
        cases: [
          {
            name: 't',
            turns: [
              { prompt_text: 'Hi', prompt_params: { a: 1 }, expect: { prompt: 'Greeting', response: { maxWords: 5 } } },
            ],
          },
        ],
      }),
    );
    assert.deepEqual(
      suite?.cases[0]?.turns?.map(({ range: _range, ...turn }) => turn),
      [{ prompt_text: 'Hi', prompt_params: { a: 1 }, expect: { response: { maxWords: 5 } }, prompt: 'Greeting' }],
    );
    const problems = (suiteJson: JsonObject): string[] =>
      parseSuite(JSON.stringify(suiteJson)).problems.map((p) => `${p.path.join('.')}: ${p.message}`);
    assert.deepEqual(problems({ integration: 'x', cases: [{ name: 't', action: 'ping', turns: [] }] }), [
      'cases.0.turns: only a prompt suite\'s case can be a conversation; give an integration case "action" and "params" instead of "turns"',
    ]);
    assert.deepEqual(problems({ prompt: 1, cases: [{ name: 't', prompt_text: 'x', turns: [] }] }), [
      'cases.0.prompt_text: a conversation sends its turns\' prompt_text: leave out the case\'s "prompt_text", or "turns"',
    ]);
    assert.deepEqual(problems({ prompt: 1, cases: [{ name: 't', turns: [{ expect: { prompt: true, reply: 1 } }] }] }), [
      'cases.0.turns.0.prompt_text: every turn needs "prompt_text", the text sent in that turn',
      'cases.0.turns.0.expect.prompt: prompt is the name or id of the prompt that must answer this turn',
      'cases.0.turns.0.expect.reply: "reply" is no output of test_prompt; expect one of response, altered_prompt, next_prompt_id, next_prompt_params, prompt',
    ]);
  });

  it("reports the failing run's turns in --json, each with the prompt that answered it", async () => {
    const suite = conversation([
      { prompt_text: 'Hello', expect: { prompt: 'Greeting' } },
      { prompt_text: 'Refund', expect: { prompt: 'Closing' } },
      { prompt_text: 'Bye' },
    ]);
    const [result] = (await runSuite(suite, fakeService([]))).cases;
    assert.ok(result);
    const report = caseReport(result);
    assert.deepEqual(report.turns, [
      { turn: 1, prompt_text: 'Hello', promptId: 1, promptName: 'Greeting', passed: true, messages: [] },
      {
        turn: 2,
        prompt_text: 'Refund',
        promptId: 2,
        promptName: 'Billing',
        passed: false,
        messages: ['turn 2: answered by "Billing" (2), expected "Closing"'],
      },
    ]);
  });
});
