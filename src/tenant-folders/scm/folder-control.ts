import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import { COMMANDS } from '../../commands';
import type { ServiceClient } from '../../core/client';
import { ServiceError } from '../../core/errors';
import { diskFolder, type FolderIO } from '../../core/tenant/folder-io';
import { MANIFEST_FILE, readManifest, type Manifest } from '../../core/tenant/manifest';
import { localPlan, planPush, type Change, type LocalPlan, type Plan } from '../../core/tenant/plan';
import { folderValues, resourceFiles } from '../../core/tenant/representation';
import { messageOf, plural } from '../../core/text';
import { connectionOf } from '../folders';
import { ChangeState, diffCommand } from './change-states';
import { changedFiles, changeName, pulledResourceOf, type ResourceChange } from './changed-files';
import type { ScmDeps } from './deps';
import { problemState } from './problem-states';
import { kindOfSegment } from '../../core/resources';

export const PULLED_FOLDER_SCM = 'convai';
/** File events come in bursts (a pull, a push, a search and replace): one re-read after they settle. */
const SETTLE_MS = 300;

export interface CheckResult {
  changes: number;
  conflicts: number;
}

function labelOf(manifest: Manifest): string {
  const tenant = manifest.resources.find((entry) => entry.segment === 'tenants');
  return `ConvAI: ${tenant?.name ?? `tenant ${manifest.tenantId}`} (${manifest.connection})`;
}

/** How the list stands with the service, in the input box and, short, in the status bar. */
interface Status {
  text: string;
  short: string;
}

const unchecked = (text: string): Status => ({ text, short: '$(cloud) Not checked' });


/**
 * The change list of one pulled folder: what its files changed since the
 * pull, read from disk on every file change (no request), and which of
 * those changes conflict with the service, known after a check (Refresh).
 */
export class PulledFolderControl implements vscode.Disposable {
  private readonly scm: vscode.SourceControl;
  private readonly conflictGroup: vscode.SourceControlResourceGroup;
  private readonly changeGroup: vscode.SourceControlResourceGroup;
  private readonly problemGroup: vscode.SourceControlResourceGroup;
  private readonly io: FolderIO;
  private readonly key: string;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly vanished = new vscode.EventEmitter<void>();
  /** The folder's manifest is gone (a folder deleted whole reports no event for the files in it). */
  readonly onDidVanish = this.vanished.event;
  private local: LocalPlan | undefined;
  /** Conflicts by file, from the last check. */
  private conflicts = new Map<string, Change>();
  private checkStatus = unchecked('Not checked against the service yet: Refresh looks for conflicts.');
  private timer: NodeJS.Timeout | undefined;
  /** Each read of the folder gets a number; a slower, older read does not overwrite a newer one. */
  private generation = 0;

  /** The label shows the manifest's tenant and connection: a folder whose manifest says otherwise needs a new control. */
  static async open(root: vscode.Uri, deps: ScmDeps): Promise<PulledFolderControl | undefined> {
    const manifest = await readManifest(diskFolder(root.fsPath));
    return manifest ? new PulledFolderControl(root, manifest, deps) : undefined;
  }

  private constructor(readonly root: vscode.Uri, manifest: Manifest, private readonly deps: ScmDeps) {
    this.io = diskFolder(root.fsPath);
    this.key = `service:${root.fsPath}`;
    this.scm = vscode.scm.createSourceControl(PULLED_FOLDER_SCM, labelOf(manifest), root);
    // A tenant folder takes no commit message: how things stand shows in the status bar and the lists.
    this.scm.inputBox.visible = false;
    this.problemGroup = this.scm.createResourceGroup('problems', 'Problems (a push sends nothing until they are fixed)');
    this.problemGroup.hideWhenEmpty = true;
    this.conflictGroup = this.scm.createResourceGroup('conflicts', 'Conflicts');
    this.conflictGroup.hideWhenEmpty = true;
    this.changeGroup = this.scm.createResourceGroup('changes', 'Changes');
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(root, '**/*'));
    this.disposables.push(
      this.scm,
      this.vanished,
      watcher,
      watcher.onDidCreate((uri) => this.changed(uri)),
      watcher.onDidChange((uri) => this.changed(uri)),
      watcher.onDidDelete((uri) => this.changed(uri)),
      deps.files.add(this.key, (file) => this.serviceText(file)),
    );
  }

  get label(): string {
    return this.scm.label;
  }

  /** Whether the manifest now names another tenant or connection than the label shows. */
  async relabelled(): Promise<boolean> {
    const manifest = await readManifest(this.io).catch(() => undefined);
    return manifest !== undefined && labelOf(manifest) !== this.scm.label;
  }

  /** Read from disk: the list may not have read the folder yet when it is first shown. */
  async hasConnection(): Promise<boolean> {
    const manifest = await readManifest(this.io).catch(() => undefined);
    return manifest !== undefined && 'client' in this.connection(manifest);
  }

  owns(sourceControl: unknown): boolean {
    return sourceControl === this.scm;
  }

  private changed(uri: vscode.Uri): void {
    // A pull or a push rewrites the manifest: conflicts found against the old base no longer hold.
    if (uri.fsPath === vscode.Uri.joinPath(this.root, MANIFEST_FILE).fsPath && this.conflicts.size > 0) {
      this.conflicts = new Map();
      this.checkStatus = unchecked('Pulled or pushed since the last check: Refresh looks for conflicts again.');
    }
    this.schedule();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refreshLocal(), SETTLE_MS);
  }

  /** Reads the folder's changes from disk and shows them, with the conflicts of the last check. */
  async refreshLocal(): Promise<void> {
    const generation = ++this.generation;
    try {
      if ((await this.io.read(MANIFEST_FILE)) === undefined) {
        this.vanished.fire();
        return;
      }
      const plan = await localPlan(this.io);
      if (generation !== this.generation) return;
      // A new manifest means a push or a pull (here or by the CLI): the service's side of open diffs is old.
      const newBase = this.local !== undefined && !isDeepStrictEqual(this.local.manifest, plan.manifest);
      this.local = plan;
      this.render(plan);
      // Only now: the service's side reads the resources' ids from the manifest just read (a pushed create's is new).
      if (newBase) this.deps.files.reload(this.key);
    } catch (error) {
      if (generation !== this.generation) return;
      this.deps.log.warn(`${this.root.fsPath}: ${messageOf(error)}`);
      this.scm.statusBarCommands = [{ title: '$(error) Not read', tooltip: `${messageOf(error)} Click to read the folder again.`, command: COMMANDS.refreshTenantChanges, arguments: [this.scm] }];
    }
  }

  /** The plan of a push of the folder, from the connection Push would use; changes nothing the list shows. */
  async plan(): Promise<Plan> {
    const connection = this.connection(this.local?.manifest ?? (await localPlan(this.io)).manifest);
    if ('problem' in connection) throw new Error(connection.problem);
    return planPush(connection.client, this.io);
  }

  /** Checks the folder's changes against the service (the plan of a push): conflicts, and what is already gone there. */
  async check(): Promise<CheckResult> {
    const manifest = this.local?.manifest ?? (await localPlan(this.io)).manifest;
    const connection = this.connection(manifest);
    if ('problem' in connection) {
      await this.refreshLocal();
      throw new Error(connection.problem);
    }
    try {
      const plan = await planPush(connection.client, this.io);
      this.conflicts = new Map(plan.changes.filter((c) => c.action === 'conflict').map((c) => [c.file, c]));
      const found = this.conflicts.size === 0 ? 'No conflicts' : plural(this.conflicts.size, 'conflict');
      this.checkStatus = { text: `${found} with "${connection.name}" (checked ${new Date().toLocaleTimeString()}).`, short: `$(${this.conflicts.size === 0 ? 'check' : 'warning'}) ${found}` };
      this.deps.files.reload(this.key);
      await this.refreshLocal();
      return { changes: plan.changes.length, conflicts: this.conflicts.size };
    } catch (error) {
      this.checkStatus = { text: `Not checked against "${connection.name}": ${messageOf(error)} Refresh to try again.`, short: '$(error) Not checked' };
      await this.refreshLocal();
      throw error;
    }
  }

  /** The connection Push would use (folders.ts: by name, else by base URL), or why there is none. */
  private connection(manifest: Manifest): { name: string; client: ServiceClient } | { problem: string } {
    try {
      const name = connectionOf(this.deps.connections, manifest);
      return { name, client: this.deps.connections.client(name) };
    } catch (error) {
      return { problem: `${messageOf(error)} Until then this list shows the folder's changes only.` };
    }
  }

  private render(plan: LocalPlan): void {
    const connection = this.connection(plan.manifest);
    const rows = plan.changes.flatMap((local) => {
      const conflict = this.conflicts.get(local.file);
      const change: ResourceChange = {
        action: conflict ? 'conflict' : local.action,
        segment: local.segment,
        name: changeName(local),
        file: local.file,
        fields: local.fields,
        ...(local.resource ? { values: local.resource.values } : {}),
        ...(conflict?.reason ? { reason: conflict.reason } : {}),
      };
      return changedFiles(change);
    });
    const states = rows.map((row) => {
      const uri = vscode.Uri.joinPath(this.root, ...row.file.split('/'));
      const right = row.removed ? this.deps.files.empty(row.file) : uri;
      // Without a connection there is no service version to diff against: the row opens the file.
      const command = 'name' in connection
        ? diffCommand(this.deps.files.uri(this.key, row.file), right, `${row.file.split('/').pop() ?? row.file} (${connection.name} ↔ folder)`)
        : { title: 'Open File', command: 'vscode.open', arguments: [right] };
      return new ChangeState(row, uri, command, `tenantFolder:${row.change.action}`);
    });
    this.conflictGroup.resourceStates = states.filter((s) => s.row.change.action === 'conflict');
    this.changeGroup.resourceStates = states.filter((s) => s.row.change.action !== 'conflict');
    this.deps.decorations.publish(this, states);
    this.scm.count = plan.changes.length;
    this.problemGroup.resourceStates = plan.problems.map((problem) => problemState(this.root, problem));
    const problems = plan.problems.length > 0 ? `${plural(plan.problems.length, 'problem')} to fix before a push (the Problems list).` : '';
    const status = 'problem' in connection ? { text: connection.problem, short: '$(warning) No connection' } : this.checkStatus;
    const short = plan.problems.length > 0 ? `$(warning) ${plural(plan.problems.length, 'problem')}` : status.short;
    this.scm.statusBarCommands = [{ title: short, tooltip: `${[problems, status.text].filter(Boolean).join(' ')} Click to check again.`, command: COMMANDS.refreshTenantChanges, arguments: [this.scm] }];
  }

  /** The service's version of a file: what a pull would write for the resource's current state. */
  private async serviceText(file: string): Promise<string | undefined> {
    const manifest = this.local?.manifest ?? (await readManifest(this.io));
    const entry = manifest && pulledResourceOf(manifest, file);
    if (!manifest || !entry) return undefined;
    const connection = this.connection(manifest);
    if ('problem' in connection) throw new Error(connection.problem);
    const kind = kindOfSegment(entry.segment);
    try {
      const detail = await connection.client.get(kind, entry.id, entry.segment === 'tenants' ? undefined : manifest.tenantId);
      return resourceFiles(kind, entry.id, folderValues(kind, detail), entry.file.replace(/\.json$/, '')).get(file);
    } catch (error) {
      // Deleted on the service: its side of the diff is empty.
      if (error instanceof ServiceError && error.status === 404) return undefined;
      throw error;
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    // VS Code keeps showing the status of the last list it showed once that list is gone, unless it is emptied first.
    this.scm.statusBarCommands = [];
    this.deps.decorations.withdraw(this);
    for (const disposable of this.disposables) disposable.dispose();
  }
}
