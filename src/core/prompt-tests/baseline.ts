/**
 * An earlier run to compare with (a `test --json` report): its tallies, suite
 * by suite. A run finds its suite's tallies by the suite's path, matched from
 * the file name up, so the same report matches wherever the run was started
 * from; the engine (run.ts) then fails a case whose pass count dropped by more
 * than chance explains, even when its rate still meets minPassRate.
 */
import { isJsonObject, type Json } from '../json';
import type { Tally } from './statistics';
import { messageOf } from '../text';

/** One suite's tallies in a baseline, by case name. */
export interface BaselineSuite {
  file: string;
  cases: ReadonlyMap<string, Tally>;
}

export type Baseline = readonly BaselineSuite[];

/** Why a text is no baseline; the caller names the file. */
export class BaselineError extends Error {}

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
  return suites.map((suite, s) => {
    const cases = isJsonObject(suite) ? suite.cases : undefined;
    if (!isJsonObject(suite) || typeof suite.file !== 'string' || !Array.isArray(cases)) {
      throw new BaselineError(`suites[${s}] needs "file" (a text) and "cases" (a list)`);
    }
    const tallies = new Map<string, Tally>();
    cases.forEach((testCase, c) => {
      const passes = isJsonObject(testCase) ? count(testCase.passes) : undefined;
      const runs = isJsonObject(testCase) ? count(testCase.runs) : undefined;
      if (
        !isJsonObject(testCase) ||
        typeof testCase.name !== 'string' ||
        passes === undefined ||
        runs === undefined ||
        passes > runs
      ) {
        throw new BaselineError(
          `suites[${s}].cases[${c}] needs "name" (a text) and "passes" and "runs" (whole numbers, passes at most runs)`,
        );
      }
      tallies.set(testCase.name, { passes, runs });
    });
    return { file: suite.file, cases: tallies };
  });
}

/** A path's folder and file names, without what only says where it was seen from (`.`, `..`, a drive, the root). */
function segments(file: string): string[] {
  return file.split(/[\\/]+/).filter((s) => s !== '' && s !== '.' && s !== '..' && !/^[A-Za-z]:$/.test(s));
}

/** How many names, from the file's own up, two paths share. */
function sharedTail(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

/**
 * The baseline's tallies of the suite at `file`: the suite whose path shares the longest tail with it, at least the
 * file's name; none when no suite does, or when two share it equally (which of them is meant cannot be known).
 */
export function baselineFor(baseline: Baseline, file: string): BaselineSuite | undefined {
  const wanted = segments(file);
  let best: BaselineSuite | undefined;
  let bestShared = 0;
  let tied = false;
  for (const suite of baseline) {
    const shared = sharedTail(wanted, segments(suite.file));
    if (shared > bestShared) {
      [best, bestShared, tied] = [suite, shared, false];
    } else if (shared === bestShared && shared > 0) {
      tied = true;
    }
  }
  return tied ? undefined : best;
}
