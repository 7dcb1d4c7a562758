/** A suite's results as the contract returns them, as `test --json` prints them and as CI systems read them (JUnit XML). */
import { cut } from '../text';
import { inertLines } from '../plain-text';
import { caseMessages } from './case-messages';
import type { CaseResult, SuiteResult, TurnResult } from './types';
import type { VariantReport } from '../variants/variant-report';

/** `convai.runPromptTests`'s answer: the counts and every case as `test --json` reports it. */
export function publicResult(result: SuiteResult): {
  passed: number;
  failed: number;
  skipped: number;
  cases: CaseReport[];
} {
  return { passed: result.passed, failed: result.failed, skipped: result.skipped, cases: result.cases.map(caseReport) };
}

/** Long enough to show what differs, short enough that a CI log stays readable. */
const VALUE_LIMIT = 200;

/**
 * A case's messages, an unequal value's with both sides. The other messages (a pattern, a turn's answering prompt)
 * already name what was expected and what came, so they are only cut, with room for both.
 */
export function detailedMessages(result: CaseResult): string[] {
  return caseMessages(result).map((message) => {
    const failure = result.failures.find((f) => f.message === message && f.assertion === 'equals');
    if (!failure) return cut(message, 2 * VALUE_LIMIT);
    return `${message}: expected ${cut(failure.expected ?? '', VALUE_LIMIT)}, actual ${cut(failure.actual ?? '(absent)', VALUE_LIMIT)}`;
  });
}

/** A case as reports write it (the contract's JSON): the result's tallies, its messages, and its turns as sent. */
export interface CaseReport
  extends Pick<
    CaseResult,
    | 'name'
    | 'passed'
    | 'verdict'
    | 'reason'
    | 'runs'
    | 'passes'
    | 'errors'
    | 'passRate'
    | 'interval'
    | 'latency'
    | 'criteria'
    | 'transcript'
    | 'judgeAgreement'
  > {
  regressed?: boolean;
  messages: string[];
  /** A conversation's turns as sent in its first failing run, else its last. */
  turns?: TurnReport[];
}

export interface TurnReport {
  turn: number;
  prompt_text: string;
  /** The prompt the turn was sent to, which answered it. */
  promptId: number;
  promptName: string;
  passed: boolean;
  messages: string[];
}

function turnReport(turn: TurnResult): TurnReport {
  const text = turn.inputs.prompt_text;
  const messages = turn.error !== undefined ? [turn.error] : turn.failures.map((f) => cut(f.message, 2 * VALUE_LIMIT));
  return {
    turn: turn.turn,
    prompt_text: typeof text === 'string' ? text : '',
    promptId: turn.promptId,
    promptName: turn.promptName,
    passed: turn.passed,
    messages,
  };
}

/** A case as `test --json` prints it: `runs` a count, and `regressed` only when a baseline found a drop. */
export function caseReport(result: CaseResult): CaseReport {
  const { name, passed, verdict, reason, runs, passes, errors, passRate, interval, regressed } = result;
  return {
    name,
    passed,
    verdict,
    ...(reason !== undefined ? { reason } : {}),
    runs,
    passes,
    errors,
    passRate,
    interval,
    ...(result.latency ? { latency: result.latency } : {}),
    ...(regressed ? { regressed: true } : {}),
    messages: detailedMessages(result),
    // A simulated call's answers are in its transcript, with the caller's lines between them.
    ...(result.turns && !result.transcript ? { turns: result.turns.map(turnReport) } : {}),
    ...(result.criteria ? { criteria: result.criteria } : {}),
    ...(result.transcript ? { transcript: result.transcript } : {}),
    ...(result.judgeAgreement !== undefined ? { judgeAgreement: result.judgeAgreement } : {}),
  };
}

const XML: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text for XML: escaped, its control and bidi characters (most of which XML 1.0 cannot hold) shown as escapes, less the two non-characters. */
function xml(text: string): string {
  return inertLines(text)
    .replace(/[\ufffe\uffff]/g, '')
    .replace(/[&<>"']/g, (c) => XML[c] ?? c);
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function propertiesXml(values: ReadonlyArray<[string, string]>): string {
  return `<properties>${values.map(([name, value]) => `<property name="${xml(name)}" value="${xml(value)}"/>`).join('')}</properties>`;
}

/** A variant's figures for a suite: its pooled tally and its difference from the base. */
function variantProperties(variants: readonly VariantReport[] | undefined): string {
  if (!variants) return '';
  return propertiesXml(
    variants.map((v) => [
      `variant: ${v.name}`,
      `${v.passes}/${v.runs}${v.vsBase ? `; vs base ${v.vsBase.change}, p=${v.vsBase.p.toPrecision(3)}` : ''}`,
    ]),
  );
}

function properties(result: CaseResult, variants: readonly VariantReport[] | undefined): string {
  const values: Array<[string, string]> = [
    ['runs', String(result.runs)],
    ['passes', String(result.passes)],
    ['errors', String(result.errors)],
    ['passRate', String(result.passRate)],
    ['verdict', result.verdict],
  ];
  if (result.regressed) values.push(['regressed', 'true']);
  for (const criterion of result.criteria ?? [])
    values.push([`criterion: ${criterion.name}`, `${criterion.passes}/${criterion.runs}`]);
  for (const variant of variants ?? []) {
    const cell = variant.cases.find((c) => c.name === result.name);
    if (cell) values.push([`variant: ${variant.name}`, `${cell.passes}/${cell.runs}`]);
  }
  return propertiesXml(values);
}

/** The case's verdict as CI systems read it: a run that errored could not be checked, apart from a wrong answer. */
function outcome(result: CaseResult, text: (words: string) => string): string {
  if (result.passed) return '';
  if (result.verdict === 'skipped') return `<skipped message="${xml(text(caseMessages(result).join('; ')))}"/>`;
  const messages = detailedMessages(result).map(text);
  const tag = result.verdict === 'error' ? 'error' : 'failure';
  return `<${tag} message="${xml(messages[0] ?? 'failed')}">${xml(messages.join('\n'))}</${tag}>`;
}

/**
 * One `<testsuite>` per suite file, one `<testcase>` per case with its verdict's properties, failures with their
 * messages. `text` sees every name and message before it is written (a shell hides a credential there); the counts
 * are the report's own.
 */
export function junitXml(
  suites: ReadonlyArray<{ name: string; result: SuiteResult; matrix?: readonly VariantReport[] }>,
  text: (words: string) => string = (words) => words,
): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const count = (
    cases: readonly CaseResult[],
  ): { tests: number; failures: number; errors: number; skipped: number } => ({
    tests: cases.length,
    failures: cases.filter((c) => c.verdict === 'fail').length,
    errors: cases.filter((c) => c.verdict === 'error').length,
    skipped: cases.filter((c) => c.verdict === 'skipped').length,
  });
  const counts = (c: ReturnType<typeof count>): string =>
    `tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}"`;
  lines.push(`<testsuites ${counts(count(suites.flatMap((s) => s.result.cases)))}>`);
  for (const { name, result, matrix } of suites) {
    const time = result.cases.reduce((sum, c) => sum + c.durationMs, 0);
    lines.push(
      `  <testsuite name="${xml(text(name))}" ${counts(count(result.cases))} time="${seconds(time)}">${variantProperties(matrix)}`,
    );
    for (const testCase of result.cases) {
      lines.push(
        `    <testcase classname="${xml(text(name))}" name="${xml(text(testCase.name))}" time="${seconds(testCase.durationMs)}">${properties(testCase, matrix)}${outcome(testCase, text)}</testcase>`,
      );
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
