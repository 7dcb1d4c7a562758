import * as vscode from 'vscode';

/** Gives a file's text on one side of a diff; undefined when that side has no such file. */
export type FileReader = (file: string) => Promise<string | undefined>;

export const READ_ONLY_SCHEME = 'convai-pulled';

/** The key of the empty side: what a deleted file is diffed against. */
const EMPTY = 'empty';

/**
 * Read-only documents for the sides of the change lists' diffs that are not
 * files on disk: the service's version of a pulled file, and both sides of a
 * comparison. A URI is `convai-pulled:/<file>?<key>`: the file's own path, so
 * the diff's title and language come from its name, and the key of whoever
 * reads it. A missing file reads as empty (the side of a create or a delete).
 */
export class ReadOnlyFiles implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly readers = new Map<string, FileReader>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(READ_ONLY_SCHEME, this);

  uri(key: string, file: string): vscode.Uri {
    return vscode.Uri.from({ scheme: READ_ONLY_SCHEME, path: `/${file}`, query: key });
  }

  /** An empty document named like the file. */
  empty(file: string): vscode.Uri {
    return this.uri(EMPTY, file);
  }

  add(key: string, reader: FileReader): vscode.Disposable {
    this.readers.set(key, reader);
    return new vscode.Disposable(() => this.readers.delete(key));
  }

  /** Has open documents of the key read again (after a refresh). */
  reload(key: string): void {
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.scheme === READ_ONLY_SCHEME && document.uri.query === key) this.changed.fire(document.uri);
    }
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    if (uri.query === EMPTY) return '';
    const reader = this.readers.get(uri.query);
    // A diff restored after a reload, or left open after its list was closed.
    if (!reader) throw new Error(`${uri.path.slice(1)}: this comparison is closed; open the change again from the Source Control view.`);
    return (await reader(uri.path.slice(1))) ?? '';
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
    this.readers.clear();
  }
}
