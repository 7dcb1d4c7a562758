import * as fs from 'node:fs';
import { parseResults, Results } from './results-file';

/** How one suite ended. `problem` says why a suite could not run or report; such a suite counts one failure. */
export interface SuiteOutcome {
  name: string;
  passed: number;
  failed: number;
  pending: number;
  durationMs: number;
  problem?: string;
  /** Each failed test's title and the first line of its error, repeated in the summary where a log's tail shows it. */
  failures?: string[];
}

export function outcomeFromResults(name: string, results: Results, durationMs: number): SuiteOutcome {
  const pending = results.tests.filter((test) => test.state === 'pending').length;
  const failures = results.tests
    .filter((test) => test.state === 'failed')
    .map((test) => `${test.fullTitle}: ${(test.error?.message ?? '').split('\n')[0]}`);
  return {
    name,
    passed: results.passes,
    failed: results.failures,
    pending,
    durationMs,
    ...(failures.length > 0 ? { failures } : {}),
  };
}

export function brokenOutcome(name: string, problem: string, durationMs: number): SuiteOutcome {
  return { name, passed: 0, failed: 1, pending: 0, durationMs, problem };
}

/** Reads a suite's results file; missing or unreadable, the suite failed. */
export function readOutcome(
  name: string,
  resultsFile: string,
  durationMs: number,
): { outcome: SuiteOutcome; results?: Results } {
  if (!fs.existsSync(resultsFile)) {
    return { outcome: brokenOutcome(name, `no results file was written (${resultsFile})`, durationMs) };
  }
  try {
    const results = parseResults(fs.readFileSync(resultsFile, 'utf8'));
    return { outcome: outcomeFromResults(name, results, durationMs), results };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { outcome: brokenOutcome(name, `unreadable results file ${resultsFile}: ${reason}`, durationMs) };
  }
}

export function totals(outcomes: readonly SuiteOutcome[]): { passed: number; failed: number } {
  return {
    passed: outcomes.reduce((sum, outcome) => sum + outcome.passed, 0),
    failed: outcomes.reduce((sum, outcome) => sum + outcome.failed, 0),
  };
}

function describeOutcome(outcome: SuiteOutcome): string {
  const seconds = `${(outcome.durationMs / 1000).toFixed(1)} s`;
  if (outcome.problem) return `  ${outcome.name}: could not run: ${outcome.problem} (${seconds})`;
  const pending = outcome.pending > 0 ? `, ${outcome.pending} pending` : '';
  const failures = (outcome.failures ?? []).map((failure) => `\n    ✖ ${failure}`).join('');
  return `  ${outcome.name}: ${outcome.passed} passed, ${outcome.failed} failed${pending} (${seconds})${failures}`;
}

/** The closing lines; the last one is exactly `N passed, M failed`, which tooling may parse. */
export function summaryLines(outcomes: readonly SuiteOutcome[]): string[] {
  const { passed, failed } = totals(outcomes);
  return ['', 'Summary', ...outcomes.map(describeOutcome), `${passed} passed, ${failed} failed`];
}

export function exitCode(outcomes: readonly SuiteOutcome[]): number {
  const failed = totals(outcomes).failed > 0 || outcomes.some((outcome) => outcome.problem !== undefined);
  return failed ? 1 : 0;
}
