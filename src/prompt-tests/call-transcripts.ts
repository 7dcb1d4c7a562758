/**
 * A simulated call's transcript after a run, as a read-only document opened
 * from the failed result (contract: "Simulated callers"), and Label This
 * Call… on it: the call, with a verdict people give it and a criterion's
 * rubric, appended to that criterion's judge file.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { plain, plainText } from '../core/plain-text';
import { callTranscriptText, labellableCall, type LabellableCall } from '../core/prompt-tests/call-transcript';
import { JUDGE_SUFFIX, parseJudgeFile } from '../core/prompt-tests/judge-file';
import type { CaseResult } from '../core/prompt-tests/types';
import type { JudgedCriterion } from '../core/prompt-tests/simulated-case';
import type { TestCase } from '../core/prompt-tests/suite';
import type { CaseRunDocuments } from '../shared/case-runs';
import { ReadOnlyDocuments } from '../shared/read-only-documents';
import { suiteText } from '../shared/suite-target';
import { labelCall } from './label-call';

export const CALL_SCHEME = 'convai-call';

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

export class CallTranscripts implements vscode.Disposable, CaseRunDocuments {
  private readonly documents = new ReadOnlyDocuments(CALL_SCHEME);
  private readonly calls = new Map<string, LabellableCall>();

  /** Holds the shown call of a simulated case's result as its document; returns the document's URI. */
  set(suite: vscode.Uri, testCase: TestCase, result: CaseResult): vscode.Uri | undefined {
    const call = labellableCall(testCase, result);
    if (!call) return undefined;
    const uri = callTranscriptUri(suite, testCase.name);
    this.calls.set(uri.toString(), call);
    this.documents.set(uri, callTranscriptText(testCase, result, path.basename(suite.path)));
    return uri;
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
    const call = labellableCall(testCase, result);
    const uri = callTranscriptUri(suite, testCase.name, column, call ? 'Call' : 'Run');
    if (call) this.calls.set(uri.toString(), call);
    this.documents.set(uri, text);
    await this.open(uri);
    return uri;
  }

  async open(uri: vscode.Uri): Promise<void> {
    if (uri.scheme !== CALL_SCHEME)
      throw new Error(`${uri.toString()} is not a call transcript; open one from a failed simulated case's result.`);
    await vscode.window.showTextDocument(uri, { preview: true });
  }

  /** Label This Call… on a transcript document: which criterion, which verdict, which file; undefined when the user stops. */
  async label(uri: vscode.Uri): Promise<{ file: string; labels: number } | undefined> {
    const call = this.calls.get(uri.toString());
    if (!call)
      throw new Error(
        'This call is no longer held (the window was reloaded, or many calls were shown since); run its case again, then label the call.',
      );
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
  }
}
