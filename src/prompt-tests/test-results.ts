/**
 * A case's result as the Testing view shows it: its state (passed, failed, errored, skipped) and each message at its
 * place in the suite's text, a failed assertion as a diff of expected and actual, on the case and on its turns and
 * criteria.
 */
import * as vscode from 'vscode';
import { failurePlace } from '../core/prompt-tests/places';
import { errorsLine, regressionLine, tallyMessages, verdictLine } from '../core/prompt-tests/case-messages';
import type { CaseFailure, CaseResult } from '../core/prompt-tests/types';
import type { TestCase, Turn } from '../core/prompt-tests/suite';
import { COMMANDS } from '../commands';
import { textRange } from '../ui/text-range';

/** Where a run's results are placed: the suite's text as it was read for the run. */
export interface Placing {
  uri: vscode.Uri;
  text: string;
}

/** A failed assertion at its place in the suite: an unequal value (or answering prompt) as a diff of expected and actual. */
function failureMessage(placing: Placing, testCase: TestCase, failure: CaseFailure): vscode.TestMessage {
  const message =
    failure.expected !== undefined && failure.actual !== undefined
      ? vscode.TestMessage.diff(failure.message, failure.expected, failure.actual)
      : new vscode.TestMessage(failure.message);
  const { offset, length } = failurePlace(placing.text, testCase, failure);
  message.location = new vscode.Location(placing.uri, textRange(placing.text, offset, Math.max(length, 1)));
  return message;
}

function noteAt(text: string, location: vscode.Location): vscode.TestMessage {
  return Object.assign(new vscode.TestMessage(text), { location });
}

/** How sure a verdict is, when more than one run weighed it (contract: "Verdicts over repeated runs"). */
function verdictOf(result: CaseResult): string | undefined {
  // No decided run, no rate: the errors or the cancellation say why.
  return result.runs > 0 && (result.repeat > 1 || result.verdict === 'flaky') ? verdictLine(result) : undefined;
}

/** A conversation's turn in the Testing view: the text it sends, cut to a line. */
export function turnLabel(turn: Turn, index: number): string {
  const text = turn.prompt_text.length > 40 ? `${turn.prompt_text.slice(0, 39)}…` : turn.prompt_text;
  return `turn ${index + 1}: ${JSON.stringify(text)}`;
}

/** A message of a simulated call's result: Test Results offers Open Transcript on it (package.json's `testing/message/*`). */
const CALL_MESSAGE = 'convai.call';

/**
 * The link from a failed simulated case (or criterion) to its call's transcript. Its place is the transcript itself,
 * and it comes last: a double-click on a failed item in the Testing view goes to its last message's place.
 */
function transcriptMessage(uri: vscode.Uri): vscode.TestMessage {
  const link = `command:${COMMANDS.openCallTranscript}?${encodeURIComponent(JSON.stringify([uri.toString()]))}`;
  const text = new vscode.MarkdownString(
    `[Open the call's transcript](${link}): what was said, and each criterion's verdict with the judge's reasoning.`,
  );
  text.isTrusted = { enabledCommands: [COMMANDS.openCallTranscript] };
  return Object.assign(new vscode.TestMessage(text), { location: new vscode.Location(uri, new vscode.Position(0, 0)) });
}

/** A failed result's messages; a call's each offering its transcript, the link to it last. */
function messagesOf(messages: vscode.TestMessage[], transcript: vscode.Uri | undefined): vscode.TestMessage[] {
  return transcript
    ? [...messages, transcriptMessage(transcript)].map((m) => Object.assign(m, { contextValue: CALL_MESSAGE }))
    : messages;
}

export function childrenOf(item: vscode.TestItem): vscode.TestItem[] {
  return [...item.children].map(([, child]) => child);
}

function locationOf(uri: vscode.Uri, item: vscode.TestItem): vscode.Location {
  return new vscode.Location(uri, item.range ?? new vscode.Range(0, 0, 0, 0));
}

/**
 * A case's result on its item, read from the engine's structured result: each failed assertion at its place, the
 * errors, the verdict and a regression each a message of their own; for a conversation, each turn's on its own item
 * (the turns after the failing one were not sent).
 */
/**
 * A simulated case's criteria, each on its own item: its verdict over the calls, and when it failed, why (the judges'
 * reasoning); when calls or judges errored, or the run was cancelled, why it was not decided.
 */
function reportCriteria(
  run: vscode.TestRun,
  placing: Placing,
  item: vscode.TestItem,
  result: CaseResult,
  transcript: vscode.Uri | undefined,
): void {
  for (const child of childrenOf(item)) {
    const where = locationOf(placing.uri, child);
    const tally = result.criteria?.find((c) => c.name === child.label);
    if (!tally || tally.verdict === 'skipped') run.skipped(child);
    else if (tally.verdict === 'error')
      run.errored(child, messagesOf([noteAt(tally.reason ?? 'not decided', where)], transcript));
    else if (tally.verdict === 'fail')
      run.failed(
        child,
        messagesOf(
          [verdictLine(tally), ...tally.reasons].map((text) => noteAt(text, where)),
          transcript,
        ),
      );
    else {
      run.passed(child);
      run.appendOutput(`${result.name} › ${tally.name}: ${verdictLine(tally)}\r\n`, where, child);
    }
  }
}

export function report(
  run: vscode.TestRun,
  placing: Placing,
  item: vscode.TestItem,
  testCase: TestCase,
  result: CaseResult,
  unsaved: string | undefined,
  transcript?: vscode.Uri,
): void {
  const where = locationOf(placing.uri, item);
  const verdict = verdictOf(result);
  if (result.verdict === 'skipped') {
    run.skipped(item);
    // Cancelled partway: what ended is still evidence, told beside the case.
    if (result.details.length > 0)
      run.appendOutput(
        `${testCase.name}: ${[...tallyMessages(result), verdictLine(result)].join('; ')}\r\n`,
        where,
        item,
      );
  } else if (result.passed) run.passed(item, result.durationMs);
  else {
    const messages = messagesOf(
      [
        ...(result.errors > 0 ? [noteAt(errorsLine(result), where)] : []),
        ...(result.regressed ? [noteAt(regressionLine(result, result.regressed), where)] : []),
        ...result.failures.map((f) => failureMessage(placing, testCase, f)),
        ...[...tallyMessages(result), ...(verdict ? [verdict] : []), ...(unsaved ? [unsaved] : [])].map((text) =>
          noteAt(text, where),
        ),
      ],
      transcript,
    );
    if (result.verdict === 'error') run.errored(item, messages, result.durationMs);
    else run.failed(item, messages, result.durationMs);
  }
  // A passed test takes no message in VS Code's API: its verdict goes to the output, attached to it.
  if (result.passed && verdict) run.appendOutput(`${testCase.name}: ${verdict}\r\n`, where, item);
  if (testCase.criteria) return reportCriteria(run, placing, item, result, transcript);
  childrenOf(item).forEach((turnItem, index) => {
    const turn = result.turns?.find((t) => t.turn === index + 1);
    if (!turn) run.skipped(turnItem);
    else if (turn.passed) run.passed(turnItem, turn.durationMs);
    else if (turn.error !== undefined)
      run.errored(turnItem, noteAt(turn.error, locationOf(placing.uri, turnItem)), turn.durationMs);
    else
      run.failed(
        turnItem,
        turn.failures.map((f) => failureMessage(placing, testCase, f)),
        turn.durationMs,
      );
  });
}

/**
 * The Testing view's ConvAI Prompt Tests: every suite of the workspace and its
 * cases, kept current as files change; runs report each case's verdict inline.
 */
