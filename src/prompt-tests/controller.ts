import * as path from 'node:path';
import * as vscode from 'vscode';
import { failurePlace } from '../core/prompt-tests/places';
import { errorsLine, regressionLine, tallyMessages, verdictLine, type CaseFailure, type CaseResult } from '../core/prompt-tests/run';
import { requestBound } from '../core/prompt-tests/cost';
import { parseSuite, SUITE_SUFFIX, type TestCase, type Turn } from '../core/prompt-tests/suite';
import { COMMANDS } from '../commands';
import { confirmRequestsAbove } from '../shared/settings';
import type { CallTranscripts } from './call-transcripts';
import type { SuiteRuns } from '../shared/suite-runs';
import { runSuiteFile, suiteText, type SuiteDeps, type SuiteRun } from './execution';
import { discoverTestFiles, fileItem, watchTestFiles } from './test-files';
import type { GreenRuns } from './green-runs';
import { messageOf, plural } from '../core/text';
import { textRange } from '../ui/text-range';
import { DisposableStore } from '../core/disposable-store';

/** Where a run's results are placed: the suite's text as it was read for the run. */
interface Placing {
  uri: vscode.Uri;
  text: string;
}

/** A failed assertion at its place in the suite: an unequal value (or answering prompt) as a diff of expected and actual. */
function failureMessage(placing: Placing, testCase: TestCase, failure: CaseFailure): vscode.TestMessage {
  const message = failure.expected !== undefined && failure.actual !== undefined
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
function turnLabel(turn: Turn, index: number): string {
  const text = turn.prompt_text.length > 40 ? `${turn.prompt_text.slice(0, 39)}…` : turn.prompt_text;
  return `turn ${index + 1}: ${JSON.stringify(text)}`;
}

/** The link from a failed simulated case to its call's transcript; the message's place is the transcript itself. */
function transcriptMessage(uri: vscode.Uri): vscode.TestMessage {
  const link = `command:${COMMANDS.openCallTranscript}?${encodeURIComponent(JSON.stringify([uri.toString()]))}`;
  const text = new vscode.MarkdownString(`[Open the call's transcript](${link}): what was said, and each criterion's verdict with the judge's reasoning.`);
  text.isTrusted = { enabledCommands: [COMMANDS.openCallTranscript] };
  return Object.assign(new vscode.TestMessage(text), { location: new vscode.Location(uri, new vscode.Position(0, 0)) });
}

function childrenOf(item: vscode.TestItem): vscode.TestItem[] {
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
function reportCriteria(run: vscode.TestRun, placing: Placing, item: vscode.TestItem, result: CaseResult): void {
  for (const child of childrenOf(item)) {
    const where = locationOf(placing.uri, child);
    const tally = result.criteria?.find((c) => c.name === child.label);
    if (!tally || tally.verdict === 'skipped') run.skipped(child);
    else if (tally.verdict === 'error') run.errored(child, noteAt(tally.reason ?? 'not decided', where));
    else if (tally.verdict === 'fail') run.failed(child, [verdictLine(tally), ...tally.reasons].map((text) => noteAt(text, where)));
    else {
      run.passed(child);
      run.appendOutput(`${result.name} › ${tally.name}: ${verdictLine(tally)}\r\n`, where, child);
    }
  }
}

function report(run: vscode.TestRun, placing: Placing, item: vscode.TestItem, testCase: TestCase, result: CaseResult, unsaved: string | undefined, transcript?: vscode.Uri): void {
  const where = locationOf(placing.uri, item);
  const verdict = verdictOf(result);
  if (result.verdict === 'skipped') {
    run.skipped(item);
    // Cancelled partway: what ended is still evidence, told beside the case.
    if (result.details.length > 0) run.appendOutput(`${testCase.name}: ${[...tallyMessages(result), verdictLine(result)].join('; ')}\r\n`, where, item);
  } else if (result.passed) run.passed(item, result.durationMs);
  else {
    const messages = [
      ...(result.errors > 0 ? [noteAt(errorsLine(result), where)] : []),
      ...(result.regressed ? [noteAt(regressionLine(result, result.regressed), where)] : []),
      ...result.failures.map((f) => failureMessage(placing, testCase, f)),
      ...[...tallyMessages(result), ...(verdict ? [verdict] : []), ...(unsaved ? [unsaved] : [])].map((text) => noteAt(text, where)),
      ...(transcript ? [transcriptMessage(transcript)] : []),
    ];
    if (result.verdict === 'error') run.errored(item, messages, result.durationMs);
    else run.failed(item, messages, result.durationMs);
  }
  // A passed test takes no message in VS Code's API: its verdict goes to the output, attached to it.
  if (result.passed && verdict) run.appendOutput(`${testCase.name}: ${verdict}\r\n`, where, item);
  if (testCase.criteria) return reportCriteria(run, placing, item, result);
  childrenOf(item).forEach((turnItem, index) => {
    const turn = result.turns?.find((t) => t.turn === index + 1);
    if (!turn) run.skipped(turnItem);
    else if (turn.passed) run.passed(turnItem, turn.durationMs);
    else if (turn.error !== undefined) run.errored(turnItem, noteAt(turn.error, locationOf(placing.uri, turnItem)), turn.durationMs);
    else run.failed(turnItem, turn.failures.map((f) => failureMessage(placing, testCase, f)), turn.durationMs);
  });
}

/**
 * The Testing view's ConvAI Prompt Tests: every suite of the workspace and its
 * cases, kept current as files change; runs report each case's verdict inline.
 */
export class PromptTestController implements vscode.Disposable {
  readonly controller = vscode.tests.createTestController('convai.promptTests', 'ConvAI Prompt Tests');
  /** A suite's problems at their places: what its schema cannot say (an unknown assertion, a bad pattern or schema). */
  private readonly problems = vscode.languages.createDiagnosticCollection('convai-prompt-tests');
  private readonly disposables = new DisposableStore();

  constructor(
    private readonly deps: SuiteDeps, private readonly greenRuns: GreenRuns, private readonly transcripts: CallTranscripts, private readonly suiteRuns: SuiteRuns,
  ) {
    this.controller.resolveHandler = async (item) => {
      if (!item) await this.discover();
    };
    this.controller.refreshHandler = () => this.discover();
    // The Testing view's runs ask before a costly one; convai.runPromptTests, a program's, asks nothing.
    this.controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, async (request, token) => {
      if (await this.affordable(request)) await this.run(request, token);
    }, true);
    this.controller.createRunProfile('Run against Last Green Run', vscode.TestRunProfileKind.Run, async (request, token) => {
      if (await this.affordable(request)) await this.run(request, token, true);
    }, false);
    this.disposables.push(this.controller, this.problems, ...watchTestFiles(SUITE_SUFFIX, (uri) => this.update(uri), (uri) => {
      this.controller.items.delete(uri.toString());
      this.problems.delete(uri);
    }));
  }

  async discover(): Promise<void> {
    await discoverTestFiles(SUITE_SUFFIX, (uri) => this.update(uri));
  }

  /** The suite's item and its cases, as the file reads now. */
  async update(uri: vscode.Uri): Promise<vscode.TestItem | undefined> {
    const read = await fileItem(this.controller, uri);
    if (!read) return undefined;
    const { item, text } = read;
    const { suite, problems } = parseSuite(text);
    this.problems.set(uri, problems.map((p) => Object.assign(
      new vscode.Diagnostic(textRange(text, p.range.offset, Math.max(p.range.length, 1)), p.message, vscode.DiagnosticSeverity.Error),
      { source: 'ConvAI' },
    )));
    item.error = problems.length > 0 ? `${plural(problems.length, 'problem')}: ${problems.map((p) => p.message).join('; ')}` : undefined;
    item.children.replace((suite?.cases ?? []).map((testCase) => {
      const child = this.controller.createTestItem(`${uri.toString()}#${testCase.name}`, testCase.name, uri);
      child.range = textRange(text, testCase.range.offset, testCase.range.length);
      child.children.replace([
        ...(testCase.turns ?? []).map((turn, index) => {
          const turnItem = this.controller.createTestItem(`${child.id}#turn ${index + 1}`, turnLabel(turn, index), uri);
          turnItem.range = textRange(text, turn.range.offset, turn.range.length);
          return turnItem;
        }),
        ...(testCase.criteria ?? []).map((criterion) => {
          const criterionItem = this.controller.createTestItem(`${child.id}#criterion ${criterion.name}`, criterion.name, uri);
          criterionItem.range = textRange(text, criterion.range.offset, criterion.range.length);
          return criterionItem;
        }),
      ]);
      return child;
    }));
    return item;
  }

  /**
   * Runs the requested suites (or cases); returns each suite's run (or why it could not run), for the command's answer.
   * Against the last green run, a case whose passes dropped significantly since fails as regressed.
   */
  async run(request: vscode.TestRunRequest, token: vscode.CancellationToken, againstLastGreen = false): Promise<Map<string, SuiteRun | Error>> {
    const run = this.controller.createTestRun(request);
    const controller = new AbortController();
    // The caller's token, and the run's own: the Testing view's Cancel reaches a run the extension started.
    token.onCancellationRequested(() => controller.abort());
    run.token.onCancellationRequested(() => controller.abort());
    const bySuite = this.casesBySuite(request);
    const results = new Map<string, SuiteRun | Error>();
    try {
      for (const { suite, cases } of bySuite.values()) {
        const uri = suite.uri as vscode.Uri;
        const byName = new Map(cases.map((c) => [c.label, c]));
        for (const testCase of cases) for (const item of [testCase, ...childrenOf(testCase)]) run.enqueued(item);
        try {
          let placing: Placing = { uri, text: '' };
          let unsaved: string | undefined;
          let note = '';
          const baseline = againstLastGreen ? this.greenRuns.baseline(uri) : undefined;
          if (baseline) run.appendOutput(`${path.basename(uri.path)}: ${baseline.size > 0 ? `compared with its last green run (${plural(baseline.size, 'case')})` : 'no green run yet, so nothing to compare with'}.\r\n`);
          const done = await runSuiteFile(this.deps, uri, {
            baseline,
            signal: controller.signal,
            only: new Set(byName.keys()),
            onReady: (ready) => {
              placing = { uri, text: ready.text };
              note = ready.note;
              unsaved = ready.unsavedChanges ? ready.note : undefined;
            },
            onCaseStarted: (c) => {
              const item = byName.get(c.name);
              if (item) for (const started of [item, ...childrenOf(item)]) run.started(started);
            },
            onCaseFinished: (c, result) => {
              const item = byName.get(c.name);
              if (item) report(run, placing, item, c, result, unsaved, result.passed ? undefined : this.transcripts.set(uri, c, result));
            },
          });
          run.appendOutput(`${path.basename(uri.path)}: ${done.result.passed} passed, ${done.result.failed} failed, ${done.result.skipped} skipped. ${note}\r\n`);
          results.set(uri.toString(), done);
          this.suiteRuns.record(uri.toString(), done);
          await this.greenRuns.remember(uri, done.result);
        } catch (error) {
          results.set(uri.toString(), error instanceof Error ? error : new Error(String(error)));
          const message = new vscode.TestMessage(messageOf(error));
          for (const testCase of cases) for (const item of [testCase, ...childrenOf(testCase)]) run.errored(item, message);
          if (cases.length === 0) run.errored(suite, message);
        }
      }
    } finally {
      run.end();
    }
    return results;
  }

  /** The requested cases, by suite. */
  private casesBySuite(request: vscode.TestRunRequest): Map<string, { suite: vscode.TestItem; cases: vscode.TestItem[] }> {
    const bySuite = new Map<string, { suite: vscode.TestItem; cases: vscode.TestItem[] }>();
    for (const item of request.include ?? [...this.allSuites()]) {
      // A turn or criterion runs its whole case: a later turn cannot be sent without the answers before it, nor a call judged in part.
      const testCase = item.parent?.parent ? item.parent : item.parent ? item : undefined;
      const suite = testCase?.parent ?? item;
      const entry = bySuite.get(suite.id) ?? { suite, cases: [] };
      const cases = testCase ? [testCase] : childrenOf(item);
      entry.cases.push(...cases.filter((c) => !request.exclude?.includes(c) && !entry.cases.includes(c)));
      bySuite.set(suite.id, entry);
    }
    return bySuite;
  }

  /**
   * Whether to send a run: yes when the most requests it can send is within convai.confirmRequestsAbove, else what the
   * user answers. A suite that cannot be read counts nothing here; its run says why.
   */
  private async affordable(request: vscode.TestRunRequest): Promise<boolean> {
    let bound = 0;
    for (const { suite, cases } of this.casesBySuite(request).values()) {
      const read = await suiteText(suite.uri as vscode.Uri).then((text) => parseSuite(text).suite, () => undefined);
      if (read) bound += requestBound(read, new Set(cases.map((c) => c.label)));
    }
    const limit = confirmRequestsAbove();
    if (bound <= limit) return true;
    const answer = await vscode.window.showWarningMessage(
      `This run can send up to ${bound} requests, more than ${limit} (convai.confirmRequestsAbove). Run it?`,
      { modal: true, detail: 'Simulated calls send a caller and an assistant request per turn, and each judged criterion its judgements, for every repeat.' },
      'Run',
    );
    return answer === 'Run';
  }

  private *allSuites(): Iterable<vscode.TestItem> {
    for (const [, item] of this.controller.items) yield item;
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
