import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import { plain } from '../../core/plain-text';
import { COMMANDS } from '../../commands';
import type { ServiceClient } from '../../core/client';
import { ServiceError } from '../../core/errors';
import { diskFolder, type FolderIO } from '../../core/tenant/folder-io';
import { MANIFEST_FILE, readManifest, type Manifest } from '../../core/tenant/manifest';
import { localPlan, planPush, type Change, type LocalPlan, type Plan } from '../../core/tenant/plan';
import type { Drifted } from '../../core/tenant/drift';
import { takeServiceVersion } from '../../core/tenant/take';
import { written } from '../../core/changes';
import type { Segment } from '../../core/resource-kind';
import { folderValues, resourceFiles } from '../../core/tenant/representation';
import { messageOf, plural } from '../../core/text';
import { connectionOf } from '../folders';
import { ChangeState, diffCommand, serviceSideTitle } from './change-states';
import { changedFiles, changeName, pulledResourceOf, type ResourceChange } from './changed-files';
import type { ScmDeps } from './deps';
import { problemState } from './problem-states';
import { DriftGroup, type DriftSummary } from './drift-group';
import { kindOfSegment } from '../../core/resources';
import { Debouncer } from '../../core/debounce';
import { LIMITS } from '../../core/limits';

export const PULLED_FOLDER_SCM = 'convai';

export interface CheckResult {
  changes: number;
  conflicts: number;
  problems: number;
  /** Resources changed, created or deleted on the service since the pull; absent when that was not asked. */
  drifted?: number;
  /** What the list's status bar item says. */
  status: string;
}

function labelOf(manifest: Manifest): string {
  const tenant = manifest.resources.find((entry) => entry.segment === 'tenants');
  return plain`ConvAI: ${tenant?.name ?? `tenant ${manifest.tenantId}`} (${manifest.connection})`;
}

/** How the list stands, in the status bar: short, and in its tooltip. */
interface Status {
  text: string;
  short: string;
}

/** The last plan against the service: its conflicts hold as long as the folder's manifest is the one it planned against. */
interface Checked {
  manifest: Manifest;
  conflicts: Map<string, Change>;
  connection: string;
  at: Date;
}

const time = (at: Date): string => at.toLocaleTimeString();

/**
 * The status of the list: the folder's problems and changes as read from disk now, the conflicts of the last plan
 * (Plan Push, Push, Refresh) while they still hold, and the drift last found. It never says more than was checked.
 */
function statusOf(plan: LocalPlan, checked: Checked | undefined, drift: DriftSummary, checkError: string | undefined): Status {
  const conflicts = checked ? plan.changes.filter((c) => checked.conflicts.has(c.file)).length : 0;
  const changes = plan.changes.length - conflicts;
  const problems = plan.problems.length;
  const parts = [
    ...(problems > 0 ? [plural(problems, 'problem')] : []),
    ...(conflicts > 0 ? [plural(conflicts, 'conflict')] : []),
    ...(changes > 0 ? [plural(changes, 'change')] : []),
    ...(drift.count ? [`${drift.count} changed on the service`] : []),
  ];
  const icon = checkError ? 'error' : problems + conflicts > 0 ? 'warning' : drift.count ? 'cloud-download' : checked || changes === 0 ? 'check' : 'cloud';
  const unsure = checkError ? 'not checked' : !checked && changes > 0 ? 'conflicts not checked' : '';
  const short = `$(${icon}) ${parts.length > 0 ? parts.join(' · ') : 'No change since the pull'}${unsure ? `, ${unsure}` : ''}`;
  const plannedText = checkError
    ? `Not checked against the service: ${checkError}`
    : checked ? `${conflicts === 0 ? 'No conflict' : plural(conflicts, 'conflict')} with "${checked.connection}" (planned ${time(checked.at)}).` : 'Conflicts are not checked since the last pull or push: Refresh or Plan Push checks them.';
  const driftText = drift.error
    ? `What changed on the service is not known: ${drift.error}`
    : drift.at ? `${drift.count ? plural(drift.count, 'resource') : 'Nothing'} changed on the service since the pull (checked ${time(drift.at)}).` : 'What changed on the service since the pull: Refresh asks.';
  const local = `${plural(problems, 'problem')}, ${plural(plan.changes.length, 'change')} in the folder.`;
  return { short, text: `${local} ${plannedText} ${driftText}` };
}

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
  private readonly drift: DriftGroup;
  private local: LocalPlan | undefined;
  private checked: Checked | undefined;
  private checkError: string | undefined;
  /** File events come in bursts (a pull, a push, a search and replace): one re-read after they settle. */
  private readonly settle = new Debouncer<'folder'>(LIMITS.settleDelay.value);
  /** Each read of the folder gets a number; a slower, older read does not overwrite a newer one. */
  private generation = 0;
  /** The folder's file events; none while a pull writes it (hold). */
  private watcher: vscode.Disposable | undefined;

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
    this.drift = new DriftGroup(this.scm, root, deps);
    this.watcher = this.watch();
    this.disposables.push(
      this.drift,
      this.scm,
      this.vanished,
      { dispose: () => this.watcher?.dispose() },
      deps.files.add(this.key, (file) => this.serviceText(file)),
    );
  }

  /**
   * The folder's file events, each scheduling a read of it; and the folder's own deletion, which a deletion of the
   * whole folder reports instead of one event per file in it.
   */
  private watch(): vscode.Disposable {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(this.root, '**/*'));
    const itself = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.joinPath(this.root, '..'), path.basename(this.root.fsPath)), true, true, false,
    );
    return vscode.Disposable.from(
      watcher,
      itself,
      watcher.onDidCreate(() => this.schedule()),
      watcher.onDidChange(() => this.schedule()),
      watcher.onDidDelete(() => this.schedule()),
      itself.onDidDelete(() => this.schedule()),
    );
  }

  /** Whether the folder still holds its manifest; when it does not, the list goes (onDidVanish). */
  async stillPulled(): Promise<boolean> {
    if ((await this.io.read(MANIFEST_FILE)) !== undefined) return true;
    this.vanished.fire();
    return false;
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

  /**
   * Read mid-pull, the folder's files not in its manifest yet would show as creates (each read of it competing with
   * the pull, as does the delivery of its file events): they are not watched until `release`, after which the pull's
   * end reads it once.
   */
  hold(): void {
    this.watcher?.dispose();
    this.watcher = undefined;
    this.settle.cancel('folder');
  }

  release(): void {
    this.watcher ??= this.watch();
  }

  private schedule(): void {
    this.settle.schedule('folder', () => void this.refreshLocal());
  }

  /** Reads the folder's changes from disk and shows them, with the conflicts of the last check. */
  async refreshLocal(): Promise<void> {
    const generation = ++this.generation;
    try {
      if (!(await this.stillPulled())) return;
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
      this.scm.statusBarCommands = [{ title: '$(error) Not read', tooltip: plain`${messageOf(error)} Click to read the folder again.`, command: COMMANDS.refreshTenantChanges, arguments: [this.scm] }];
    }
  }

  /** The plan of a push of the folder, from the connection Push would use; changes nothing the list shows. */
  async plan(): Promise<Plan> {
    const connection = this.connection(this.local?.manifest ?? (await localPlan(this.io)).manifest);
    if ('problem' in connection) throw new Error(connection.problem);
    return planPush(connection.client, this.io);
  }

  /** Takes a plan made elsewhere (Plan Push, Push) as the last check: its conflicts and the status show it. */
  async adopt(plan: Plan): Promise<void> {
    const connection = this.connection(plan.manifest);
    this.checked = {
      manifest: plan.manifest,
      conflicts: new Map(plan.changes.filter((c) => c.action === 'conflict').map((c) => [c.file, c])),
      connection: 'name' in connection ? connection.name : plan.manifest.connection,
      at: new Date(),
    };
    this.checkError = undefined;
    this.deps.files.reload(this.key);
    await this.refreshLocal();
  }

  /** Checks the folder's changes against the service (the plan of a push): conflicts, and what is already gone there. */
  async check(signal?: AbortSignal): Promise<CheckResult> {
    const connection = await this.client();
    try {
      await this.adopt(await planPush(connection.client, this.io, { signal }));
    } catch (error) {
      this.checked = undefined;
      this.checkError = messageOf(error);
      await this.refreshLocal();
      throw error;
    }
    return this.result();
  }

  /** Asks the service what changed there since the pull and lists it under "Changed on the service". */
  async findDrift(options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {}): Promise<Drifted[]> {
    const connection = await this.client();
    try {
      return await this.drift.fetch(connection.client, this.io, options);
    } finally {
      await this.refreshLocal();
    }
  }

  /** Checks the folder just pulled: its conflicts as Refresh does; its drift is none, as the pull read the service. */
  async afterPull(): Promise<CheckResult> {
    const checked = await this.check();
    if (this.local) {
      this.drift.pulled(this.local.manifest);
      this.render(this.local);
    }
    return { ...checked, ...this.result() };
  }

  /** Checks conflicts and drift, as Refresh does; a failed drift shows on its group and the status, not as a failure. */
  async refresh(options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {}): Promise<CheckResult> {
    const [checked] = await Promise.all([this.check(options.signal), this.findDrift(options).catch((error: unknown) => {
      if (!options.signal?.aborted) this.deps.log.warn(`${this.root.fsPath}: what changed on the service is not known: ${messageOf(error)}`);
    })]);
    return { ...checked, ...this.result() };
  }

  /** Writes the service's version of one resource into the folder (core/tenant/take.ts), and shows the folder as it is then. */
  async take(target: { segment: Segment; id: number }, signal?: AbortSignal): Promise<void> {
    const connection = await this.client();
    try {
      await takeServiceVersion(connection.client, this.io, target, { signal });
    } finally {
      await this.refreshLocal();
    }
    // What the service holds of it was just read: its listing and open documents may show an older state.
    const tenantId = this.local?.manifest.tenantId;
    if (tenantId === undefined) return;
    const { segment, id } = target;
    await this.deps.changes.report(written(segment === 'tenants'
      ? { type: 'tenant', connection: connection.name, tenantId: id }
      : { type: 'resource', connection: connection.name, tenantId, segment, id }));
  }

  /** Whether the folder changed the resource of a JSON file since the pull (its JSON or a text file). */
  changedLocally(file: string): boolean {
    return this.local?.changes.some((change) => change.file === file) ?? false;
  }

  /** The drift last found that still holds, for Take Service Version from the palette. */
  currentDrift(): Drifted[] {
    return this.local ? this.drift.current(this.local.manifest) : [];
  }

  /** How the list stands after a check, as Refresh returns it. */
  private result(): CheckResult {
    const plan = this.local;
    if (!plan) throw new Error(`${this.root.fsPath}: the folder was not read.`);
    const drift = this.drift.summary(plan.manifest);
    return {
      changes: plan.changes.length,
      conflicts: this.checked ? plan.changes.filter((c) => this.checked?.conflicts.has(c.file)).length : 0,
      problems: plan.problems.length,
      ...(drift.count === undefined ? {} : { drifted: drift.count }),
      status: this.scm.statusBarCommands?.[0]?.title ?? '',
    };
  }

  /** The connection the folder's commands use, or a failure that says why there is none. */
  private async client(): Promise<{ name: string; client: ServiceClient }> {
    const manifest = this.local?.manifest ?? (await localPlan(this.io)).manifest;
    const connection = this.connection(manifest);
    if ('problem' in connection) {
      await this.refreshLocal();
      throw new Error(connection.problem);
    }
    return connection;
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
    // Conflicts hold while the folder's manifest is the one the plan was made against: not after a push or a pull.
    const checked = this.checked && isDeepStrictEqual(this.checked.manifest, plan.manifest) ? this.checked : undefined;
    const rows = plan.changes.flatMap((local) => {
      const conflict = checked?.conflicts.get(local.file);
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
        ? diffCommand(this.deps.files.uri(this.key, row.file), right, `${row.file.split('/').pop() ?? row.file} (${serviceSideTitle(connection.name)} ↔ folder)`)
        : { title: 'Open File', command: 'vscode.open', arguments: [right] };
      return new ChangeState(row, uri, command, `tenantFolder:${row.change.action}`);
    });
    this.conflictGroup.resourceStates = states.filter((s) => s.row.change.action === 'conflict');
    this.changeGroup.resourceStates = states.filter((s) => s.row.change.action !== 'conflict');
    this.deps.decorations.publish(this, states);
    this.scm.count = plan.changes.length;
    this.problemGroup.resourceStates = plan.problems.map((problem) => problemState(this.root, problem));
    this.deps.decorations.publish(this.drift, this.drift.render(plan.manifest, 'name' in connection ? connection.name : plan.manifest.connection));
    const status = 'problem' in connection
      ? { text: connection.problem, short: '$(warning) No connection' }
      : statusOf(plan, checked, this.drift.summary(plan.manifest), this.checkError);
    this.scm.statusBarCommands = [{ title: status.short, tooltip: plain`${status.text} Click to check again.`, command: COMMANDS.refreshTenantChanges, arguments: [this.scm] }];
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
    this.settle.dispose();
    // VS Code keeps showing the status of the last list it showed once that list is gone, unless it is emptied first.
    this.scm.statusBarCommands = [];
    this.deps.decorations.withdraw(this);
    this.deps.decorations.withdraw(this.drift);
    for (const disposable of this.disposables) disposable.dispose();
  }
}
