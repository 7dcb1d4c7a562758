import * as vscode from 'vscode';
import { countReports } from '../core/progress-counts';
import { plainText } from '../core/plain-text';

export type Progress = vscode.Progress<{ message?: string; increment?: number }>;

/**
 * Work that reads or writes a whole folder, shown with a progress notification whose Cancel aborts its requests. Its
 * title names a tenant or a folder, shown as text (a notification's Markdown link is a command).
 */
export function cancellable<T>(
  title: string,
  work: (signal: AbortSignal, progress: Progress) => Thenable<T>,
): Thenable<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: plainText(title), cancellable: true },
    (progress, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      return work(controller.signal, progress);
    },
  );
}

/** A count of done items as a progress's message and bar (see countReports); nothing without a progress. */
export function countProgress(
  progress: Progress | undefined,
  describe: (done: number, total: number) => string,
  share = 1,
): (done: number, total: number) => void {
  return progress ? countReports((shown) => progress.report(shown), describe, share) : () => undefined;
}
