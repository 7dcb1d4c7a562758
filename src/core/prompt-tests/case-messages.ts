/**
 * What a case's result says in words: its verdict and tally, a regression, its errors, how far a cancelled case went,
 * one line each, as the Testing view, the command line and reports show them.
 */
import { plural } from '../text';
import { intervalText } from './statistics';
import type { CaseResult, Regression } from './types';

function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

/** "flaky: 14/20 passed, 95% interval 48–86%": a verdict with how sure it is. */
export function verdictLine(result: Pick<CaseResult, 'verdict' | 'passes' | 'runs' | 'interval'>): string {
  // No decided run, no rate: "0/0 passed, 95% interval 0–100%" would read as a result.
  return result.runs > 0 ? `${result.verdict}: ${tallyLine(result)}` : result.verdict;
}

/** "14/20 passed, 95% interval 48–86%". */
export function tallyLine(result: Pick<CaseResult, 'passes' | 'runs' | 'interval'>): string {
  return `${result.passes}/${result.runs} passed, 95% interval ${intervalText(result.interval)}`;
}

/** "p = 0.010", "p < 0.001": how every report words a Fisher test's p-value (a regression, a variant against its base). */
export function pText(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`;
}

/** "regressed: 14/20 passed, against 20/20 in the baseline (p = 0.010)". */
export function regressionLine(result: Pick<CaseResult, 'passes' | 'runs'>, regression: Regression): string {
  return `regressed: ${result.passes}/${result.runs} passed, against ${regression.before.passes}/${regression.before.runs} in the baseline (${pText(regression.p)})`;
}

/**
 * "3 of 10 runs errored (so they are not counted): <why>": the why says what happened (a failed request, a judge's
 * answer without a verdict, quoted), as an errored run may have had an answer, only no usable one.
 */
export function errorsLine(result: Pick<CaseResult, 'errors' | 'runs' | 'errorReasons'>): string {
  const of = result.errors + result.runs;
  const counted = result.errors === 1 ? 'it is' : 'they are';
  return `${result.errors} of ${plural(of, 'run')} errored (so ${counted} not counted): ${result.errorReasons.join('; ')}`;
}

/** "not run: the run was cancelled", "stopped: the run was cancelled after 3 of 10 runs". */
export function stopLine({ runs, errors, repeat }: Pick<CaseResult, 'runs' | 'errors' | 'repeat'>): string {
  const ended = runs + errors;
  return ended === 0
    ? 'not run: the run was cancelled'
    : `stopped: the run was cancelled after ${ended} of ${plural(repeat, 'run')}`;
}

/** What a case that did not pass or finish says of its tally, apart from errors, a regression and failed assertions: a stop, or its rate. */
export function tallyMessages(result: CaseResult): string[] {
  const lines: string[] = [];
  if (result.skipped) lines.push(stopLine(result));
  // A rate of no decided run says nothing: the errors say why there is none.
  else if (result.repeat > 1 && result.runs > 0 && result.passRate < result.minPassRate) {
    lines.push(
      `passed ${result.passes} of ${plural(result.runs, 'answered run')} (${percent(result.passRate)}); it needs ${percent(result.minPassRate)}`,
    );
  }
  return lines;
}

/**
 * Why a case did not pass, one line each: its errors, a regression (why a case whose rate would pass fails), its
 * failed assertions, then its tally; empty when it passed.
 */
export function caseMessages(result: CaseResult): string[] {
  if (result.passed) return [];
  return [
    ...(result.errors > 0 ? [errorsLine(result)] : []),
    ...(result.regressed ? [regressionLine(result, result.regressed)] : []),
    ...result.failures.map((f) => f.message),
    ...tallyMessages(result),
  ];
}
