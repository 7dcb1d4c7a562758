/**
 * A plan shown as a person reads it: rendered Markdown beside the editor,
 * read-only, never an untitled document that asks to be saved when closed.
 * The text lives in a `convai-plan:` document, one per folder, which a newer
 * plan of the same folder replaces.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ReadOnlyDocuments } from '../shared/read-only-documents';

export const PLAN_SCHEME = 'convai-plan';

export class PlanView implements vscode.Disposable {
  private readonly documents = new ReadOnlyDocuments(PLAN_SCHEME);

  /** Shows the plan of `folder`; the rendered preview when Markdown's is there, else the read-only text. */
  async show(folder: string, markdown: string): Promise<vscode.Uri> {
    const uri = vscode.Uri.from({ scheme: PLAN_SCHEME, path: `/Plan of ${path.basename(folder)}.md`, query: folder });
    this.documents.set(uri, markdown);
    const commands = await vscode.commands.getCommands(true);
    if (commands.includes('markdown.showPreviewToSide')) await vscode.commands.executeCommand('markdown.showPreviewToSide', uri);
    else await vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.Beside, preview: true });
    return uri;
  }

  dispose(): void {
    this.documents.dispose();
  }
}
