import * as path from 'node:path';
import * as vscode from 'vscode';
import { requestBound } from '../core/prompt-tests/cost';
import { parseSuite } from '../core/prompt-tests/suite-parser';
import { SUITE_SUFFIX } from '../core/prompt-tests/suite';
import { SCHEME } from '../core/uri';
import { confirmRequestsAbove } from '../shared/settings';
import type { CallTranscripts } from './call-transcripts';
import type { SuiteRuns } from '../shared/suite-runs';
import { runSuiteFile, type FolderTrialRequest, type SuiteDeps, type SuiteRun } from './execution';
import { suiteText } from '../shared/suite-target';
import { pulledFolder } from '../shared/pulled-folder';
import { discoverTestFiles, fileItem, watchTestFiles } from './test-files';
import type { GreenRuns } from './green-runs';
import type { SaveHold } from '../documents/save-hold';
import { messageOf, plural } from '../core/text';
import { textRange } from '../ui/text-range';
import { childrenOf, report, turnLabel, type Placing } from './test-results';
import { DisposableStore } from '../core/disposable-store';
import { trialEngine } from '../trials/load';
import { plainText } from '../core/plain-text';
import type { ListingCache } from '../core/listing-cache';
import { SuiteNameCheck, suiteDiagnostics } from './suite-names';

export class PromptTestController implements vscode.Disposable {
  readonly controller = vscode.tests.createTestController('convai.promptTests', 'ConvAI Prompt Tests');
  /** A suite's problems at their places: what its schema cannot say (an unknown assertion, a bad pattern or schema). */
  private readonly problems = vscode.languages.createDiagnosticCollection('convai-prompt-tests');
  private readonly disposables = new DisposableStore();
  private readonly names: SuiteNameCheck;

  constructor(
    private readonly deps: SuiteDeps,
    private readonly greenRuns: GreenRuns,
    private readonly transcripts: CallTranscripts,
    private readonly suiteRuns: SuiteRuns,
    private readonly saveHold: SaveHold,
    listings: ListingCache,
  ) {
    this.names = new SuiteNameCheck(listings);
    this.controller.resolveHandler = async (item) => {
      if (!item) await this.discover();
    };
    this.controller.refreshHandler = () => this.discover();
    // The Testing view's runs ask before a costly one; convai.runPromptTests, a program's, asks nothing.
    this.controller.createRunProfile(
      'Run',
      vscode.TestRunProfileKind.Run,
      // The hold is taken before the first await: VS Code saves the dirty editors (testing.saveBeforeTest) right
      // after it asks for the run.
      (request, token) => this.held(request, () => this.run(request, token)),
      true,
    );
    this.controller.createRunProfile(
      'Run against Last Green Run',
      vscode.TestRunProfileKind.Run,
      (request, token) => this.held(request, () => this.run(request, token, { againstLastGreen: true })),
      false,
    );
    // The folder is asked for first: the one holding the active editor's file, the workspace's only one, or a pick.
    this.controller.createRunProfile(
      'Run as Trial of Folder',
      vscode.TestRunProfileKind.Run,
      (request, token) =>
        this.held(request, async () => {
          // No folder to pick is said, not left as a run that silently never starts.
          const folder = await pulledFolder(undefined).catch((error: unknown) => {
            void vscode.window.showErrorMessage(plainText(messageOf(error)));
            return undefined;
          });
          if (folder) await this.run(request, token, { folderTrial: { folder, compare: false } });
        }),
      false,
    );
    this.disposables.push(
      this.controller,
      this.problems,
      ...watchTestFiles(
        SUITE_SUFFIX,
        (uri) => this.update(uri),
        (uri) => {
          this.controller.items.delete(uri.toString());
          this.problems.delete(uri);
          this.names.forget(uri);
        },
      ),
    );
  }

  /**
   * A Testing-view run, asked before a costly one, holding every save of a `convai:` document: the saves VS Code makes
   * as it starts the run (testing.saveBeforeTest) come just after this is called, so the hold is taken at once.
   */
  private held(request: vscode.TestRunRequest, run: () => Promise<unknown>): Promise<void> {
    const listening = trialEngine().owe(this.saveHold, request, SCHEME);
    if (listening) this.disposables.push(listening);
    return this.saveHold.during(async () => {
      if (await this.affordable(request)) await run();
    });
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
    const diagnostics = suiteDiagnostics(text, problems);
    this.problems.set(uri, diagnostics);
    void this.names.check(uri, text, suite).then((named) => {
      if (named) this.problems.set(uri, [...diagnostics, ...named]);
    });
    item.error =
      problems.length > 0
        ? `${plural(problems.length, 'problem')}: ${problems.map((p) => p.message).join('; ')}`
        : undefined;
    item.children.replace(
      (suite?.cases ?? []).map((testCase) => {
        const child = this.controller.createTestItem(`${uri.toString()}#${testCase.name}`, testCase.name, uri);
        child.range = textRange(text, testCase.range.offset, testCase.range.length);
        child.children.replace([
          ...(testCase.turns ?? []).map((turn, index) => {
            const turnItem = this.controller.createTestItem(
              `${child.id}#turn ${index + 1}`,
              turnLabel(turn, index),
              uri,
            );
            turnItem.range = textRange(text, turn.range.offset, turn.range.length);
            return turnItem;
          }),
          ...(testCase.criteria ?? []).map((criterion) => {
            const criterionItem = this.controller.createTestItem(
              `${child.id}#criterion ${criterion.name}`,
              criterion.name,
              uri,
            );
            criterionItem.range = textRange(text, criterion.range.offset, criterion.range.length);
            return criterionItem;
          }),
        ]);
        return child;
      }),
    );
    return item;
  }

  /**
   * Runs the requested suites (or cases); returns each suite's run (or why it could not run), for the command's answer.
   * Against the last green run, a case whose passes dropped significantly since fails as regressed.
   */
  async run(
    request: vscode.TestRunRequest,
    token: vscode.CancellationToken,
    { againstLastGreen = false, folderTrial }: { againstLastGreen?: boolean; folderTrial?: FolderTrialRequest } = {},
  ): Promise<Map<string, SuiteRun | Error>> {
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
          if (baseline)
            run.appendOutput(
              `${path.basename(uri.path)}: ${baseline.size > 0 ? `compared with its last green run (${plural(baseline.size, 'case')})` : 'no green run yet, so nothing to compare with'}.\r\n`,
            );
          const done = await runSuiteFile(this.deps, uri, {
            baseline,
            folderTrial,
            signal: controller.signal,
            only: new Set(byName.keys()),
            onReady: (ready) => {
              placing = { uri, text: ready.text };
              note = ready.note;
              // Whichever version ran, a failure says it when the editors hold edits.
              unsaved = ready.unsavedChanges || ready.trial ? ready.note : undefined;
            },
            onCaseStarted: (c) => {
              const item = byName.get(c.name);
              if (item) for (const started of [item, ...childrenOf(item)]) run.started(started);
            },
            onCaseFinished: (c, result) => {
              const item = byName.get(c.name);
              if (item) report(run, placing, item, c, result, unsaved, this.transcripts.set(uri, c, result, item));
            },
          });
          run.appendOutput(
            `${path.basename(uri.path)}: ${done.result.passed} passed, ${done.result.failed} failed, ${done.result.skipped} skipped. ${note}\r\n`,
          );
          const left = done.trial?.left;
          if (left) {
            const text = trialEngine().leftText(left, done.target.tenantId);
            run.appendOutput(`${path.basename(uri.path)}: ${text}\r\n`);
            void vscode.window.showErrorMessage(plainText(text));
          }
          results.set(uri.toString(), done);
          this.suiteRuns.record(uri.toString(), done);
          // A green run is one of the live prompts, the baseline of the next run against it.
          if (done.version !== 'trial') await this.greenRuns.remember(uri, done.result);
        } catch (error) {
          results.set(uri.toString(), error instanceof Error ? error : new Error(String(error)));
          const message = new vscode.TestMessage(messageOf(error));
          for (const testCase of cases)
            for (const item of [testCase, ...childrenOf(testCase)]) run.errored(item, message);
          if (cases.length === 0) run.errored(suite, message);
        }
      }
    } finally {
      run.end();
    }
    return results;
  }

  /** The requested cases, by suite. */
  private casesBySuite(
    request: vscode.TestRunRequest,
  ): Map<string, { suite: vscode.TestItem; cases: vscode.TestItem[] }> {
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
      const read = await suiteText(suite.uri as vscode.Uri).then(
        (text) => parseSuite(text).suite,
        () => undefined,
      );
      if (read) bound += requestBound(read, new Set(cases.map((c) => c.label)));
    }
    const limit = confirmRequestsAbove();
    if (bound <= limit) return true;
    const answer = await vscode.window.showWarningMessage(
      `This run can send up to ${bound} requests, more than ${limit} (convai.confirmRequestsAbove). Run it?`,
      {
        modal: true,
        detail:
          'Simulated calls send a caller and an assistant request per turn, and each judged criterion its judgements, for every repeat.',
      },
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
