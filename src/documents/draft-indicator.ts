import * as vscode from 'vscode';
import { plain, plainText } from '../core/plain-text';
import { COMMANDS, registerCommand } from '../commands';
import { describeLocation, isFile, toResourceUriString, wholeOf } from '../core/uri';
import type { Log } from '../log';
import type { Drafts } from './drafts';
import type { ConvaiFileSystem } from './filesystem';
import { parseUri } from '../shared/locations';
import { saveInEditor } from './unsaved';

const CONTEXT_KEY = 'convai.activeDraft';
const SAVE_KEY = process.platform === 'darwin' ? 'Cmd+S' : 'Ctrl+S';

function labelOf(uri: vscode.Uri): string {
  const location = parseUri(uri);
  return location && isFile(location) ? describeLocation(location) : uri.toString();
}

/** Drafts are marked where a document shows: its tab and tree node ("↑"), and the status bar while it is active. */
class DraftDecorations implements vscode.FileDecorationProvider {
  private readonly changes = new vscode.EventEmitter<vscode.Uri[]>();
  readonly onDidChangeFileDecorations = this.changes.event;

  constructor(private readonly drafts: Drafts) {}

  changed(uris: vscode.Uri[]): void {
    // A part's draft marks its resource's node too.
    const wholes = uris.flatMap((uri) => {
      const location = parseUri(uri);
      return location && isFile(location) ? [vscode.Uri.parse(toResourceUriString(wholeOf(location)))] : [];
    });
    this.changes.fire([...uris, ...wholes]);
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const key = uri.toString();
    const own = this.drafts.has(key);
    if (!own && this.drafts.ofResource(key).length === 0) return undefined;
    return new vscode.FileDecoration(
      '↑',
      own ? 'Not uploaded' : 'A part is not uploaded',
      new vscode.ThemeColor('gitDecoration.modifiedResourceForeground'),
    );
  }

  dispose(): void {
    this.changes.dispose();
  }
}

async function discard(uri: vscode.Uri, drafts: Drafts, files: ConvaiFileSystem): Promise<void> {
  await drafts.discard(uri.toString());
  files.dropCached(uri);
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (document && !document.isDirty) {
    // A clean document is re-read by reverting it; a change event alone does not make VS Code read it again.
    await vscode.window.showTextDocument(document, { preview: false });
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
}

async function chooseAction(uri: vscode.Uri, drafts: Drafts, files: ConvaiFileSystem): Promise<void> {
  const connection = uri.authority;
  const label = labelOf(uri);
  const items: Array<vscode.QuickPickItem & { run: () => Promise<void> }> = [
    { label: plain`$(cloud-upload) Save to "${connection}" now`, description: SAVE_KEY, run: () => saveInEditor(uri) },
    {
      label: '$(sync) Upload on auto-save',
      description: 'from now on, when the text is valid and nothing conflicts',
      run: async () => {
        await vscode.workspace
          .getConfiguration('convai')
          .update('uploadOnAutoSave', true, vscode.ConfigurationTarget.Global);
        vscode.window.setStatusBarMessage(
          '$(sync) Auto-save now uploads ConvAI documents (convai.uploadOnAutoSave)',
          5000,
        );
      },
    },
    {
      label: '$(discard) Discard the draft',
      description: plain`take the service's version of ${label}`,
      run: async () => {
        const answer = await vscode.window.showWarningMessage(
          plain`Discard your edits to ${label}?`,
          { modal: true, detail: plain`The document then shows what "${connection}" holds.` },
          'Discard',
        );
        if (answer === 'Discard') await discard(uri, drafts, files);
      },
    },
  ];
  const chosen = await vscode.window.showQuickPick(items, {
    title: plain`${label} is not uploaded`,
    placeHolder: plainText(drafts.why(uri.toString()) ?? 'kept as a draft'),
  });
  await chosen?.run();
}

export function draftIndicator(log: Log, drafts: Drafts, files: ConvaiFileSystem): vscode.Disposable[] {
  const decorations = new DraftDecorations(drafts);
  const item = vscode.window.createStatusBarItem('convai.draft', vscode.StatusBarAlignment.Left, 99);
  item.name = 'ConvAI draft not uploaded';
  item.command = COMMANDS.resolveDraft;
  const update = (): void => {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const draft = uri !== undefined && drafts.has(uri.toString());
    void vscode.commands.executeCommand('setContext', CONTEXT_KEY, draft);
    if (!uri || !draft) {
      item.hide();
      return;
    }
    const connection = uri.authority;
    const why = drafts.why(uri.toString());
    item.text = plain`$(arrow-up) Not uploaded · ${SAVE_KEY} saves to ${connection}`;
    item.tooltip =
      plain`${labelOf(uri)}: your edits are kept here as a draft and were not sent to "${connection}"` +
      (why ? plain` (${why})` : '') +
      `. ${SAVE_KEY} saves them to the service; click for more.`;
    item.show();
  };
  update();
  return [
    item,
    decorations,
    vscode.window.registerFileDecorationProvider(decorations),
    vscode.window.onDidChangeActiveTextEditor(update),
    drafts.onDidChange((uris) => {
      decorations.changed(uris);
      update();
    }),
    registerCommand(log, COMMANDS.resolveDraft, {
      programmatic: async (args) => {
        const uri =
          typeof args.uri === 'string'
            ? vscode.Uri.parse(args.uri)
            : args.uri instanceof vscode.Uri
              ? args.uri
              : undefined;
        if (!uri || !drafts.has(uri.toString()))
          throw new Error('uri must name a ConvAI document that has a draft not uploaded.');
        if (args.action === 'discard') return discard(uri, drafts, files);
        if (args.action === 'save') return saveInEditor(uri);
        throw new Error('action must be "save" (upload the draft) or "discard" (take the service\'s version).');
      },
      interactive: async (arg) => {
        const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
        if (!uri || !drafts.has(uri.toString()))
          throw new Error('The active editor has no draft: every edit of it was saved or discarded.');
        return chooseAction(uri, drafts, files);
      },
    }),
  ];
}
