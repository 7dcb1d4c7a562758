/**
 * A plan shown as a person reads it: rendered Markdown beside the editor,
 * read-only, never an untitled document that asks to be saved when closed.
 * The text lives in a `convai-plan:` document, one per folder, shown in one
 * preview per folder: a newer plan of the folder (Plan Push again, or after a
 * push or a pull) replaces the text of the preview already open, and Plan Push
 * brings it to the front.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ReadOnlyDocuments } from '../shared/read-only-documents';
import { LIMITS } from '../core/limits';

export const PLAN_SCHEME = 'convai-plan';

const MARKDOWN = 'vscode.markdown-language-features';
const MARKDOWN_PREVIEW = 'markdown.showLockedPreviewToSide';

export class PlanView implements vscode.Disposable {
  private readonly documents = new ReadOnlyDocuments(PLAN_SCHEME);
  /** The folder each preview title was last shown for: two folders can share a name. */
  private readonly titles = new Map<string, string>();

  private uriOf(folder: string): vscode.Uri {
    return vscode.Uri.from({ scheme: PLAN_SCHEME, path: `/Plan of ${path.basename(folder)}.md`, query: folder });
  }

  /**
   * Shows the plan of `folder`, in front: a new rendered preview when Markdown's is there, else the read-only text. The
   * preview is locked to the plan, so that opening a prompt's Markdown text does not replace it. Markdown's preview
   * cannot be brought forward, so one open already is closed and the newer plan opens in front in its place.
   */
  async show(folder: string, markdown: string): Promise<vscode.Uri> {
    const uri = this.uriOf(folder);
    this.documents.set(uri, markdown);
    const open = this.tabOf(folder);
    if (!vscode.extensions.getExtension(MARKDOWN)) {
      await vscode.window.showTextDocument(uri, {
        viewColumn: open?.group.viewColumn ?? vscode.ViewColumn.Beside,
        preview: true,
      });
      return uri;
    }
    if (open) await vscode.window.tabGroups.close(open);
    this.titles.set(path.basename(uri.path), folder);
    await vscode.commands.executeCommand(MARKDOWN_PREVIEW, uri);
    await this.tabShown(folder);
    return uri;
  }

  /** Whether a preview (or the text) of the plan of `folder` is open. */
  isShowing(folder: string): boolean {
    return this.tabOf(folder) !== undefined;
  }

  private tabOf(folder: string): vscode.Tab | undefined {
    const uri = this.uriOf(folder);
    const title = path.basename(uri.path);
    return vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .find(({ input, label }) =>
        input instanceof vscode.TabInputText
          ? input.uri.toString() === uri.toString()
          : input instanceof vscode.TabInputWebview && label.endsWith(title) && this.titles.get(title) === folder,
      );
  }

  /** Resolves once the tab of the plan of `folder` shows, so that a Plan Push right after finds it. */
  private tabShown(folder: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.isShowing(folder)) return resolve();
      const done = (): void => {
        clearTimeout(timer);
        listener.dispose();
        resolve();
      };
      const timer = setTimeout(done, LIMITS.planTabShows.value);
      const listener = vscode.window.tabGroups.onDidChangeTabs(() => {
        if (this.isShowing(folder)) done();
      });
    });
  }

  /** Puts a newer plan of `folder` into its open preview; false when none is open. */
  async update(folder: string, markdown: string): Promise<boolean> {
    if (!this.isShowing(folder)) return false;
    this.documents.set(this.uriOf(folder), markdown);
    // The preview re-reads a plan document it still holds on its change; one VS Code has let go of it reads when told.
    if (vscode.extensions.getExtension(MARKDOWN)) await vscode.commands.executeCommand('markdown.preview.refresh');
    return true;
  }

  dispose(): void {
    this.documents.dispose();
  }
}
