import * as path from 'node:path';
import * as vscode from 'vscode';
import { DisposableStore } from '../../core/disposable-store';
import { MANIFEST_FILE } from '../../core/tenant/manifest';
import { messageOf } from '../../core/text';
import type { FolderEvents, FolderWritten } from '../folder-events';
import type { ScmDeps } from './deps';
import { PulledFolderControl } from './folder-control';

const MANIFESTS = `**/${MANIFEST_FILE}`;

/**
 * One change list per pulled folder of the workspace (a folder holding
 * convai-tenant.json), found at start and kept current as manifests come
 * and go. Folders are file-system paths: the core reads them with Node.
 */
export class PulledFolders implements vscode.Disposable {
  private readonly controls = new Map<string, Promise<PulledFolderControl | undefined>>();
  private readonly disposables = new DisposableStore();

  constructor(
    private readonly deps: ScmDeps,
    events: FolderEvents,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher(MANIFESTS);
    this.disposables.push(
      watcher,
      watcher.onDidCreate((uri) => void this.add(rootOf(uri))),
      watcher.onDidDelete((uri) => void this.remove(rootOf(uri))),
      watcher.onDidChange((uri) => void this.manifestChanged(rootOf(uri))),
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.scan()),
      // A connection added, removed or given a token changes what the lists can show.
      deps.connections.onDidChange(() => void this.each((control) => control.refreshLocal())),
      // A plan made by Plan Push or Push is the list's last check; a push or a pull makes the one before stale.
      events.onDidPlan(({ folder, plan }) => void this.opened(folder)?.then((control) => control?.adopt(plan))),
      // A pull writes thousands of files: the list reads the folder once it is done, not at each pause between them.
      events.onWillWrite((folder) => void this.opened(folder)?.then((control) => control?.hold())),
      events.onDidWrite(
        ({ folder, by }) =>
          void this.opened(folder)?.then((control) => {
            control?.release();
            return control && this.afterWrite(control, by);
          }),
      ),
    );
    void this.scan();
  }

  /** The control of a folder; one is opened when the folder holds a manifest the watcher has not reported yet. */
  async byFolder(folder: string): Promise<PulledFolderControl | undefined> {
    return this.add(vscode.Uri.file(path.resolve(folder)), false);
  }

  /** The control of a folder whose list is open; none is opened for it. */
  private opened(folder: string): Promise<PulledFolderControl | undefined> | undefined {
    return this.controls.get(path.resolve(folder));
  }

  /**
   * After a push or a pull, the list checks the folder again (conflicts and drift), with the progress in the Source
   * Control view; a failure shows in the list's status and groups, not in a message nobody asked for.
   */
  private async afterWrite(control: PulledFolderControl, by: FolderWritten['by']): Promise<void> {
    if (!(await control.hasConnection())) return;
    // After a pull nothing drifted: asking the service again would be a request per resource, 65,000 for a large tenant.
    await vscode.window
      .withProgress({ location: vscode.ProgressLocation.SourceControl }, () =>
        by === 'pull' ? control.afterPull() : control.refresh(),
      )
      .then(undefined, (error: unknown) => this.deps.log.warn(`${control.root.fsPath}: ${messageOf(error)}`));
  }

  /** The control that owns a SourceControl handed to a command from the Source Control view. */
  async find(sourceControl: unknown): Promise<PulledFolderControl | undefined> {
    return (await this.all()).find((control) => control.owns(sourceControl));
  }

  async all(): Promise<PulledFolderControl[]> {
    return (await Promise.all(this.controls.values())).filter((c): c is PulledFolderControl => c !== undefined);
  }

  /**
   * Finds the workspace's pulled folders, at start and again on Refresh: a folder whose manifest the watcher did not
   * report (one made with its files at once, by the command-line tool, before the watch of its new directory began).
   */
  async scan(): Promise<void> {
    const found = await vscode.workspace.findFiles(MANIFESTS, '**/node_modules/**');
    const roots = new Set(found.filter((uri) => uri.scheme === 'file').map((uri) => rootOf(uri).fsPath));
    for (const root of [...this.controls.keys()]) if (!roots.has(root)) await this.remove(vscode.Uri.file(root));
    await Promise.all([...roots].map((root) => this.add(vscode.Uri.file(root))));
  }

  /** Opens a folder's list, and checks it against the service the first time it shows (when there is a connection to ask). */
  private add(root: vscode.Uri, check = true): Promise<PulledFolderControl | undefined> {
    const existing = this.controls.get(root.fsPath);
    if (existing) return existing;
    const opening = PulledFolderControl.open(root, this.deps).then(
      async (control) => {
        if (!control) {
          this.controls.delete(root.fsPath);
          return undefined;
        }
        control.onDidVanish(() => void this.remove(root));
        await control.refreshLocal();
        if (check && (await control.hasConnection())) {
          control.check().catch((error: unknown) => this.deps.log.warn(`${root.fsPath}: ${messageOf(error)}`));
        }
        return control;
      },
      (error: unknown) => {
        this.controls.delete(root.fsPath);
        this.deps.log.warn(`${root.fsPath}: ${messageOf(error)}`);
        return undefined;
      },
    );
    this.controls.set(root.fsPath, opening);
    return opening;
  }

  private async remove(root: vscode.Uri): Promise<void> {
    const control = this.controls.get(root.fsPath);
    this.controls.delete(root.fsPath);
    (await control)?.dispose();
  }

  /** A manifest naming another tenant or connection (pulled again from elsewhere) gets a list with the new label. */
  private async manifestChanged(root: vscode.Uri): Promise<void> {
    const control = await this.controls.get(root.fsPath);
    if (!control) {
      await this.add(root);
    } else if (await control.relabelled()) {
      await this.remove(root);
      await this.add(root);
    }
  }

  private async each(action: (control: PulledFolderControl) => Promise<void>): Promise<void> {
    await Promise.all((await this.all()).map(action));
  }

  dispose(): void {
    this.disposables.dispose();
    const controls = [...this.controls.values()];
    this.controls.clear();
    for (const control of controls) void control.then((c) => c?.dispose());
  }
}

function rootOf(manifest: vscode.Uri): vscode.Uri {
  return vscode.Uri.file(path.dirname(manifest.fsPath));
}
