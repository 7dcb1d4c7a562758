/**
 * A case's verdict, and each criterion's of a simulated case, from the runs that ended: one rule for both, in which
 * only decided runs pass or fail anything, an errored run is counted apart, and a baseline can fail a case whose rate
 * dropped significantly against it.
 */
import { dropPValue, droppedSignificantly, latencyOf, wilsonInterval, type Latency, type Tally } from './statistics';
import type { TestCase } from './suite';
import type { CaseFailure, CaseResult, CaseRun, CriterionTally, Verdict } from './types';
import { plural } from '../text';
import { errorsLine, stopLine } from './case-messages';

function unique<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}
/** What a verdict is decided from: the decided runs, the errored ones, and whether every run ended. */
interface Evidence extends Tally {
  errors: number;
  finished: boolean;
  minPassRate: number;
  regressed?: boolean;
}

/** The one rule of a verdict, for cases and criteria alike: only decided runs pass or fail anything. */
function verdictOf({ passes, runs, errors, finished, minPassRate, regressed }: Evidence): Verdict {
  if (!finished || runs + errors === 0) return 'skipped';
  if (errors > 0) return 'error';
  if (regressed) return 'fail';
  return passes === runs ? 'pass' : passes / runs >= minPassRate ? 'flaky' : 'fail';
}

/** "not judged: the run was cancelled", "2 of 3 calls did not decide it: <why>". */
function criterionReason(verdict: Verdict, errors: number, ended: number, why: readonly string[]): string | undefined {
  if (verdict === 'error')
    return `${errors} of ${plural(ended, 'call')} did not decide it (so ${errors === 1 ? 'it is' : 'they are'} not counted): ${why.join('; ')}`;
  if (verdict === 'skipped')
    return ended === 0
      ? 'not judged: the run was cancelled before a call ended'
      : `stopped: the run was cancelled after ${plural(ended, 'call')}`;
  return undefined;
}

/**
 * A simulated case's criteria, each weighed over the calls that decided it (a call that errored before its judges, or
 * whose judge gave no verdict, decided nothing of it), its shown call's transcript, and how often judges agreed.
 */
function criteriaOf(
  testCase: TestCase,
  details: readonly CaseRun[],
  shown: CaseRun | undefined,
): Pick<CaseResult, 'criteria' | 'transcript' | 'judgeAgreement'> {
  const finished = details.length === testCase.repeat;
  const criteria = (testCase.criteria ?? []).map(({ name }): CriterionTally => {
    const ended = details.map(
      (run) =>
        run.criteria?.find((c) => c.name === name) ?? {
          name,
          passed: false,
          reason: '',
          error: run.error ?? 'not judged',
        },
    );
    const outcomes = ended.filter((o) => o.error === undefined);
    const passes = outcomes.filter((o) => o.passed).length;
    const tally = { passes, runs: outcomes.length };
    const errors = ended.length - outcomes.length;
    const verdict = verdictOf({ ...tally, errors, finished, minPassRate: testCase.minPassRate });
    const reason = criterionReason(verdict, errors, ended.length, [
      ...new Set(ended.flatMap((o) => (o.error === undefined ? [] : [o.error]))),
    ]);
    return {
      name,
      ...tally,
      passRate: tally.runs === 0 ? 0 : passes / tally.runs,
      interval: wilsonInterval(tally),
      verdict,
      ...(reason ? { reason } : {}),
      errors,
      reasons: outcomes
        .filter((o) => !o.passed)
        .slice(0, 3)
        .map((o) => o.reason),
    };
  });
  const judged = details.flatMap(
    (run) => run.criteria?.flatMap((c) => (c.judgement ? [c.judgement.unanimous] : [])) ?? [],
  );
  return {
    criteria,
    ...(shown?.transcript ? { transcript: shown.transcript } : {}),
    ...(judged.length > 0 ? { judgeAgreement: judged.filter(Boolean).length / judged.length } : {}),
  };
}

/** The failure of a case whose runs' 95th percentile is over its maxP95Ms, both numbers said; none otherwise. */
function slowFailure(testCase: TestCase, latency: Latency | undefined, runs: number): CaseFailure | undefined {
  const budget = testCase.maxP95Ms;
  if (budget === undefined || latency === undefined || latency.p95 <= budget) return undefined;
  return {
    field: 'duration',
    assertion: 'maxP95Ms',
    message: `latency: the 95th percentile of ${plural(runs, 'run')} is ${latency.p95} ms, more than maxP95Ms ${budget} (median ${latency.p50} ms)`,
  };
}

/**
 * A case's verdict from the runs that ended, judged against its tally in a baseline when there is one. A case
 * passes only when all its runs ended, none errored, and the answered ones meet minPassRate without a regression.
 */
export function caseResult(testCase: TestCase, details: CaseRun[], before?: Tally): CaseResult {
  const answered = details.filter((r) => r.error === undefined);
  const passes = answered.filter((r) => r.passed).length;
  const runs = answered.length;
  const errors = details.length - runs;
  const passRate = runs === 0 ? 0 : passes / runs;
  const skipped = details.length < testCase.repeat;
  const now: Tally = { passes, runs };
  const regressed =
    before !== undefined && !skipped && droppedSignificantly(before, now)
      ? { before, p: dropPValue(before, now) }
      : undefined;
  const latency = latencyOf(answered.map((r) => r.durationMs));
  const slow = slowFailure(testCase, latency, runs);
  const decided = verdictOf({
    ...now,
    errors,
    finished: !skipped,
    minPassRate: testCase.minPassRate,
    regressed: regressed !== undefined,
  });
  // Too slow fails a case its runs' answers would pass; an error or a skip still says that no verdict was reached.
  const verdict = slow && (decided === 'pass' || decided === 'flaky') ? 'fail' : decided;
  const passed = verdict === 'pass' || verdict === 'flaky';
  const shown = details.find((r) => !r.passed) ?? details.at(-1);
  const errorReasons = [...new Set(details.flatMap((r) => (r.error === undefined ? [] : [r.error])))];
  const reason =
    verdict === 'error'
      ? errorsLine({ errors, runs, errorReasons })
      : verdict === 'skipped'
        ? stopLine({ runs, errors, repeat: testCase.repeat })
        : undefined;
  return {
    name: testCase.name,
    passed,
    skipped,
    verdict,
    ...(reason ? { reason } : {}),
    runs,
    passes,
    errors,
    passRate,
    interval: wilsonInterval(now),
    ...(latency ? { latency } : {}),
    ...(regressed ? { regressed } : {}),
    ...(testCase.criteria ? criteriaOf(testCase, details, shown) : {}),
    failures: unique([...answered.flatMap((r) => r.failures), ...(slow ? [slow] : [])], (f) => f.message),
    errorReasons,
    durationMs: details.reduce((sum, r) => sum + r.durationMs, 0),
    ...(shown?.turns ? { turns: shown.turns } : {}),
    details,
    repeat: testCase.repeat,
    minPassRate: testCase.minPassRate,
  };
}
