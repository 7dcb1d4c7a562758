/**
 * The one kind of read-only document the extension shows: service versions
 * of a save conflict, request previews, runs' responses, Source Control's
 * sides of a change and push plans. It lives in `src/shared/` because four
 * features use it and none of them owns it.
 *
 * Each purpose keeps its own URI scheme (its documents' titles, languages and
 * the tests name them), with an instance of this class per scheme. A text is
 * either stored here by URI, which is what the extension alone holds and so is
 * bounded, or computed when asked by the instance's `read` function, for
 * content that lives elsewhere (the service, the run history).
 */
import * as vscode from 'vscode';
import { RecentEntries } from '../core/recent-entries';
import { LIMITS } from '../core/limits';

/** Computes the text of a document nothing was stored for. */
export type ReadText = (uri: vscode.Uri) => string | Promise<string>;

function isOpen(key: string): boolean {
  return vscode.workspace.textDocuments.some((document) => document.uri.toString() === key);
}

export class ReadOnlyDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new RecentEntries<string>(LIMITS.keptReadOnlyTexts.value, isOpen);
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration: vscode.Disposable;

  constructor(
    readonly scheme: string,
    private readonly read?: ReadText,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(scheme, this);
  }

  /** Holds `text` as the document of `uri` (of this scheme); an open one shows it at once. */
  set(uri: vscode.Uri, text: string): void {
    if (uri.scheme !== this.scheme) throw new Error(`${uri.toString()} is not a ${this.scheme}: document.`);
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  /** Has the open documents that `which` picks read again, their content having changed where `read` finds it. */
  refresh(which: (uri: vscode.Uri) => boolean): void {
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.scheme === this.scheme && which(document.uri)) this.changed.fire(document.uri);
    }
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const stored = this.texts.get(uri.toString());
    if (stored !== undefined) return stored;
    return this.read ? await this.read(uri) : '';
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
    this.texts.clear();
  }
}
