import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { plain } from '../core/plain-text';
import type { Logger } from '../core/logger';
import { shortLabel } from '../core/uri';
import type { Log } from '../log';
import { parsePanelRequest, type PanelRequest } from './panel-messages';
import type * as Render from './render';
import type { PanelModel } from './render';

export type { PanelRequest } from './panel-messages';
export type { PanelModel } from './render';

/**
 * The results panel beside the editor. It renders what it is given and
 * passes on what its page asks for; the operations feature acts on both.
 */
export class ResultsPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private readonly requests = new vscode.EventEmitter<PanelRequest>();
  private readonly closed = new vscode.EventEmitter<void>();
  private readonly media: vscode.Uri;
  private readonly logger: Logger;

  /** Requests of the page that passed validation; anything else is dropped. */
  readonly onDidRequest: vscode.Event<PanelRequest> = this.requests.event;

  /** The user closed the panel: what it showed (an inputs form) is gone. */
  readonly onDidClose: vscode.Event<void> = this.closed.event;

  constructor(extensionUri: vscode.Uri, log: Log) {
    this.media = vscode.Uri.joinPath(extensionUri, 'media');
    this.logger = log.for('results');
  }

  get visible(): boolean {
    return this.panel?.visible ?? false;
  }

  /** Shows `model`, opening the panel beside the editor or revealing it where it is. */
  show(model: PanelModel, preserveFocus = true): void {
    if (this.panel) this.panel.reveal(undefined, preserveFocus);
    else this.panel = this.create(preserveFocus);
    // The tab names the resource, as the page's heading does.
    this.panel.title = plain`Results: ${shortLabel(model.resourceLabel)}`;
    const webview = this.panel.webview;
    // scripts/build.mjs keeps './render' in dist/results-render.js, loaded at the panel's first render.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    webview.html = (require('./render') as typeof Render).renderResults(model, {
      // A fresh nonce per document: a nonce that never repeats cannot be learnt from an earlier page.
      nonce: randomBytes(16).toString('base64'),
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(this.media, 'results.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(this.media, 'results.css')).toString(),
    });
  }

  dispose(): void {
    this.panel?.dispose();
    this.requests.dispose();
    this.closed.dispose();
  }

  /** Takes over a panel VS Code restored after a reload; the caller then shows what it held. */
  adopt(panel: vscode.WebviewPanel): void {
    this.panel?.dispose();
    panel.webview.options = this.webviewOptions();
    this.panel = this.wire(panel);
  }

  private webviewOptions(): vscode.WebviewOptions {
    return {
      enableScripts: true,
      // The page shows service text: no link in it may run a command.
      enableCommandUris: false,
      localResourceRoots: [this.media],
    };
  }

  private create(preserveFocus: boolean): vscode.WebviewPanel {
    return this.wire(
      vscode.window.createWebviewPanel(
        'convai.results',
        'ConvAI Results',
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus },
        {
          ...this.webviewOptions(),
          // The caller re-renders on 'ready', so a hidden panel need not stay in memory.
          retainContextWhenHidden: false,
          enableFindWidget: true,
        },
      ),
    );
  }

  private wire(panel: vscode.WebviewPanel): vscode.WebviewPanel {
    // A tab icon is drawn as an image, where currentColor is black: the dark themes get a light copy.
    panel.iconPath = {
      light: vscode.Uri.joinPath(this.media, 'convai.svg'),
      dark: vscode.Uri.joinPath(this.media, 'convai-dark.svg'),
    };
    const messages = panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message));
    panel.onDidDispose(() => {
      messages.dispose();
      if (this.panel !== panel) return;
      this.panel = undefined;
      this.closed.fire();
    });
    return panel;
  }

  private receive(message: unknown): void {
    const request = parsePanelRequest(message);
    if (request) this.requests.fire(request);
    else
      this.logger.debug(`Dropped a message from the results page that is not a known request: ${describe(message)}.`);
  }
}

/** A short account of a rejected message, never its whole (possibly huge) content. */
function describe(message: unknown): string {
  if (typeof message !== 'object' || message === null) return typeof message;
  const type = (message as Record<string, unknown>).type;
  const keys = Object.keys(message)
    .slice(0, 5)
    .map((key) => key.slice(0, 20));
  return `type ${typeof type === 'string' ? JSON.stringify(type.slice(0, 40)) : typeof type}, keys ${keys.join(', ')}`;
}
