import * as path from 'node:path';
import * as vscode from 'vscode';
import { failurePlace } from '../core/prompt-tests/places';
import { errorsLine, regressionLine, tallyMessages, verdictLine, type CaseFailure, type CaseResult } from '../core/prompt-tests/run';
import { parseSuite, SUITE_SUFFIX, type TestCase, type Turn } from '../core/prompt-tests/suite';
import { runSuiteFile, suiteText, type SuiteDeps, type SuiteRun } from './execution';
import type { GreenRuns } from './green-runs';
import { messageOf, plural } from '../core/text';
import { textRange } from '../ui/text-range';

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
  return result.repeat > 1 || result.verdict === 'flaky' ? verdictLine(result) : undefined;
}

/** A conversation's turn in the Testing view: the text it sends, cut to a line. */
function turnLabel(turn: Turn, index: number): string {
  const text = turn.prompt_text.length > 40 ? `${turn.prompt_text.slice(0, 39)}…` : turn.prompt_text;
  return `turn ${index + 1}: ${JSON.stringify(text)}`;
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
function report(run: vscode.TestRun, placing: Placing, item: vscode.TestItem, testCase: TestCase, result: CaseResult, unsaved: string | undefined): void {
  const where = locationOf(placing.uri, item);
  const verdict = verdictOf(result);
  if (result.skipped) {
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
    ];
    if (result.errors > 0 && result.failures.length === 0 && !result.skipped) run.errored(item, messages, result.durationMs);
    else run.failed(item, messages, result.durationMs);
  }
  // A passed test takes no message in VS Code's API: its verdict goes to the output, attached to it.
  if (result.passed && verdict) run.appendOutput(`${testCase.name}: ${verdict}\r\n`, where, item);
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
  private readonly disposables: vscode.Disposable[] = [this.controller, this.problems];

  constructor(private readonly deps: SuiteDeps, private readonly greenRuns: GreenRuns) {
    this.controller.resolveHandler = async (item) => {
      if (!item) await this.discover();
    };
    this.controller.refreshHandler = () => this.discover();
    this.controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, async (request, token) => {
      await this.run(request, token);
    }, true);
    this.controller.createRunProfile('Run against Last Green Run', vscode.TestRunProfileKind.Run, async (request, token) => {
      await this.run(request, token, true);
    }, false);
    const watcher = vscode.workspace.createFileSystemWatcher(`**/*${SUITE_SUFFIX}`);
    this.disposables.push(
      watcher,
      watcher.onDidCreate((uri) => void this.update(uri)),
      watcher.onDidChange((uri) => void this.update(uri)),
      watcher.onDidDelete((uri) => {
        this.controller.items.delete(uri.toString());
        this.problems.delete(uri);
      }),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document.uri.path.endsWith(SUITE_SUFFIX)) void this.update(event.document.uri);
      }),
    );
  }

  async discover(): Promise<void> {
    for (const uri of await vscode.workspace.findFiles(`**/*${SUITE_SUFFIX}`, '**/node_modules/**')) await this.update(uri);
  }

  /** The suite's item and its cases, as the file reads now. */
  async update(uri: vscode.Uri): Promise<vscode.TestItem | undefined> {
    let text: string;
    try {
      text = await suiteText(uri);
    } catch {
      this.controller.items.delete(uri.toString());
      return undefined;
    }
    const item = this.controller.items.get(uri.toString()) ?? this.controller.createTestItem(uri.toString(), path.basename(uri.path), uri);
    this.controller.items.add(item);
    const { suite, problems } = parseSuite(text);
    this.problems.set(uri, problems.map((p) => Object.assign(
      new vscode.Diagnostic(textRange(text, p.range.offset, Math.max(p.range.length, 1)), p.message, vscode.DiagnosticSeverity.Error),
      { source: 'ConvAI' },
    )));
    item.error = problems.length > 0 ? `${plural(problems.length, 'problem')}: ${problems.map((p) => p.message).join('; ')}` : undefined;
    item.range = new vscode.Range(0, 0, 0, 0);
    item.children.replace((suite?.cases ?? []).map((testCase) => {
      const child = this.controller.createTestItem(`${uri.toString()}#${testCase.name}`, testCase.name, uri);
      child.range = textRange(text, testCase.range.offset, testCase.range.length);
      child.children.replace((testCase.turns ?? []).map((turn, index) => {
        const turnItem = this.controller.createTestItem(`${child.id}#turn ${index + 1}`, turnLabel(turn, index), uri);
        turnItem.range = textRange(text, turn.range.offset, turn.range.length);
        return turnItem;
      }));
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
    const bySuite = new Map<string, { suite: vscode.TestItem; cases: vscode.TestItem[] }>();
    const requested = request.include ?? [...this.allSuites()];
    for (const item of requested) {
      // A turn runs its whole conversation: a later turn cannot be sent without the answers before it.
      const testCase = item.parent?.parent ? item.parent : item.parent ? item : undefined;
      const suite = testCase?.parent ?? item;
      const entry = bySuite.get(suite.id) ?? { suite, cases: [] };
      const cases = testCase ? [testCase] : childrenOf(item);
      entry.cases.push(...cases.filter((c) => !request.exclude?.includes(c) && !entry.cases.includes(c)));
      bySuite.set(suite.id, entry);
    }
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
              if (item) report(run, placing, item, c, result, unsaved);
            },
          });
          run.appendOutput(`${path.basename(uri.path)}: ${done.result.passed} passed, ${done.result.failed} failed, ${done.result.skipped} skipped. ${note}\r\n`);
          results.set(uri.toString(), done);
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

  private *allSuites(): Iterable<vscode.TestItem> {
    for (const [, item] of this.controller.items) yield item;
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }
}
