/**
 * Prompt test results as a terminal shows them (a table per suite, the
 * reasons under each failed case), and the contract's JSON shape for scripts.
 */
import { caseReport } from '../core/prompt-tests/report';
import { caseMessages, tallyLine } from '../core/prompt-tests/case-messages';
import type { CaseResult, CriterionTally, SuiteResult } from '../core/prompt-tests/types';
import type { Suite } from '../core/prompt-tests/suite';
import type { ResolvedTarget } from '../core/prompt-tests/target';
import type { TenantCoverage } from '../core/flow-map/coverage';
import type { RequestBudget } from '../core/request-budget';
import { table } from './format';
import { plural } from '../core/text';
import { inertLine } from '../core/plain-text';
import { compared, comparedReports } from '../core/trials/trial-compare';
import type { TrialOutcome } from '../core/trials/trial-report';
import { publicTrial } from '../core/trials/trial-report';
import type { VariantReport } from '../core/variants/variant-report';
import { variantLines } from './variant-format';

export interface SuiteOutcome {
  /** The suite's path relative to the working directory. */
  name: string;
  suite: Suite;
  target: ResolvedTarget;
  /** The base's results: what passes or fails the suite, with or without variants. */
  result: SuiteResult;
  /** With variants: every column's figures, the base first. */
  matrix?: VariantReport[];
}

const REASON_INDENT = '      ';

function verdict(result: CaseResult): string {
  return result.verdict.toUpperCase();
}

function duration(result: CaseResult): string {
  if (result.details.length === 0) return '-';
  const ms = result.durationMs;
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The tally of the answered runs, and the errored ones apart. */
function passRate(result: CaseResult): string {
  if (result.repeat <= 1 && result.errors === 0) return '';
  const errors = result.errors > 0 ? `; ${plural(result.errors, 'error')}` : '';
  return result.runs > 0 ? `${tallyLine(result)}${errors}` : `no answered run${errors}`;
}

/** `label` before the first line of a value, the others aligned under it. */
function labelled(label: string, value: string): string[] {
  return value.split('\n').map((line, index) => `${index === 0 ? label : ' '.repeat(label.length)}${line}`);
}

/** The reasons a case failed; an unequal value also shows both sides, as the message alone does not. */
function reasons(result: CaseResult): string[] {
  return caseMessages(result).flatMap((message) => {
    const failure = result.failures.find((f) => f.message === message && f.assertion === 'equals');
    const lines = [`- ${message}`];
    if (failure)
      lines.push(
        ...labelled('  expected: ', failure.expected ?? ''),
        ...labelled('  actual:   ', failure.actual ?? '(absent)'),
      );
    return lines.map((line) => `${REASON_INDENT}${line}`);
  });
}

/** A simulated call's criteria under its row, each with its verdict over the calls. */
function criteriaLines(criteria: readonly CriterionTally[]): string[] {
  return criteria.map(
    (c) =>
      `${REASON_INDENT}criterion ${JSON.stringify(c.name)}: ${c.verdict.toUpperCase()}, ${c.reason ?? tallyLine(c)}`,
  );
}

export function suiteLines({
  name,
  target,
  result,
  matrix,
}: Pick<SuiteOutcome, 'name' | 'target' | 'result' | 'matrix'>): string[] {
  const skipped = result.skipped > 0 ? `, ${result.skipped} skipped` : '';
  const lines = [
    `${name}: ${target.kind.label} "${target.name}" (id ${target.id}) in tenant ${target.tenantId}; ${result.passed} of ${plural(result.cases.length, 'case')} passed${skipped}`,
  ];
  // The pass rate says something only of repeated cases and errored runs; a suite without any leaves the column out.
  const rated = result.cases.some((c) => passRate(c) !== '');
  const row = (...cells: string[]): string[] => (rated ? cells : cells.filter((_, column) => column !== 2));
  const rows = [
    row('case', 'result', 'pass rate', 'duration'),
    ...result.cases.map((c) => row(c.name, verdict(c), passRate(c), duration(c))),
  ];
  const [header, ...body] = table(rows);
  lines.push(`  ${header ?? ''}`);
  // A failed case's reasons go right under its row, where the reader is looking.
  body.forEach((row, index) => {
    lines.push(`  ${row}`);
    const testCase = result.cases[index];
    if (testCase?.criteria) lines.push(...criteriaLines(testCase.criteria));
    if (testCase && !testCase.passed) lines.push(...reasons(testCase));
  });
  if (matrix) lines.push(...variantLines(matrix));
  return lines;
}

function total(outcomes: readonly SuiteOutcome[], pick: (r: SuiteResult) => number): number {
  return outcomes.reduce((sum, o) => sum + pick(o.result), 0);
}

/**
 * The whole run in one line. Not `N passed, N failed` alone: CI systems read a line of exactly that form as the
 * project's own test summary.
 */
export function totalsLine(outcomes: readonly SuiteOutcome[], judges: readonly boolean[] = []): string {
  const sum = (pick: (r: SuiteResult) => number): number => total(outcomes, pick);
  const skipped = sum((r) => r.skipped);
  const met = judges.filter(Boolean).length;
  const judged = judges.length > 0 ? `; judges: ${met} of ${judges.length} met minKappa` : '';
  return `Prompt tests: ${sum((r) => r.passed)} passed, ${sum((r) => r.failed)} failed${skipped > 0 ? `, ${skipped} skipped` : ''} (${plural(outcomes.length, 'suite')})${judged}`;
}

/**
 * "14 requests sent: 12 that ran a test (its cases could send at most 40, retries within 1000), 2 reads": what the
 * service received, retries and reads included, against what the cases could send and the limit retries are held to.
 */
export function requestsLine(budget: Pick<RequestBudget, 'sent' | 'spent'>, bound: number, limit: number): string {
  return `${plural(budget.sent, 'request')} sent: ${budget.spent} that ran a test (its cases could send at most ${bound}, retries within ${limit}), ${plural(budget.sent - budget.spent, 'read')}`;
}

/**
 * `{ passed, failed, skipped, requests, suites: [{ file, cases }], coverage }`, counted as the text output and
 * convai.runPromptTests count; judge files' entries follow the suites', outside the counts (a judge's result is its
 * kappa, not its labels). `coverage` is the flow map's, one entry per tenant the suites ran against.
 */
/** A trial as reports give it: its copies by the live prompts they stood for, and the live runs it was compared with. */
export interface TriedReport {
  folder: string;
  trial: TrialOutcome;
  live?: ReadonlyMap<string, SuiteResult>;
}

function casesOf(outcome: SuiteOutcome, tried: TriedReport | undefined): object[] {
  if (!tried?.live) return outcome.result.cases.map(caseReport);
  return comparedReports(outcome.result, tried.live.get(outcome.name));
}

/**
 * What ran, under the suites: the folder's versions and the copies they ran through; with --compare, each case the trial
 * changed, "Refund window: live 12/20 → trial 19/20, improved".
 */
export function trialLines(outcomes: readonly SuiteOutcome[], tried: TriedReport): string[] {
  const { copies, tag, deleted } = tried.trial;
  const names = copies.map((c) => `"${inertLine(c.name)}"`).join(', ');
  const ran =
    copies.length === 0
      ? `Trial of ${tried.folder}: it changes no prompt, so every case ran on the live prompts.`
      : `Trial of ${tried.folder}: ran its version of ${plural(copies.length, 'prompt')} (${names}) through copies named "[trial ${tag}] …", ${deleted ? 'all deleted since' : 'not all deleted (see below)'}; no live prompt was written.`;
  if (!tried.live) return [ran, ''];
  const lines = outcomes.flatMap((o) =>
    compared(o.result, tried.live?.get(o.name)).flatMap((c) => {
      if (!c.live || (!c.regressed && !c.improved)) return [];
      const change = c.regressed ? 'regressed' : 'improved';
      return [
        `  ${o.name}: ${inertLine(c.name)}: live ${c.live.passes}/${c.live.runs} → trial ${c.passes}/${c.runs}, ${change}`,
      ];
    }),
  );
  return [
    ran,
    lines.length === 0 ? 'Compared with live: no case changed significantly.' : 'Compared with live:',
    ...lines,
    '',
  ];
}

export function testJson(
  outcomes: readonly SuiteOutcome[],
  judges: readonly object[],
  coverage: readonly TenantCoverage[],
  requests: number,
  tried?: TriedReport,
): string {
  const sum = (pick: (r: SuiteResult) => number): number => total(outcomes, pick);
  return JSON.stringify(
    {
      passed: sum((r) => r.passed),
      failed: sum((r) => r.failed),
      skipped: sum((r) => r.skipped),
      requests,
      suites: [
        ...outcomes.map((o) => ({
          file: o.name,
          ...(o.result.baseline ? { baseline: o.result.baseline } : {}),
          cases: casesOf(o, tried),
          ...(o.matrix ? { variants: o.matrix } : {}),
        })),
        ...judges,
      ],
      coverage,
      ...(tried ? { trial: publicTrial(tried.trial, tried.folder) } : {}),
    },
    null,
    2,
  );
}

/** What a baseline was compared with: a run it matched only in part, or not at all, must not pass for a comparison. */
export function baselineNotes(outcomes: readonly SuiteOutcome[], file: string): string[] {
  const compared = total(outcomes, (r) => r.baseline?.compared ?? 0);
  const ran = total(outcomes, (r) => r.baseline?.cases ?? 0);
  if (ran === 0) return [];
  if (compared === 0) {
    return [
      `--baseline ${file}: no case of this run is in it, so nothing was compared. Give a report that test --json wrote for these suites.`,
    ];
  }
  const partial = outcomes.filter((o) => o.result.baseline && o.result.baseline.compared < o.result.baseline.cases);
  return partial.map((o) => {
    const { compared: matched = 0, cases = 0 } = o.result.baseline ?? {};
    return `--baseline ${file}: compared ${matched} of ${plural(cases, 'case')} of ${o.name}; the others are not in it.`;
  });
}
