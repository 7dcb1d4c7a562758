/**
 * A trial against the live version, case by case (contract: "Trials", `--compare`): both run as many times, and a
 * one-sided Fisher exact test (p < 0.05) calls the trial's pass count significantly lower (regressed, which fails
 * the case) or higher (improved) than live's. The regression itself is the suite engine's baseline rule, so the
 * trial is run with the live tallies as its baseline; this adds what the live run came to and the improvements.
 */
import { droppedSignificantly, type Tally } from '../prompt-tests/statistics';
import { caseReport, type CaseReport } from '../prompt-tests/report';
import type { CaseResult, SuiteResult, Verdict } from '../prompt-tests/types';

/** A case's live run, as `--json` reports it beside the trial's. */
export interface LiveTally {
  runs: number;
  passes: number;
  errors: number;
  passRate: number;
  interval: [number, number];
  verdict: Verdict;
}

export interface ComparedCase extends CaseResult {
  live?: LiveTally;
  improved?: boolean;
}

/** The live tallies, by case name, to run the trial against as its baseline. */
export function liveBaseline(live: SuiteResult): Map<string, Tally> {
  return new Map(live.cases.filter((c) => !c.skipped).map((c) => [c.name, { passes: c.passes, runs: c.runs }]));
}

/** The trial's cases with their live tallies; a case live did not run (it names a created prompt) has none. */
export function compared(trial: SuiteResult, live: SuiteResult | undefined): ComparedCase[] {
  return trial.cases.map((result): ComparedCase => {
    const other = live?.cases.find((c) => c.name === result.name);
    if (!other) return result;
    const { runs, passes, errors, passRate, interval, verdict } = other;
    const improved = !other.skipped && !result.skipped && droppedSignificantly(result, other);
    return {
      ...result,
      live: { runs, passes, errors, passRate, interval, verdict },
      ...(improved ? { improved } : {}),
    };
  });
}

/** The trial's cases as reports give them (`--json`, convai.runPromptTests): each with its live tally and `improved`. */
export function comparedReports(
  trial: SuiteResult,
  live: SuiteResult | undefined,
): Array<CaseReport & { improved?: true; live?: LiveTally }> {
  return compared(trial, live).map((c) => ({
    ...caseReport(c),
    ...(c.improved ? { improved: true as const } : {}),
    ...(c.live ? { live: c.live } : {}),
  }));
}
