import * as vscode from 'vscode';

/** Work that reads or writes a whole folder, shown with a progress notification whose Cancel aborts its requests. */
export function cancellable<T>(title: string, work: (signal: AbortSignal, progress: vscode.Progress<{ message?: string; increment?: number }>) => Thenable<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
    const controller = new AbortController();
    token.onCancellationRequested(() => controller.abort());
    return work(controller.signal, progress);
  });
}
