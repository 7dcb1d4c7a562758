import * as assert from 'node:assert/strict';
import type { JsonObject } from '../../src/core/json';
import { parseJudgeFile, type JudgeFile } from '../../src/core/prompt-tests/judge-file';
import { runJudgeFile } from '../../src/core/prompt-tests/judge-run';

const verdict = (v: string, reasoning = `it is ${v}`): JsonObject => ({
  response: JSON.stringify({ reasoning, verdict: v }),
});

function judgeFile(labels: Array<[string, 'pass' | 'fail']>, extra: Record<string, unknown> = {}): JudgeFile {
  const { file } = parseJudgeFile(
    JSON.stringify({
      judge: 'Call Judge',
      labels: labels.map(([name, expected]) => ({
        name,
        rubric: 'Says the days.',
        transcript: `caller: ${name}`,
        expected,
      })),
      ...extra,
    }),
  );
  assert.ok(file);
  return file;
}

/** Answers in the order asked, by the label's name (the criterion it is sent as). */
function scripted(answers: Record<string, Array<JsonObject | Error>>): (inputs: JsonObject) => Promise<JsonObject> {
  return (inputs) => {
    const name = String((inputs.prompt_params as JsonObject).criterion);
    const next = answers[name]?.shift();
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next ?? verdict('pass'));
  };
}

describe('prompt tests: a judge file run', () => {
  it('compares each majority with its label, names an unreadable answer, and keeps a failed request out of the figures', async () => {
    const file = judgeFile(
      [
        ['agrees', 'pass'],
        ['split', 'pass'],
        ['wrong', 'fail'],
        ['garbled', 'fail'],
        ['lost', 'fail'],
      ],
      { repeat: 3, minKappa: 0 },
    );
    const run = await runJudgeFile(
      file,
      '"Call Judge"',
      scripted({
        agrees: [verdict('pass'), verdict('pass'), verdict('pass')],
        split: [verdict('fail'), verdict('pass'), verdict('pass')],
        wrong: [verdict('pass', 'It gives a number.'), verdict('pass'), verdict('fail')],
        garbled: [verdict('fail'), { response: 'Looks fine!' }],
        lost: [new Error('HTTP 500: model overloaded')],
      }),
      { concurrency: 1 },
    );
    const byName = new Map(run.result.cases.map((c) => [c.name, c]));
    assert.deepEqual(
      [...byName.values()].map((c) => [c.name, c.passed, c.verdict, c.runs, c.passes, c.errors]),
      [
        ['agrees', true, 'pass', 3, 3, 0],
        ['split', true, 'flaky', 3, 2, 0],
        ['wrong', false, 'fail', 3, 1, 0],
        ['garbled', false, 'fail', 1, 0, 0],
        ['lost', false, 'error', 0, 0, 1],
      ],
    );
    assert.equal(
      byName.get('wrong')?.failures[0]?.message,
      'the judge said "pass" (2 of 3), labelled "fail": It gives a number.',
    );
    assert.match(
      byName.get('garbled')?.failures[0]?.message ?? '',
      /^judge "Call Judge" gave no verdict .*"Looks fine!"/,
    );
    assert.deepEqual(byName.get('lost')?.errorReasons, ['HTTP 500: model overloaded']);
    // Weighed: agrees (pass/pass), split (pass/pass), wrong (fail/pass), garbled (fail/unreadable); lost is left out.
    // agreement 2/4; TPR 2/2; TNR 0/2; consistency 1/4 (only agrees was unanimous).
    // chance = (2 pass labels · 3 pass verdicts + 2 fail labels · 0 fail verdicts) / 16 = 6/16; kappa = (0.5 − 0.375) / 0.625 = 0.2.
    assert.deepEqual(
      { ...run.calibration, kappa: Number(run.calibration.kappa?.toFixed(10)) },
      { labels: 4, agreement: 0.5, tpr: 1, tnr: 0, kappa: 0.2, consistency: 0.25 },
    );
    assert.equal(run.passed, false, 'a failed request fails the file, whatever its kappa');
    assert.match(run.messages.join('\n'), /1 of 5 labels could not be judged \(the request failed\)/);
  });

  it('passes on kappa alone: a label the judge disagreed with fails, the file does not', async () => {
    const file = judgeFile(
      [
        ['a', 'pass'],
        ['b', 'pass'],
        ['c', 'fail'],
        ['d', 'fail'],
        ['e', 'fail'],
      ],
      { minKappa: 0.5 },
    );
    // a, b, c, d as labelled; e judged pass. agreement 4/5; chance = (2·3 + 3·2) / 25 = 12/25; kappa = (0.8 − 0.48) / 0.52 ≈ 0.615.
    const run = await runJudgeFile(
      file,
      'J',
      scripted({
        a: [verdict('pass')],
        b: [verdict('pass')],
        c: [verdict('fail')],
        d: [verdict('fail')],
        e: [verdict('pass')],
      }),
    );
    assert.deepEqual([run.passed, run.result.failed, run.messages], [true, 1, []]);
    assert.ok(Math.abs((run.calibration.kappa ?? 0) - 0.32 / 0.52) < 1e-12);
    const low = await runJudgeFile(
      { ...file, minKappa: 0.7 },
      'J',
      scripted({
        a: [verdict('pass')],
        b: [verdict('pass')],
        c: [verdict('fail')],
        d: [verdict('fail')],
        e: [verdict('pass')],
      }),
    );
    assert.equal(low.passed, false);
    assert.match(low.messages[0] ?? '', /^kappa 0\.62 is below minKappa 0\.70: agreement 80%/);
  });

  it('says why kappa cannot be computed when every label and verdict is pass', async () => {
    const run = await runJudgeFile(
      judgeFile([
        ['a', 'pass'],
        ['b', 'pass'],
      ]),
      'J',
      scripted({}),
    );
    assert.equal(run.calibration.kappa, null);
    assert.equal(run.passed, false);
    assert.match(
      run.messages[0] ?? '',
      /kappa cannot be computed: every label and every verdict is "pass".*add labels the judge should give the other verdict/,
    );
  });

  it('stops sending when cancelled: the labels not judged are skipped, and the file does not pass', async () => {
    const stop = new AbortController();
    let asked = 0;
    const run = await runJudgeFile(
      judgeFile([
        ['a', 'pass'],
        ['b', 'fail'],
        ['c', 'fail'],
      ]),
      'J',
      (inputs, signal) => {
        asked++;
        stop.abort();
        return signal.aborted ? Promise.reject(new Error('aborted')) : Promise.resolve(verdict('pass'));
      },
      { concurrency: 1, signal: stop.signal },
    );
    assert.equal(asked, 1, 'nothing was sent after the cancellation');
    assert.deepEqual(
      [run.result.skipped, run.result.cases.map((c) => c.skipped), run.passed],
      [3, [true, true, true], false],
    );
    assert.equal(run.calibration.labels, 0);
  });
});
