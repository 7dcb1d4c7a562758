/**
 * A case's run as a read-only document, which the prompt tests keep (their call transcripts, src/prompt-tests/) and
 * the variant lab opens from a cell: another feature sees it through this, never its folder.
 */
import type * as vscode from 'vscode';
import type { TestCase } from '../core/prompt-tests/suite';
import type { CaseResult } from '../core/prompt-tests/types';

export interface CaseRunDocuments {
  /**
   * Opens the run of `testCase` on `column` (the base, or a variant's name) as `text` (core/prompt-tests/run-text.ts:
   * a simulated call's transcript, else its first failing run); resolves with the document's URI.
   */
  openRun(suite: vscode.Uri, testCase: TestCase, result: CaseResult, text: string, column: string): Promise<vscode.Uri>;
}
