import * as assert from 'node:assert/strict';
import { requestsPerPrompt } from '../bench/requests';
import {
  benchExitCode,
  formatTable,
  median,
  medianOfRatios,
  ratioOfMedians,
  sizeDifference,
  timeBound,
  withinGoal,
} from '../bench/report';

describe('bench report', () => {
  it('takes the middle sample, or the mean of the middle two, whatever the order', () => {
    assert.equal(median([9, 1, 5]), 5);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(median([7]), 7);
  });

  it('refuses to summarise no samples', () => {
    assert.throws(() => median([]), /no samples/);
  });

  it('compares independent samples by the ratio of their medians', () => {
    const row = ratioOfMedians('open', [30, 10, 20], [10, 5, 40], 1.5);
    assert.deepEqual([row.candidate, row.floor, row.figure], [20, 10, 2]);
    assert.equal(withinGoal(row), false);
  });

  it('compares paired samples by the median of the pairs’ ratios, not the ratio of medians', () => {
    const row = medianOfRatios(
      'activation',
      [
        { candidate: 10, floor: 10 },
        { candidate: 40, floor: 20 },
        { candidate: 300, floor: 100 },
      ],
      1.5,
    );
    assert.equal(row.figure, 2);
    assert.equal(row.candidate, 40);
    assert.equal(row.floor, 20);
  });

  it('bounds a size by its difference in KB, and a figure equal to its goal is within it', () => {
    const row = sizeDifference('bundle', 250 * 1024, 100 * 1024, 150);
    assert.equal(row.figure, 150);
    assert.equal(withinGoal(row), true);
    assert.equal(withinGoal({ ...row, figure: 150.01 }), false);
  });

  it('bounds a time the issue sets by the candidate alone, its floor shown but not dividing it', () => {
    const row = timeBound('draw a map', [1900, 2100, 1500], [60, 40, 50], 2000);
    assert.equal(row.figure, 1900);
    assert.equal(withinGoal(row), true);
    assert.equal(withinGoal(timeBound('draw a map', [2100, 2200, 1500], [60, 40, 50], 2000)), false);
    const [, , line] = formatTable([row]).split('\n');
    assert.equal(line, '| draw a map | 1900 ms | 50.0 ms | 1900 ms | ≤ 2000 ms | yes |');
  });

  it('counts a figure that is not a number (a zero floor) as outside its goal', () => {
    assert.equal(withinGoal(ratioOfMedians('x', [0], [0], 2)), false);
  });

  it('prints one Markdown row per measurement, marking the ones past their goal', () => {
    const table = formatTable([
      ratioOfMedians('open a prompt', [3], [2], 1.5),
      sizeDifference('bundle size', 300 * 1024, 100 * 1024, 150),
    ]);
    const lines = table.split('\n');
    assert.equal(lines[0], '| measure | candidate | floor | ratio | goal | ok |');
    assert.equal(lines[2], '| open a prompt | 3.00 ms | 2.00 ms | 1.50× | ≤ 1.50× | yes |');
    assert.equal(lines[3], '| bundle size | 300 KB | 100 KB | +200 KB | ≤ +150 KB | **no** |');
    assert.equal(lines.length, 4);
  });

  it('counts requests in whole numbers (halves where a median falls between two)', () => {
    const [, , row] = formatTable([ratioOfMedians('requests per open', [2, 3], [1, 1], 1, 'requests')]).split('\n');
    assert.equal(row, '| requests per open | 2.5 requests | 1 request | 2.50× | ≤ 1.00× | **no** |');
  });

  it('exits non-zero exactly when a figure passes its goal', () => {
    const good = ratioOfMedians('a', [1], [1], 1.5);
    assert.equal(benchExitCode([good]), 0);
    assert.equal(benchExitCode([good, ratioOfMedians('b', [2], [1], 1.5)]), 1);
  });

  it("counts the requests on each prompt's own path, whatever the method, none for a prompt never asked for", () => {
    const log = [
      { method: 'GET', path: '/api/v1/ai_prompts/7' },
      { method: 'GET', path: '/api/v1/ai_prompts/70' },
      { method: 'PUT', path: '/api/v1/ai_prompts/7' },
      { method: 'GET', path: '/api/v1/ai_prompts' },
    ];
    assert.deepEqual(requestsPerPrompt(log, [7, 70, 8]), [2, 1, 0]);
  });
});
