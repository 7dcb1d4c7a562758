/**
 * Prompt test results as a terminal shows them (a table per suite, the
 * reasons under each failed case), and the contract's JSON shape for scripts.
 */
import type { Failure } from '../core/prompt-tests/assertions';
import { caseReport } from '../core/prompt-tests/report';
import { tallyLine, type CaseResult, type SuiteResult } from '../core/prompt-tests/run';
import type { Suite } from '../core/prompt-tests/suite';
import type { ResolvedTarget } from '../core/prompt-tests/target';
import { table } from './format';
import { plural } from '../core/text';

export interface SuiteOutcome {
  /** The suite's path relative to the working directory. */
  name: string;
  suite: Suite;
  target: ResolvedTarget;
  result: SuiteResult;
}

const REASON_INDENT = '      ';

function verdict(result: CaseResult): string {
  return result.skipped ? 'SKIP' : result.verdict.toUpperCase();
}

function duration(result: CaseResult): string {
  if (result.runs.length === 0) return '-';
  const ms = result.runs.reduce((sum, run) => sum + run.durationMs, 0);
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function passRate(result: CaseResult, repeat: number): string {
  return repeat <= 1 || result.skipped ? '' : tallyLine(result);
}

/** `label` before the first line of a value, the others aligned under it. */
function labelled(label: string, value: string): string[] {
  return value.split('\n').map((line, index) => `${index === 0 ? label : ' '.repeat(label.length)}${line}`);
}

/** The reasons a case failed; an unequal value also shows both sides, as the message alone does not. */
function reasons(result: CaseResult): string[] {
  const sides = new Map<string, Failure>();
  for (const failure of result.runs.flatMap((run) => run.failures)) {
    if (failure.expected !== undefined && !sides.has(failure.message)) sides.set(failure.message, failure);
  }
  return result.messages.flatMap((message) => {
    const failure = sides.get(message);
    const lines = [`- ${message}`];
    if (failure) lines.push(...labelled('  expected: ', failure.expected ?? ''), ...labelled('  actual:   ', failure.actual ?? ''));
    return lines.map((line) => `${REASON_INDENT}${line}`);
  });
}

export function suiteLines({ name, suite, target, result }: SuiteOutcome): string[] {
  const skipped = result.skipped > 0 ? `, ${result.skipped} skipped` : '';
  const lines = [`${name}: ${target.kind.label} "${target.name}" (id ${target.id}) in tenant ${target.tenantId}; ${result.passed} of ${plural(result.cases.length, 'case')} passed${skipped}`];
  const repeats = new Map(suite.cases.map((c) => [c.name, c.repeat]));
  // The pass rate says something only of repeated cases; a suite without any leaves the column out.
  const rated = suite.cases.some((c) => c.repeat > 1);
  const row = (...cells: string[]): string[] => (rated ? cells : cells.filter((_, column) => column !== 2));
  const rows = [row('case', 'result', 'pass rate', 'duration'), ...result.cases.map((c) => row(c.name, verdict(c), passRate(c, repeats.get(c.name) ?? 1), duration(c)))];
  const [header, ...body] = table(rows);
  lines.push(`  ${header ?? ''}`);
  // A failed case's reasons go right under its row, where the reader is looking.
  body.forEach((row, index) => {
    lines.push(`  ${row}`);
    const testCase = result.cases[index];
    if (testCase && !testCase.passed) lines.push(...reasons(testCase));
  });
  return lines;
}

function total(outcomes: readonly SuiteOutcome[], pick: (r: SuiteResult) => number): number {
  return outcomes.reduce((sum, o) => sum + pick(o.result), 0);
}

/**
 * The whole run in one line. Not `N passed, N failed` alone: CI systems read a line of exactly that form as the
 * project's own test summary.
 */
export function totalsLine(outcomes: readonly SuiteOutcome[]): string {
  const sum = (pick: (r: SuiteResult) => number): number => total(outcomes, pick);
  const skipped = sum((r) => r.skipped);
  return `Prompt tests: ${sum((r) => r.passed)} passed, ${sum((r) => r.failed)} failed${skipped > 0 ? `, ${skipped} skipped` : ''} (${plural(outcomes.length, 'suite')})`;
}

/** `{ passed, failed, suites: [{ file, cases }] }`; a case not run counts as failed, as in convai.runPromptTests. */
export function testJson(outcomes: readonly SuiteOutcome[]): string {
  const sum = (pick: (r: SuiteResult) => number): number => total(outcomes, pick);
  return JSON.stringify({
    passed: sum((r) => r.passed),
    failed: sum((r) => r.failed + r.skipped),
    suites: outcomes.map((o) => ({ file: o.name, cases: o.result.cases.map(caseReport) })),
  }, null, 2);
}
