/**
 * A pulled folder's file events, debounced: a burst (a pull, a push, a search
 * and replace) calls `changed` once after it settles. The folder's own
 * deletion counts too, since a deletion of the whole folder reports it
 * instead of one event per file in it.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Debouncer } from '../../core/debounce';
import { LIMITS } from '../../core/limits';

export class FolderWatcher implements vscode.Disposable {
  private readonly settle = new Debouncer<'folder'>(LIMITS.settleDelay.value);
  /**
   * Held, events are dropped rather than the watcher disposed: a watcher made anew starts some time after it is
   * asked for, and an edit saved in that gap (just after a pull or Take Service Version) would never show.
   */
  private held = false;
  private readonly watcher: vscode.Disposable;

  constructor(
    private readonly root: vscode.Uri,
    private readonly changed: () => void,
  ) {
    this.watcher = this.watch();
  }

  private watch(): vscode.Disposable {
    const schedule = (): void => {
      if (!this.held) this.settle.schedule('folder', this.changed);
    };
    const files = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(this.root, '**/*'));
    const parent = vscode.Uri.joinPath(this.root, '..');
    const pattern = new vscode.RelativePattern(parent, path.basename(this.root.fsPath));
    const itself = vscode.workspace.createFileSystemWatcher(pattern, true, true, false);
    return vscode.Disposable.from(
      files,
      itself,
      files.onDidCreate(schedule),
      files.onDidChange(schedule),
      files.onDidDelete(schedule),
      itself.onDidDelete(schedule),
    );
  }

  /** Ignores the folder's events (and drops a read waiting for a burst to settle) until `release`. */
  hold(): void {
    this.held = true;
    this.settle.cancel('folder');
  }

  release(): void {
    this.held = false;
  }

  dispose(): void {
    this.settle.dispose();
    this.watcher.dispose();
  }
}
