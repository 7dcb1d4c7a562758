import * as vscode from 'vscode';
import { DisposableStore } from '../core/disposable-store';

/**
 * No save writes the service for a prompt test run (contract: "Trials"): a test run must never change what callers
 * hear. VS Code's `testing.saveBeforeTest` saves every dirty editor as a Testing-view run starts, right after it has
 * asked the extension to run, and its saves may arrive after a short run has ended. So a run holds every save while
 * it runs, and the saves VS Code owes it (the documents dirty at its start) whenever they come. A refused save throws:
 * VS Code keeps the document dirty with the user's text.
 */
export class SaveHold implements vscode.Disposable {
  private runs = 0;
  /** Documents VS Code will save because a run started, by URI. */
  private readonly owed = new Set<string>();
  private readonly disposables = new DisposableStore();

  constructor() {
    this.disposables.push(
      // A document reverted or closed is saved by nobody: nothing is owed for it any more.
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (!event.document.isDirty) this.owed.delete(event.document.uri.toString());
      }),
      vscode.workspace.onDidCloseTextDocument((document) => this.owed.delete(document.uri.toString())),
    );
  }

  /** Holds saves from this call until `work` settles. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    this.runs++;
    try {
      return await work();
    } finally {
      this.runs--;
    }
  }

  /**
   * A Testing-view run started: VS Code saves the dirty documents of this scheme unless `testing.saveBeforeTest` is
   * off or the run keeps the focus (a continuous run). Call before the run's first await.
   */
  owedBy(request: vscode.TestRunRequest, scheme: string): void {
    if (request.preserveFocus || vscode.workspace.getConfiguration('testing').get('saveBeforeTest') === false) return;
    for (const document of vscode.workspace.textDocuments)
      if (document.isDirty && document.uri.scheme === scheme) this.owed.add(document.uri.toString());
  }

  /** Why a save of `uri` may not write now; undefined when it may. */
  reason(uri: vscode.Uri, label: string): string | undefined {
    const owed = this.owed.delete(uri.toString());
    if (this.runs === 0 && !owed) return undefined;
    return `${label} was not saved: a prompt test run started, and a test never writes what callers hear (it runs your unsaved edits as a trial, or the saved version, as convai.tests.unsavedEdits says). Your text is kept; save again to send it.`;
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
