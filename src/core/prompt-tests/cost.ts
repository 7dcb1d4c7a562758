/**
 * What a run can cost, known before anything is sent (contract: "Simulated
 * callers"): the most requests each run of a case can send, times its
 * repeats, summed over the cases that run. A simulated call sends an
 * assistant and a caller request per turn, and each judged criterion
 * judgeRepeat times.
 */
import { isJudged } from './simulated-case';
import type { Suite, TestCase } from './suite';

/** The most requests one run of the case sends. */
export function runBound(testCase: TestCase): number {
  if (testCase.simulate) {
    const judged = (testCase.criteria ?? []).filter(isJudged).length;
    return 2 * testCase.simulate.maxTurns + judged * (testCase.judgeRepeat ?? 1);
  }
  return testCase.turns?.length ?? 1;
}

/** The most requests a run of the suite's cases (only those named, when `only` is given) sends. */
export function requestBound(suite: Pick<Suite, 'cases'>, only?: ReadonlySet<string>): number {
  return suite.cases.filter((c) => !only || only.has(c.name)).reduce((sum, c) => sum + runBound(c) * c.repeat, 0);
}

/**
 * The most requests a run of the suite with its variants sends (contract: "Variant lab"): every case on the base and
 * on each variant, and each variant's copy created and deleted.
 */
export function matrixBound(suite: Pick<Suite, 'cases' | 'variants'>, only?: ReadonlySet<string>): number {
  const variants = suite.variants?.length ?? 0;
  return requestBound(suite, only) * (1 + variants) + 2 * variants;
}
