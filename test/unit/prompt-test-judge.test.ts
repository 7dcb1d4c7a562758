import * as assert from 'node:assert/strict';
import type { JsonObject } from '../../src/core/json';
import {
  judgeAnswerOf,
  judgeCriterion,
  judgeInputs,
  JudgeError,
  majority,
  readJudgeAnswer,
} from '../../src/core/prompt-tests/judge';

describe('prompt tests: judges', () => {
  it('reads one JSON object, alone or in a ```json fence, with reasoning before the verdict', () => {
    assert.deepEqual(readJudgeAnswer('{"reasoning": "It says five days.", "verdict": "pass", "quote": "five days"}'), {
      reasoning: 'It says five days.',
      verdict: 'pass',
      quote: 'five days',
    });
    assert.deepEqual(readJudgeAnswer('```json\n{"reasoning": "No number.", "verdict": "fail"}\n```'), {
      reasoning: 'No number.',
      verdict: 'fail',
    });
    assert.deepEqual(readJudgeAnswer('  ```\n{"reasoning": "r", "verdict": "fail", "quote": null}\n```  '), {
      reasoning: 'r',
      verdict: 'fail',
    });
  });

  it('never reads an answer that is not that object as a pass: each says why', () => {
    const problems = [
      ['Sure, it passes.', /not one JSON object/],
      ['{"verdict": "pass"}', /"reasoning" \(a text\) is missing/],
      ['{"reasoning": "ok", "pass": true}', /"verdict" must be "pass" or "fail", not absent/],
      ['{"reasoning": "ok", "verdict": "PASS"}', /"verdict" must be "pass" or "fail", not "PASS"/],
      ['{"verdict": "pass", "reasoning": "after the fact"}', /"reasoning" must come before "verdict"/],
      ['{"reasoning": "ok", "verdict": "pass"} and more', /not one JSON object/],
      ['[{"reasoning": "ok", "verdict": "pass"}]', /not one JSON object/],
      ['{"reasoning": "ok", "verdict": "pass", "quote": 3}', /"quote" must be a text/],
      [
        '{"reasoning": "ok", "verdict": "fail", "verdict": "pass"}',
        /it gives "verdict" twice, so what it says is ambiguous/,
      ],
      ['```json\n{"reasoning": "a", "reasoning": "b", "verdict": "pass"}\n```', /it gives "reasoning" twice/],
      ['{"reasoning": "ok", "verdict": "fail", "verdic\\u0074": "pass"}', /it gives "verdict" twice/],
    ] as const;
    for (const [answer, says] of problems) {
      const read = readJudgeAnswer(answer);
      assert.ok('problem' in read, answer);
      assert.match(read.problem, says, answer);
    }
    const twice = '{"reasoning":"Five days.","verdict":"fail","verdict":"pass"}';
    assert.throws(
      () => judgeAnswerOf({ response: twice }, '"Call Judge"'),
      (error: unknown) =>
        error instanceof JudgeError &&
        error.message ===
          `judge "Call Judge" gave no verdict (it gives "verdict" twice, so what it says is ambiguous): ${JSON.stringify(twice)}`,
    );
    assert.throws(
      () => judgeAnswerOf({ response: 'Looks fine to me!' }, '"Call Judge"'),
      (error: unknown) =>
        error instanceof JudgeError &&
        /^judge "Call Judge" gave no verdict \(it is not one JSON object, alone or in a ```json fence\): "Looks fine to me!"$/.test(
          error.message,
        ),
    );
  });

  it('takes the majority of repeated judgements, with the reasoning of one that gave it, and says whether all agreed', () => {
    const pass = { reasoning: 'yes', verdict: 'pass' } as const;
    const fail = { reasoning: 'no', verdict: 'fail' } as const;
    assert.deepEqual(majority([fail, pass, pass]), {
      reasoning: 'yes',
      verdict: 'pass',
      unanimous: false,
      votes: { pass: 2, fail: 1 },
    });
    assert.deepEqual(majority([fail, fail, fail]), {
      reasoning: 'no',
      verdict: 'fail',
      unanimous: true,
      votes: { pass: 0, fail: 3 },
    });
  });

  it('asks the judge judgeRepeat times with the transcript as text and the rubric, criterion and transcript as parameters', async () => {
    const sent: JsonObject[] = [];
    const answers = [
      '{"reasoning":"a","verdict":"pass"}',
      '{"reasoning":"b","verdict":"fail"}',
      '{"reasoning":"c","verdict":"pass"}',
    ];
    const request = {
      rubric: 'Says the days.',
      criterion: 'refund time',
      transcript: 'caller: hi\nassistant (Billing): five days',
    };
    const judgement = await judgeCriterion(
      (inputs) => {
        sent.push(inputs);
        return Promise.resolve({ response: answers[sent.length - 1] ?? '' });
      },
      request,
      3,
      '"Call Judge"',
    );
    assert.deepEqual(sent, [judgeInputs(request), judgeInputs(request), judgeInputs(request)]);
    assert.deepEqual(judgeInputs(request), { prompt_text: request.transcript, prompt_params: request });
    assert.deepEqual([judgement.verdict, judgement.unanimous], ['pass', false]);
    await assert.rejects(
      judgeCriterion(() => Promise.resolve({ response: 'pass' }), request, 1, '"J"'),
      JudgeError,
    );
  });
});
