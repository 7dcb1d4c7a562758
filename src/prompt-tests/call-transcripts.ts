/**
 * A simulated call's transcript after a run, as a read-only document opened
 * from the case's result (contract: "Simulated callers"), failed or passed,
 * and Label This Call… on it: the call, with a verdict people give it and a
 * criterion's rubric, appended to that criterion's judge file.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { plain, plainText } from '../core/plain-text';
import type { LabellableCall } from '../core/prompt-tests/call-transcript';
import { JUDGE_SUFFIX, parseJudgeFile } from '../core/prompt-tests/judge-file';
import type { CaseResult } from '../core/prompt-tests/types';
import type { JudgedCriterion } from '../core/prompt-tests/simulated-case';
import type { TestCase } from '../core/prompt-tests/suite';
import type { CaseRunDocuments } from '../shared/case-runs';
import { ReadOnlyDocuments } from '../shared/read-only-documents';
import { suiteText } from '../shared/suite-target';
import { labelCall } from './label-call';
import { childrenOf } from './test-results';
import { suiteEngine } from './suite-engine';

export const CALL_SCHEME = 'convai-call';
/** The Testing view's items (a simulated case and its criteria) whose call is held: their menus offer Open Transcript. */
const HELD_CALL_ITEMS = 'convai.heldCallTests';

/** The judge files of the workspace whose judge is `judge` (a name or id, compared as written). */
async function judgeFilesOf(judge: string | number): Promise<vscode.Uri[]> {
  const found: vscode.Uri[] = [];
  for (const uri of await vscode.workspace.findFiles(`**/*${JUDGE_SUFFIX}`, '**/node_modules/**')) {
    const { file } = parseJudgeFile(await suiteText(uri));
    if (file && String(file.judge) === String(judge)) found.push(uri);
  }
  return found;
}

/** Where the criterion's call is labelled: its judge's one file, the one picked of several, or a new one the user places. */
async function pickJudgeFile(
  criterion: JudgedCriterion,
): Promise<{ file: vscode.Uri; judge?: string | number } | undefined> {
  const files = await judgeFilesOf(criterion.judge);
  if (files.length === 1) return { file: files[0] as vscode.Uri };
  if (files.length > 1) {
    const picked = await vscode.window.showQuickPick(
      files.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })),
      { placeHolder: `Judge file of ${JSON.stringify(criterion.judge)} to add the call to` },
    );
    return picked && { file: picked.uri };
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = `${String(criterion.judge)
    .replace(/[^\w.-]+/g, '-')
    .toLowerCase()}${JUDGE_SUFFIX}`;
  const file = await vscode.window.showSaveDialog({
    title: `No judge file names ${JSON.stringify(criterion.judge)} yet: create one`,
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
    filters: { 'Judge files': ['json'] },
  });
  if (!file) return undefined;
  if (!file.path.endsWith(JUDGE_SUFFIX))
    throw new Error(
      `A judge file's name must end in ${JUDGE_SUFFIX} (got ${path.basename(file.path)}); choose such a name.`,
    );
  return { file, judge: criterion.judge };
}

/**
 * The document of a case's call: one per case (and per version of the prompt in a variant run, `column`), so a later
 * run shows its call in the same, open, editor. The URI travels through a command link, which decodes it once; a
 * hash as its query, and a path without `?`, `#` or `%`, come back the same.
 */
export function callTranscriptUri(suite: vscode.Uri, caseName: string, column?: string, noun = 'Call'): vscode.Uri {
  const key = createHash('sha256')
    .update(`${suite.toString()}\n${caseName}${column === undefined ? '' : `\n${column}`}`)
    .digest('hex')
    .slice(0, 16);
  const on = column === undefined ? '' : ` on ${column}`;
  return vscode.Uri.from({
    scheme: CALL_SCHEME,
    path: `/${noun} of ${`${caseName}${on}`.replace(/[\\/?#%]/g, '-')}.txt`,
    query: key,
  });
}

/**
 * The transcript a command names: its URI (or its text, from a message's link), or an item of the Testing view (a
 * simulated case, or one of its criteria, which names its case's call): a menu of Test Results passes `{ test, message }`
 * for a message, and the item for a result's row.
 */
export function transcriptUriOf(arg: unknown): vscode.Uri {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'string') return vscode.Uri.parse(arg);
  const item = (arg as { test?: vscode.TestItem } | undefined)?.test ?? (arg as vscode.TestItem | undefined);
  // A suite's item has no parent, its cases have the suite, and a case's criteria the case.
  const testCase = item?.parent?.parent ? item.parent : item?.parent ? item : undefined;
  if (!testCase?.uri) throw new Error("Open Transcript needs a simulated case's result.");
  return callTranscriptUri(testCase.uri, testCase.label);
}

export class CallTranscripts implements vscode.Disposable, CaseRunDocuments {
  private readonly documents = new ReadOnlyDocuments(CALL_SCHEME);
  private readonly calls = new Map<string, LabellableCall>();
  private readonly heldItems = new Set<string>();

  /**
   * Holds the shown call of a simulated case's result, failed or passed, as its document; returns the document's URI.
   * The case's item and its criteria then offer the transcript in their menus.
   */
  set(suite: vscode.Uri, testCase: TestCase, result: CaseResult, item: vscode.TestItem): vscode.Uri | undefined {
    const engine = suiteEngine();
    const call = engine.labellableCall(testCase, result);
    if (!call) return undefined;
    const uri = callTranscriptUri(suite, testCase.name);
    this.calls.set(uri.toString(), call);
    this.documents.set(uri, engine.callTranscriptText(testCase, result, path.basename(suite.path)));
    for (const held of [item, ...childrenOf(item)]) this.heldItems.add(held.id);
    void vscode.commands.executeCommand('setContext', HELD_CALL_ITEMS, [...this.heldItems]);
    return uri;
  }

  /** The call a transcript shows, while it is held. */
  private held(uri: vscode.Uri): LabellableCall {
    const call = this.calls.get(uri.toString());
    if (!call)
      throw new Error(
        'This call is no longer held (the window was reloaded, or many calls were shown since); run its case again.',
      );
    return call;
  }

  /**
   * Opens a case's run in a column of a variant run (contract: "Variant lab"), `text` as the variant lab wrote it: a
   * simulated call's transcript is held as one, for Label This Call… as on the Testing view's.
   */
  async openRun(
    suite: vscode.Uri,
    testCase: TestCase,
    result: CaseResult,
    text: string,
    column: string,
  ): Promise<vscode.Uri> {
    const call = suiteEngine().labellableCall(testCase, result);
    const uri = callTranscriptUri(suite, testCase.name, column, call ? 'Call' : 'Run');
    if (call) this.calls.set(uri.toString(), call);
    this.documents.set(uri, text);
    // A run that is no call holds nothing to label; it is shown as it is.
    await vscode.window.showTextDocument(uri, { preview: true });
    return uri;
  }

  async open(uri: vscode.Uri): Promise<void> {
    if (uri.scheme !== CALL_SCHEME)
      throw new Error(`${uri.toString()} is not a call transcript; open one from a simulated case's result.`);
    this.held(uri);
    await vscode.window.showTextDocument(uri, { preview: true });
  }

  /** Label This Call… on a transcript document: which criterion, which verdict, which file; undefined when the user stops. */
  async label(uri: vscode.Uri): Promise<{ file: string; labels: number } | undefined> {
    const call = this.held(uri);
    if (call.judged.length === 0)
      throw new Error('This call has no criterion a judge decides, so there is no judge to calibrate with it.');
    const criterion =
      call.judged.length === 1
        ? (call.judged[0] as JudgedCriterion)
        : (
            await vscode.window.showQuickPick(
              call.judged.map((c) => ({
                label: plainText(c.name),
                description: plain`judged by ${JSON.stringify(c.judge)}`,
                criterion: c,
              })),
              { placeHolder: 'Criterion to label the call for' },
            )
          )?.criterion;
    if (!criterion) return undefined;
    const verdict = await vscode.window.showQuickPick(
      [
        { label: 'pass', detail: plain`The call meets the rubric: ${criterion.rubric}` },
        { label: 'fail', detail: 'The call does not meet the rubric.' },
      ],
      { placeHolder: plain`Your verdict on "${criterion.name}"` },
    );
    if (!verdict) return undefined;
    const where = await pickJudgeFile(criterion);
    if (!where) return undefined;
    const done = await labelCall({
      file: where.file,
      rubric: criterion.rubric,
      transcript: call.transcript,
      expected: verdict.label === 'pass' ? 'pass' : 'fail',
      ...(where.judge !== undefined ? { judge: where.judge } : {}),
    });
    void vscode.window.showInformationMessage(
      `Labelled the call "${verdict.label}" in ${vscode.workspace.asRelativePath(where.file)} (${done.labels} labels).`,
    );
    return done;
  }

  dispose(): void {
    this.documents.dispose();
    this.calls.clear();
    this.heldItems.clear();
  }
}
