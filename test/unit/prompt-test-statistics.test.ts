import * as assert from 'node:assert/strict';
import { droppedSignificantly, dropPValue, intervalText, wilsonInterval } from '../../src/core/prompt-tests/statistics';

// Known values from SciPy 1.x: binomtest(x, n).proportion_ci(method='wilson') and fisher_exact(..., alternative='less').
const close = (actual: number, expected: number, what: string): void =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual} is not ${expected}`);

describe('prompt test statistics: the 95% Wilson score interval', () => {
  const known: Array<[number, number, number, number]> = [
    [14, 20, 0.4810271816464766, 0.8545227551323957],
    [20, 20, 0.8388748419471808, 1],
    [0, 10, 0, 0.27753279986288926],
    [1, 1, 0.20654931437723745, 1],
    [50, 100, 0.4038315303659956, 0.5961684696340044],
  ];
  for (const [passes, runs, low, high] of known) {
    it(`${passes} of ${runs}`, () => {
      const [l, h] = wilsonInterval({ passes, runs });
      close(l, low, 'low');
      close(h, high, 'high');
    });
  }

  it('knows nothing of a case that did not run', () => {
    assert.deepEqual(wilsonInterval({ passes: 0, runs: 0 }), [0, 1]);
  });

  it('is written in whole percents, widened outwards', () => {
    assert.equal(intervalText(wilsonInterval({ passes: 14, runs: 20 })), '48–86%');
    assert.equal(intervalText([0, 1]), '0–100%');
  });
});

describe('prompt test statistics: the one-sided Fisher exact test of a drop', () => {
  // [baseline passes, baseline runs, current passes, current runs, p]
  const known: Array<[number, number, number, number, number]> = [
    [20, 20, 14, 20, 0.0100980100980101],
    [10, 10, 8, 10, 0.2368421052631579],
    [18, 20, 15, 20, 0.20374220374220378],
    [9, 10, 3, 10, 0.009883305548940223],
  ];
  for (const [bp, br, cp, cr, p] of known) {
    it(`${cp}/${cr} against ${bp}/${br}`, () =>
      close(dropPValue({ passes: bp, runs: br }, { passes: cp, runs: cr }), p, 'p'));
  }

  it('calls a drop significant below 0.05 only', () => {
    assert.equal(droppedSignificantly({ passes: 20, runs: 20 }, { passes: 14, runs: 20 }), true);
    assert.equal(droppedSignificantly({ passes: 10, runs: 10 }, { passes: 8, runs: 10 }), false);
  });

  it('sees no drop in a rise, nor where either side never ran', () => {
    close(dropPValue({ passes: 10, runs: 20 }, { passes: 20, runs: 20 }), 1, 'p');
    assert.equal(dropPValue({ passes: 0, runs: 0 }, { passes: 0, runs: 20 }), 1);
    assert.equal(dropPValue({ passes: 20, runs: 20 }, { passes: 0, runs: 0 }), 1);
  });
});
