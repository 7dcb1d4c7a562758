/**
 * Judge files (contract: "Judge calibration") in the Testing view, beside the
 * suites: each `.judgetest.json` file with its labels as items; a run marks
 * each label agreed or not (with the judge's reasoning) and tells the file's
 * figures, which alone decide the file.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { calibrationLine } from '../core/prompt-tests/calibration';
import { JUDGE_SUFFIX, parseJudgeFile } from '../core/prompt-tests/judge-file';
import type { CalibrationResult } from '../core/prompt-tests/judge-run';
import { suiteEngine } from './suite-engine';
import { caseMessages } from '../core/prompt-tests/case-messages';
import { TargetError, whereSuiteRuns } from '../core/prompt-tests/target';
import { lineColumnText, messageOf, plural } from '../core/text';
import type { Connections } from '../connections/registry';
import { testConcurrency, testTarget } from '../shared/settings';
import { textRange } from '../ui/text-range';
import { suiteText } from '../shared/suite-target';
import { discoverTestFiles, fileItem, watchTestFiles } from './test-files';
import { DisposableStore } from '../core/disposable-store';

export class JudgeTestController implements vscode.Disposable {
  readonly controller = vscode.tests.createTestController('convai.judgeTests', 'ConvAI Judge Calibration');
  private readonly disposables = new DisposableStore();

  constructor(private readonly connections: Connections) {
    this.controller.resolveHandler = async (item) => {
      if (!item) await this.discover();
    };
    this.controller.refreshHandler = () => this.discover();
    this.controller.createRunProfile(
      'Run',
      vscode.TestRunProfileKind.Run,
      async (request, token) => {
        for (const item of request.include ?? [...this.controller.items].map(([, i]) => i))
          await this.run(item.parent ?? item, token);
      },
      true,
    );
    this.disposables.push(
      this.controller,
      ...watchTestFiles(
        JUDGE_SUFFIX,
        (uri) => this.update(uri),
        (uri) => this.controller.items.delete(uri.toString()),
      ),
    );
  }

  async discover(): Promise<void> {
    await discoverTestFiles(JUDGE_SUFFIX, (uri) => this.update(uri));
  }

  /** The file's item and its labels, as the file reads now. */
  async update(uri: vscode.Uri): Promise<vscode.TestItem | undefined> {
    const read = await fileItem(this.controller, uri);
    if (!read) return undefined;
    const { item, text } = read;
    const { file, problems } = parseJudgeFile(text);
    item.error =
      problems.length > 0
        ? `${plural(problems.length, 'problem')}: ${problems.map((p) => `${lineColumnText(text, p.range.offset)} ${p.message}`).join('; ')}`
        : undefined;
    item.children.replace(
      (file?.labels ?? []).map((label) => {
        const child = this.controller.createTestItem(`${uri.toString()}#${label.name}`, label.name, uri);
        child.range = textRange(text, label.range.offset, label.range.length);
        return child;
      }),
    );
    return item;
  }

  /** Runs a judge file's labels; its figures go to the run's output, and its item fails when they do not pass. */
  async run(item: vscode.TestItem, token: vscode.CancellationToken): Promise<CalibrationResult> {
    const uri = item.uri as vscode.Uri;
    const run = this.controller.createTestRun(new vscode.TestRunRequest([item]));
    const stop = new AbortController();
    token.onCancellationRequested(() => stop.abort());
    run.token.onCancellationRequested(() => stop.abort());
    const name = path.basename(uri.path);
    const labels = new Map([...item.children].map(([, child]) => [child.label, child]));
    try {
      const text = await suiteText(uri);
      const { file, problems } = parseJudgeFile(text);
      if (!file)
        throw new Error(
          `${name} cannot run: ${problems.map((p) => `${lineColumnText(text, p.range.offset)} ${p.message}`).join('; ')}.`,
        );
      const { connection, tenantId } = whereSuiteRuns(file, {}, testTarget());
      if (connection === undefined || tenantId === undefined)
        throw new Error(
          `${name} names no ${connection === undefined ? 'connection' : 'tenant'} to run against: give the file a "target" ({ "connection", "tenantId" }) or set convai.testTarget.`,
        );
      if (!this.connections.get(connection))
        throw new Error(
          `${name} runs against the connection "${connection}", which does not exist: add it with "ConvAI: Add Connection" or change the file's target.`,
        );
      const client = this.connections.client(connection);
      const engine = suiteEngine();
      const judge = await engine
        .prepareJudge(client, file, tenantId, `connection "${connection}"`, stop.signal)
        .catch((error: unknown) => {
          throw error instanceof TargetError
            ? new Error(`${name}: ${error.message.replace(/\.$/, '')}; correct the file's "judge" or its target.`)
            : error;
        });
      for (const label of labels.values()) run.enqueued(label);
      const result = await engine.runJudgeFile(file, JSON.stringify(judge.name), engine.judgeAsker(client, judge), {
        concurrency: testConcurrency(),
        signal: stop.signal,
        onLabelStarted: (label) => {
          const child = labels.get(label.name);
          if (child) run.started(child);
        },
        onLabelFinished: (label, outcome) => {
          const child = labels.get(label.name);
          if (!child) return;
          const where = new vscode.Location(uri, child.range ?? new vscode.Range(0, 0, 0, 0));
          const messages = caseMessages(outcome).map((m) =>
            Object.assign(new vscode.TestMessage(m), { location: where }),
          );
          if (outcome.skipped) run.skipped(child);
          else if (outcome.passed) run.passed(child, outcome.durationMs);
          else if (outcome.errors > 0) run.errored(child, messages, outcome.durationMs);
          else run.failed(child, messages, outcome.durationMs);
        },
      });
      run.appendOutput(
        `${name}: judge "${judge.name}": ${calibrationLine(result.calibration, result.minKappa)}: ${result.passed ? 'passed' : 'failed'}.${result.messages.map((m) => ` ${m}.`).join('')}\r\n`,
      );
      return result;
    } catch (error) {
      const message = new vscode.TestMessage(messageOf(error));
      for (const label of labels.values()) run.errored(label, message);
      if (labels.size === 0) run.errored(item, message);
      throw error;
    } finally {
      run.end();
    }
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
