import * as vscode from 'vscode';
import { ReadOnlyDocuments } from '../shared/read-only-documents';

export const SERVICE_VERSION_SCHEME = 'convai-service';

/** Read-only documents holding the service's current text, the left side of a conflict's Compare. */
export class ServiceVersions implements vscode.Disposable {
  private readonly documents = new ReadOnlyDocuments(SERVICE_VERSION_SCHEME);

  async compare(documentUri: vscode.Uri, serviceText: string, label: string): Promise<void> {
    const left = documentUri.with({ scheme: SERVICE_VERSION_SCHEME, query: String(Date.now()) });
    this.documents.set(left, serviceText);
    // Beside and pinned: the user's own editor, with the unsaved text, stays where it is.
    await vscode.commands.executeCommand('vscode.diff', left, documentUri, `${label}: service ↔ yours`, {
      viewColumn: vscode.ViewColumn.Beside,
      preview: false,
    });
  }

  dispose(): void {
    this.documents.dispose();
  }
}
