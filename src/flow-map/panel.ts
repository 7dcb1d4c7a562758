import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { plainText } from '../core/plain-text';
import type { Logger } from '../core/logger';
import type { Log } from '../log';
import { DrawnPage } from '../shared/drawn-page';
import { parsePageMessage, type HostMessage, type MapView, type PageMessage } from './messages';
import { mapPage } from './page';

/** What the map on show answers for: opening a node's document, its Mermaid text, and where an export goes. */
export interface MapActions {
  open(node: string): Promise<void>;
  mermaid(): string;
  /** The file an export proposes: `<folder or tenant>.svg` beside the workspace. */
  svgFile(): vscode.Uri | undefined;
}

/**
 * The one flow map panel. Showing a map replaces the one on show; the page
 * answers a map it drew with "drawn" and its number, which is what `show`
 * resolves on. A map sent before the page was ready may be replaced by a
 * later one unseen: drawing the later one answers for both.
 */
export class FlowMapPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private readonly page = new DrawnPage<HostMessage>('The flow map was closed before it was drawn.');
  private actions: MapActions | undefined;
  private follower: vscode.Disposable | undefined;
  private readonly roots: { script: vscode.Uri; media: vscode.Uri };
  private readonly logger: Logger;

  constructor(extensionUri: vscode.Uri, log: Log) {
    this.roots = {
      script: vscode.Uri.joinPath(extensionUri, 'dist', 'webview'),
      media: vscode.Uri.joinPath(extensionUri, 'media'),
    };
    this.logger = log.for('flow-map');
  }

  /**
   * Shows `view` and resolves once the page has drawn it. A map that follows
   * the one on show (its source changed) keeps the user's zoom and place, and
   * neither brings the panel forward nor opens a closed one.
   */
  show(view: MapView, actions: MapActions, { follows = false } = {}): Promise<void> {
    if (follows && !this.panel) return Promise.resolve();
    const panel = this.panel ?? this.create();
    // The tab shows the tenant's name as text: a right-to-left override in it would reverse the tab's title.
    panel.title = plainText(view.title);
    if (!follows) panel.reveal(undefined, false);
    this.actions = actions;
    return this.page.send(panel.webview, (seq) => ({
      type: 'show',
      seq,
      view,
      ...(follows ? { keepView: true } : {}),
    }));
  }

  /** What keeps the map on show current; it ends with the next map or the panel. */
  follow(follower: vscode.Disposable): void {
    this.follower?.dispose();
    this.follower = follower;
  }

  dispose(): void {
    this.panel?.dispose();
    this.follower?.dispose();
  }

  private create(): vscode.WebviewPanel {
    const panel = vscode.window.createWebviewPanel('convai.flowMap', 'Flow Map', vscode.ViewColumn.Active, {
      enableScripts: true,
      // Names on the map are the service's text: no link may run a command.
      enableCommandUris: false,
      localResourceRoots: [this.roots.script, this.roots.media],
      // Laying out a thousand resources again each time the tab comes back would cost seconds.
      retainContextWhenHidden: true,
    });
    panel.iconPath = {
      light: vscode.Uri.joinPath(this.roots.media, 'convai.svg'),
      dark: vscode.Uri.joinPath(this.roots.media, 'convai-dark.svg'),
    };
    const { webview } = panel;
    webview.html = mapPage({
      nonce: randomBytes(16).toString('base64'),
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(this.roots.script, 'flow-map.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(this.roots.media, 'flow-map.css')).toString(),
    });
    const messages = webview.onDidReceiveMessage((message: unknown) => {
      const parsed = parsePageMessage(message);
      if (parsed)
        void this.receive(parsed, webview).catch((error: unknown) =>
          this.logger.error(error instanceof Error ? error : String(error)),
        );
      else this.logger.debug('Dropped a message from the flow map page that is not a known request.');
    });
    panel.onDidDispose(() => {
      messages.dispose();
      this.panel = undefined;
      this.actions = undefined;
      this.follower?.dispose();
      this.follower = undefined;
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
        this.logger.debug(`Drew a map of ${message.nodes} resources.`);
        this.page.pageDrew(message.seq);
        return;
      case 'open':
        return this.actions?.open(message.node);
      case 'copyMermaid':
        if (!this.actions) return;
        await vscode.env.clipboard.writeText(this.actions.mermaid());
        void vscode.window.showInformationMessage('The flow map is on the clipboard as Mermaid.');
        return;
      case 'exportSvg':
        return this.exportSvg(message.svg);
    }
  }

  private async exportSvg(svg: string): Promise<void> {
    const target = await vscode.window.showSaveDialog({
      defaultUri: this.actions?.svgFile(),
      filters: { 'SVG image': ['svg'] },
      saveLabel: 'Export',
      title: 'Export the Flow Map as SVG',
    });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(svg));
    this.logger.info(`Exported the flow map to ${target.fsPath}.`);
  }
}
