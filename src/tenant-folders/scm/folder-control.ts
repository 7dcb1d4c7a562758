import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import { DisposableStore } from '../../core/disposable-store';
import { plain } from '../../core/plain-text';
import { DiskFolder } from '../../core/tenant/disk-folder';
import type { FolderIO } from '../../core/tenant/folder-io';
import { MANIFEST_FILE, readManifest, type Manifest } from '../../core/tenant/manifest';
import { localPlan, planPush, type LocalPlan, type Plan } from '../../core/tenant/plan';
import type { Drifted } from '../../core/tenant/drift';
import { takeServiceVersion } from '../../core/tenant/take';
import { written } from '../../core/changes';
import type { Segment } from '../../core/resource-kind';
import { messageOf } from '../../core/text';
import { folderConnection, type Connected, type FolderConnection } from '../folders';
import { folderChangeStates } from './change-states';
import type { ScmDeps } from './deps';
import { ChangeGroups } from './change-groups';
import { DriftGroup } from './drift-group';
import { checkResult, labelOf, statusBar, statusOf, type Checked, type CheckResult } from './folder-status';
import { serviceText } from './service-texts';
import { FolderWatcher } from './folder-watcher';

export const PULLED_FOLDER_SCM = 'convai';

/** What a check against the service may be given: a signal that stops it, and its progress. */
interface CheckOptions {
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/**
 * The change list of one pulled folder: what its files changed since the
 * pull, read from disk on every file change (no request), and which of
 * those changes conflict with the service, known after a check (Refresh).
 */
export class PulledFolderControl implements vscode.Disposable {
  private readonly scm: vscode.SourceControl;
  private readonly groups: ChangeGroups;
  private readonly io: FolderIO;
  private readonly key: string;
  private readonly disposables = new DisposableStore();
  private readonly vanished = new vscode.EventEmitter<void>();
  /** The folder's manifest is gone (a folder deleted whole reports no event for the files in it). */
  readonly onDidVanish = this.vanished.event;
  private readonly drift: DriftGroup;
  private local: LocalPlan | undefined;
  private checked: Checked | undefined;
  private checkError: string | undefined;
  /** Each read of the folder gets a number; a slower, older read does not overwrite a newer one. */
  private generation = 0;
  /** The folder's file events, each burst read once; none while a pull writes it (hold). */
  private readonly watcher: FolderWatcher;

  /** The label shows the manifest's tenant and connection: a folder whose manifest says otherwise needs a new control. */
  static async open(root: vscode.Uri, deps: ScmDeps): Promise<PulledFolderControl | undefined> {
    const manifest = await readManifest(new DiskFolder(root.fsPath));
    return manifest ? new PulledFolderControl(root, manifest, deps) : undefined;
  }

  private constructor(
    readonly root: vscode.Uri,
    manifest: Manifest,
    private readonly deps: ScmDeps,
  ) {
    this.io = new DiskFolder(root.fsPath);
    this.key = `service:${root.fsPath}`;
    this.scm = vscode.scm.createSourceControl(PULLED_FOLDER_SCM, labelOf(manifest), root);
    // A tenant folder takes no commit message: how things stand shows in the status bar and the lists.
    this.scm.inputBox.visible = false;
    this.groups = new ChangeGroups(this.scm, root);
    this.drift = new DriftGroup(this.scm, root, deps);
    this.watcher = new FolderWatcher(root, () => void this.refreshLocal());
    this.disposables.push(
      this.drift,
      this.scm,
      this.vanished,
      this.watcher,
      deps.files.add(this.key, (file) => this.serviceText(file)),
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
   * the pull): its file events are ignored until `release`, after which the pull's end reads it once.
   */
  hold(): void {
    this.watcher.hold();
  }

  release(): void {
    this.watcher.release();
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
      const tooltip = plain`${messageOf(error)} Click to read the folder again.`;
      this.scm.statusBarCommands = statusBar(this.scm, '$(error) Not read', tooltip);
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
  async findDrift(options: CheckOptions = {}): Promise<Drifted[]> {
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
  async refresh(options: CheckOptions = {}): Promise<CheckResult> {
    const drift = this.findDrift(options).catch((error: unknown) => {
      if (options.signal?.aborted) return;
      this.deps.log.warn(`${this.root.fsPath}: what changed on the service is not known: ${messageOf(error)}`);
    });
    const [checked] = await Promise.all([this.check(options.signal), drift]);
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
    const name = connection.name;
    const resource =
      segment === 'tenants'
        ? { type: 'tenant' as const, connection: name, tenantId: id }
        : { type: 'resource' as const, connection: name, tenantId, segment, id };
    await this.deps.changes.report(written(resource));
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
    const status = this.scm.statusBarCommands?.[0]?.title ?? '';
    return checkResult(plan, this.checked, this.drift.summary(plan.manifest), status);
  }

  /** The connection the folder's commands use, or a failure that says why there is none. */
  private async client(): Promise<Connected> {
    const manifest = this.local?.manifest ?? (await localPlan(this.io)).manifest;
    const connection = this.connection(manifest);
    if ('problem' in connection) {
      await this.refreshLocal();
      throw new Error(connection.problem);
    }
    return connection;
  }

  /** The connection Push would use, or why there is none. */
  private connection(manifest: Manifest): FolderConnection {
    return folderConnection(this.deps.connections, manifest);
  }

  private render(plan: LocalPlan): void {
    const connection = this.connection(plan.manifest);
    const name = 'name' in connection ? connection.name : undefined;
    // Conflicts hold while the folder's manifest is the one the plan was made against: not after a push or a pull.
    const checked = this.checked && isDeepStrictEqual(this.checked.manifest, plan.manifest) ? this.checked : undefined;
    const service = { files: this.deps.files, key: this.key, connection: name };
    const states = folderChangeStates(plan, checked?.conflicts, this.root, service);
    this.groups.show(states, plan.problems);
    this.deps.decorations.publish(this, states);
    this.scm.count = plan.changes.length;
    this.deps.decorations.publish(this.drift, this.drift.render(plan.manifest, name ?? plan.manifest.connection));
    const status =
      'problem' in connection
        ? { text: connection.problem, short: '$(warning) No connection' }
        : statusOf(plan, checked, this.drift.summary(plan.manifest), this.checkError);
    this.scm.statusBarCommands = statusBar(this.scm, status.short, plain`${status.text} Click to check again.`);
  }

  /** The service's version of a file, for the diffs' service side. */
  private async serviceText(file: string): Promise<string | undefined> {
    const manifest = this.local?.manifest ?? (await readManifest(this.io));
    if (!manifest) return undefined;
    const connection = this.connection(manifest);
    if ('problem' in connection) throw new Error(connection.problem);
    return serviceText(connection.client, manifest, file);
  }

  dispose(): void {
    // VS Code keeps showing the status of the last list it showed once that list is gone, unless it is emptied first.
    this.scm.statusBarCommands = [];
    this.deps.decorations.withdraw(this);
    this.deps.decorations.withdraw(this.drift);
    this.disposables.dispose();
  }
}
