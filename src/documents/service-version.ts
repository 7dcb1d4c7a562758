import * as vscode from 'vscode';

export const SERVICE_VERSION_SCHEME = 'convai-service';

/** Read-only documents holding the service's current text, the left side of a conflict's Compare. */
export class ServiceVersions implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(SERVICE_VERSION_SCHEME, this);

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  async compare(documentUri: vscode.Uri, serviceText: string, label: string): Promise<void> {
    const left = documentUri.with({ scheme: SERVICE_VERSION_SCHEME, query: String(Date.now()) });
    this.texts.set(left.toString(), serviceText);
    // Beside and pinned: the user's own editor, with the unsaved text, stays where it is.
    await vscode.commands.executeCommand('vscode.diff', left, documentUri, `${label}: service ↔ yours`, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
