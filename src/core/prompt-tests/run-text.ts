/**
 * A case's run as people read it after a run, in a read-only document: a simulated call's transcript
 * (call-transcript.ts), else the run that shows why the case failed (its first failing run, else its first errored
 * one, else its last), with what was sent, what the service answered and each failed assertion. Plain text: what the
 * service said is shown as JSON, never interpreted.
 */
import { indentedLines, inertLine } from '../plain-text';
import type { JsonObject } from '../json';
import { BASE_NAME } from '../variants/variant-spec';
import { callTranscriptText } from './call-transcript';
import type { TestCase } from './suite';
import type { CaseFailure, CaseResult, CaseRun } from './types';

/** The run a case's document shows: the first that failed an assertion, else the first that errored, else the last. */
export function shownRun(result: CaseResult): CaseRun | undefined {
  const { details } = result;
  return (
    details.find((run) => !run.passed && run.error === undefined) ??
    details.find((run) => run.error !== undefined) ??
    details[details.length - 1]
  );
}

function which(result: CaseResult, run: CaseRun | undefined): string {
  const runs = result.details.length;
  if (!run) return 'No run ended (the run was cancelled before it).';
  const index = result.details.indexOf(run) + 1;
  const of = runs > 1 ? ` (run ${index} of ${runs})` : '';
  if (run.error !== undefined) return `The first errored run${of}: no answer, so no evidence either way.`;
  return run.passed ? `The last run${of}; every run passed.` : `The first failing run${of}.`;
}

/** A value under its label: JSON indented below it, so a service's text cannot start a line of its own. */
function block(label: string, value: unknown): string {
  return `${label}\n  ${indentedLines(JSON.stringify(value, null, 2) ?? 'null', '  ')}`;
}

function failureLines(failures: readonly CaseFailure[]): string[] {
  if (failures.length === 0) return [];
  const lines = ['Failures'];
  for (const failure of failures) {
    lines.push(`  [${failure.field} ${failure.assertion}] ${indentedLines(failure.message, '    ')}`);
    if (failure.expected !== undefined) lines.push(`    expected: ${indentedLines(failure.expected, '      ')}`);
    if (failure.actual !== undefined) lines.push(`    actual:   ${indentedLines(failure.actual, '      ')}`);
  }
  return lines;
}

/** What was sent and answered: each turn of a conversation, else the case's one request. */
function exchangeLines(inputs: JsonObject, run: CaseRun): string[] {
  if (!run.turns) {
    return [
      block('Sent', inputs),
      run.error !== undefined ? `Error\n  ${indentedLines(run.error, '  ')}` : block('Answer', run.output ?? null),
    ];
  }
  return run.turns.flatMap((turn) => [
    `Turn ${turn.turn}, answered by "${inertLine(turn.promptName)}" (${turn.promptId})${turn.passed ? '' : ', failed'}`,
    block('Sent', turn.inputs),
    turn.error !== undefined ? `Error\n  ${indentedLines(turn.error, '  ')}` : block('Answer', turn.output ?? null),
    '',
  ]);
}

/**
 * The document's text: which case, which column of a variant run (`column`, when it ran in one), which run, and the
 * run itself. `inputs` are the case's request as the engine sends it (target.ts's caseInputs).
 */
export function caseRunText(
  testCase: TestCase,
  result: CaseResult,
  suiteFile: string,
  inputs: JsonObject,
  column?: string,
): string {
  const on =
    column === undefined ? '' : `, on ${column === BASE_NAME ? 'the base' : `the variant "${inertLine(column)}"`}`;
  if (result.transcript) {
    const [first = '', ...rest] = callTranscriptText(testCase, result, suiteFile).split('\n');
    return [`${first}${on}`, ...rest].join('\n');
  }
  const run = shownRun(result);
  const lines = [`Case "${inertLine(testCase.name)}" (${inertLine(suiteFile)})${on}`, which(result, run), ''];
  if (run) lines.push(...exchangeLines(inputs, run), ...failureLines(run.failures));
  return `${lines.join('\n').trimEnd()}\n`;
}
