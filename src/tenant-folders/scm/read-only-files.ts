import * as vscode from 'vscode';
import { ReadOnlyDocuments } from '../../shared/read-only-documents';

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
export class ReadOnlyFiles implements vscode.Disposable {
  private readonly readers = new Map<string, FileReader>();
  // Nothing is stored: each side is read from its list's reader when shown.
  private readonly documents = new ReadOnlyDocuments(READ_ONLY_SCHEME, (uri) => this.read(uri));

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
    this.documents.refresh((uri) => uri.query === key);
  }

  private async read(uri: vscode.Uri): Promise<string> {
    if (uri.query === EMPTY) return '';
    const reader = this.readers.get(uri.query);
    // A diff restored after a reload, or left open after its list was closed.
    if (!reader)
      throw new Error(
        `${uri.path.slice(1)}: this comparison is closed; open the change again from the Source Control view.`,
      );
    return (await reader(uri.path.slice(1))) ?? '';
  }

  dispose(): void {
    this.documents.dispose();
    this.readers.clear();
  }
}
