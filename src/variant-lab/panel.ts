import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { plainText } from '../core/plain-text';
import type { Logger } from '../core/logger';
import type { Log } from '../log';
import { DrawnPage } from '../shared/drawn-page';
import { parsePageMessage, type HostMessage, type PageMessage } from './messages';
import { labPage } from './page';
import type { LabView } from './view';

/** What the table on show answers for: a cell's run, and a variant's Apply. */
export interface LabActions {
  open(row: number, column: number): Promise<void>;
  apply(column: number): Promise<void>;
}

/**
 * The one variant lab panel. Showing a table replaces the one on show; the page answers a table it drew with "drawn"
 * and its number, which is what `show` resolves on. A table sent before the page was ready waits for it.
 */
export class VariantLabPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private readonly page = new DrawnPage<HostMessage>('The variant lab was closed before it drew the table.');
  private actions: LabActions | undefined;
  private readonly media: vscode.Uri;
  private readonly logger: Logger;

  constructor(extensionUri: vscode.Uri, log: Log) {
    this.media = vscode.Uri.joinPath(extensionUri, 'media');
    this.logger = log.for('variant-lab');
  }

  /** Shows `view` and resolves once the page has drawn it. */
  show(view: LabView, actions: LabActions): Promise<void> {
    const panel = this.panel ?? this.create();
    // The tab shows the suite's name as text.
    panel.title = plainText(view.title);
    panel.reveal(undefined, false);
    this.actions = actions;
    return this.page.send(panel.webview, (seq) => ({ type: 'show', seq, view }));
  }

  dispose(): void {
    this.panel?.dispose();
  }

  private create(): vscode.WebviewPanel {
    const panel = vscode.window.createWebviewPanel('convai.variantLab', 'Variant Lab', vscode.ViewColumn.Active, {
      enableScripts: true,
      // Names and answers on the page are the service's and the AI's text: no link may run a command.
      enableCommandUris: false,
      localResourceRoots: [this.media],
      // The table holds a whole run's figures: hidden and shown again, it must not need the run again.
      retainContextWhenHidden: true,
    });
    panel.iconPath = {
      light: vscode.Uri.joinPath(this.media, 'convai.svg'),
      dark: vscode.Uri.joinPath(this.media, 'convai-dark.svg'),
    };
    const { webview } = panel;
    webview.html = labPage({
      // A fresh nonce per page: a nonce that never repeats cannot be learnt from an earlier page.
      nonce: randomBytes(16).toString('base64'),
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(this.media, 'variant-lab.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(this.media, 'variant-lab.css')).toString(),
    });
    const messages = webview.onDidReceiveMessage((message: unknown) => {
      const parsed = parsePageMessage(message);
      if (parsed)
        void this.receive(parsed, webview).catch((error: unknown) => {
          this.logger.error(error instanceof Error ? error : String(error));
          void vscode.window.showErrorMessage(plainText(error instanceof Error ? error.message : String(error)));
        });
      else this.logger.debug('Dropped a message from the variant lab page that is not a known request.');
    });
    panel.onDidDispose(() => {
      messages.dispose();
      this.panel = undefined;
      this.actions = undefined;
      this.page.closed();
    });
    this.panel = panel;
    return panel;
  }

  private async receive(message: PageMessage, webview: vscode.Webview): Promise<void> {
    switch (message.type) {
      case 'ready':
        return this.page.pageReady(webview);
      case 'drawn':
        this.page.pageDrew(message.seq);
        return;
      case 'open':
        return this.actions?.open(message.row, message.column);
      case 'apply':
        return this.actions?.apply(message.column);
    }
  }
}
