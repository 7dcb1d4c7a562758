/**
 * A run compared with an earlier one (a `test --json` report): a case whose
 * pass count dropped by more than chance explains is a regression, and fails
 * even when its rate still meets minPassRate, so a slow decay cannot pass CI.
 */
import { isJsonObject, type Json } from '../json';
import type { CaseResult, SuiteResult } from './run';
import { dropPValue, droppedSignificantly, type Tally } from './statistics';
import { messageOf } from '../text';

/** The tallies of a baseline, by file and case name. */
export type Baseline = ReadonlyMap<string, Tally>;

/** Why a text is no baseline; the caller names the file. */
export class BaselineError extends Error {}

function key(file: string, name: string): string {
  return `${file}\n${name}`;
}

function count(value: Json | undefined): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** A `test --json` report's tallies; throws BaselineError naming the first field that is not of that shape. */
export function parseBaseline(text: string): Baseline {
  let report: Json;
  try {
    report = JSON.parse(text) as Json;
  } catch (error) {
    throw new BaselineError(`it is not JSON (${messageOf(error)})`);
  }
  const suites = isJsonObject(report) ? report.suites : undefined;
  if (!Array.isArray(suites)) throw new BaselineError('it has no "suites" list');
  const tallies = new Map<string, Tally>();
  suites.forEach((suite, s) => {
    const cases = isJsonObject(suite) ? suite.cases : undefined;
    if (!isJsonObject(suite) || typeof suite.file !== 'string' || !Array.isArray(cases)) {
      throw new BaselineError(`suites[${s}] needs "file" (a text) and "cases" (a list)`);
    }
    cases.forEach((testCase, c) => {
      const passes = isJsonObject(testCase) ? count(testCase.passes) : undefined;
      const runs = isJsonObject(testCase) ? count(testCase.runs) : undefined;
      if (!isJsonObject(testCase) || typeof testCase.name !== 'string' || passes === undefined || runs === undefined || passes > runs) {
        throw new BaselineError(`suites[${s}].cases[${c}] needs "name" (a text) and "passes" and "runs" (whole numbers, passes at most runs)`);
      }
      tallies.set(key(suite.file as string, testCase.name), { passes, runs });
    });
  });
  return tallies;
}

function pText(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`;
}

/** A case judged against its tally in a baseline: a significant drop fails it, whatever its rate. */
export function judgeCase(result: CaseResult, before: Tally | undefined): CaseResult {
  if (before === undefined || result.skipped) return result;
  const now: Tally = { passes: result.passes, runs: result.runs.length };
  if (!droppedSignificantly(before, now)) return result;
  const message = `regressed: ${now.passes}/${now.runs} passed, against ${before.passes}/${before.runs} in the baseline (${pText(dropPValue(before, now))})`;
  return { ...result, passed: false, regressed: true, verdict: 'fail', messages: [...result.messages, message] };
}

/** `result` with every case judged against `before(name)`, the tallies of the same case in a baseline. */
export function withBaseline(result: SuiteResult, before: (name: string) => Tally | undefined): SuiteResult {
  const cases = result.cases.map((c) => judgeCase(c, before(c.name)));
  return {
    passed: cases.filter((c) => c.passed).length,
    failed: cases.filter((c) => !c.passed && !c.skipped).length,
    skipped: result.skipped,
    cases,
  };
}

/** `result` with every case of `file` that dropped significantly against `baseline` marked regressed and failed. */
export function compareWithBaseline(file: string, result: SuiteResult, baseline: Baseline): SuiteResult {
  return withBaseline(result, (name) => baseline.get(key(file, name)));
}
