import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS, registerCommand } from '../commands';
import { publicResult } from '../core/prompt-tests/report';
import { trialEngine } from '../trials/load';
import { JUDGE_SUFFIX } from '../core/prompt-tests/judge-file';
import { SUITE_SUFFIX } from '../core/prompt-tests/suite';
import type { Connections } from '../connections/registry';
import type { SaveHold } from '../documents/save-hold';
import type { Drafts } from '../documents/drafts';
import type { Log } from '../log';
import type { ListingCache } from '../core/listing-cache';
import type { HistoryStore } from '../shared/history-store';
import { SuiteRuns } from '../shared/suite-runs';
import type { CaseRunDocuments } from '../shared/case-runs';
import { registerAuthoring } from './authoring';
import { CALL_SCHEME, CallTranscripts, transcriptUriOf } from './call-transcripts';
import { PromptTestController } from './controller';
import type { FolderTrialRequest } from './execution';
import { namedTestFile, SuiteError } from '../shared/suite-target';
import { comparedReports } from '../core/trials/trial-compare';
import { GreenRuns } from './green-runs';
import { JudgeTestController } from './judge-controller';
import { labelCall, labelCallArgs } from './label-call';

/** The suite a command names: a URI (or its text), else the active editor's suite. */
function suiteUri(arg: unknown): vscode.Uri {
  return namedTestFile(
    arg,
    [SUITE_SUFFIX, JUDGE_SUFFIX],
    `uri must name a prompt test suite, a file whose name ends in ${SUITE_SUFFIX}, or a judge file (${JUDGE_SUFFIX}).`,
  );
}

/** A judge file run through its Testing view item: `{ passed, failed, cases, judge: { agreement, tpr, tnr, kappa, consistency } }`. */
async function runJudgeCommand(judges: JudgeTestController, uri: vscode.Uri): Promise<unknown> {
  const item = await judges.update(uri);
  if (!item) throw new Error(`${uri.toString()} cannot be read.`);
  if (item.error !== undefined)
    throw new Error(
      `${vscode.workspace.asRelativePath(uri)} cannot run: ${typeof item.error === 'string' ? item.error : item.error.value}`,
    );
  const cancel = new vscode.CancellationTokenSource();
  try {
    const { result, calibration, passed, messages } = await judges.run(item, cancel.token);
    const { agreement, tpr, tnr, kappa, consistency } = calibration;
    return { ...publicResult(result), judge: { agreement, tpr, tnr, kappa, consistency, passed, messages } };
  } finally {
    cancel.dispose();
  }
}

/** `trial` of convai.runPromptTests: `{ folder, compare? }`, the folder an absolute path. */
function trialRequest(trial: unknown): FolderTrialRequest | undefined {
  if (trial === undefined) return undefined;
  const { folder, compare } = (typeof trial === 'object' && trial !== null ? trial : {}) as Record<string, unknown>;
  if (typeof folder !== 'string' || !path.isAbsolute(folder) || (compare !== undefined && typeof compare !== 'boolean'))
    throw new Error(
      `trial must be { folder, compare? }: the absolute path of a pulled tenant folder, and whether live runs beside it (got ${JSON.stringify(trial)}).`,
    );
  return { folder, compare: compare === true };
}

/**
 * Prompt test suites (contract: "Prompt test suites") in VS Code's Testing
 * view; `convai.runPromptTests` runs one suite through the same controller.
 */
export function register(
  context: vscode.ExtensionContext,
  {
    log,
    connections,
    history,
    drafts,
    saveHold,
    listings,
  }: {
    log: Log;
    connections: Connections;
    history: HistoryStore;
    drafts: Drafts;
    saveHold: SaveHold;
    listings: ListingCache;
  },
): { suiteRuns: SuiteRuns; caseRuns: CaseRunDocuments } {
  const transcripts = new CallTranscripts();
  const suiteRuns = new SuiteRuns();
  const tests = new PromptTestController(
    { connections, history, drafts },
    new GreenRuns(context.workspaceState),
    transcripts,
    suiteRuns,
    saveHold,
    listings,
  );
  const judges = new JudgeTestController(connections);
  /** Runs a suite (or a judge file) in the Testing view; resolves with its result as the contract gives it. */
  async function runSuiteFile(uri: vscode.Uri, baseline: unknown, trial?: unknown) {
    if (uri.path.endsWith(JUDGE_SUFFIX)) return runJudgeCommand(judges, uri);
    if (baseline !== undefined && baseline !== 'lastGreenRun')
      throw new Error(
        `baseline must be "lastGreenRun" (compare with the suite's last green run) or left out (got ${JSON.stringify(baseline)}).`,
      );
    const folderTrial = trialRequest(trial);
    const item = await tests.update(uri);
    if (!item) throw new Error(`${uri.toString()} cannot be read.`);
    if (item.error !== undefined)
      throw new SuiteError(
        `${vscode.workspace.asRelativePath(uri)} cannot run: ${typeof item.error === 'string' ? item.error : item.error.value}`,
      );
    const cancel = new vscode.CancellationTokenSource();
    try {
      const runs = await tests.run(new vscode.TestRunRequest([item]), cancel.token, {
        againstLastGreen: baseline === 'lastGreenRun',
        folderTrial,
      });
      const done = runs.get(uri.toString());
      if (!done) throw new Error(`${vscode.workspace.asRelativePath(uri)} did not run; see the Test Results.`);
      if (done instanceof Error) throw done;
      const result = publicResult(done.result);
      return {
        ...result,
        ...(folderTrial?.compare ? { cases: comparedReports(done.result, done.live) } : {}),
        version: done.version,
        ...(done.trial ? { trial: trialEngine().publicTrial(done.trial) } : {}),
      };
    } finally {
      cancel.dispose();
    }
  }
  context.subscriptions.push(
    suiteRuns,
    transcripts,
    tests,
    judges,
    registerCommand(log, COMMANDS.labelCall, {
      programmatic: async (args) => labelCall(labelCallArgs(args)),
      interactive: async (arg) => {
        // From a transcript's editor title (its URI), or the palette with a transcript open: ask.
        const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
        if (uri?.scheme !== CALL_SCHEME)
          throw new Error(
            "Label This Call works on a call's transcript: open one from a simulated case's result in Test Results; a program passes { file, rubric, transcript, expected, name?, judge? }.",
          );
        return transcripts.label(uri);
      },
    }),
    // From a failed result's link (the URI), a message's or a result's menu in Test Results, or the Testing view's.
    registerCommand(log, COMMANDS.openCallTranscript, (arg) => transcripts.open(transcriptUriOf(arg))),
    ...registerAuthoring(log, connections, history),
    registerCommand(log, COMMANDS.runPromptTests, {
      // The hold from the command's first moment: a save asked for after it must not reach the service.
      programmatic: (args) => saveHold.during(() => runSuiteFile(suiteUri(args.uri), args.baseline, args.trial)),
      interactive: (arg) => saveHold.during(() => runSuiteFile(suiteUri(arg), undefined)),
    }),
  );
  return { suiteRuns, caseRuns: transcripts };
}
