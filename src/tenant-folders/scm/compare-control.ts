import * as vscode from 'vscode';
import { plain } from '../../core/plain-text';
import { COMMANDS } from '../../commands';
import type { Connections } from '../../connections/registry';
import type { Segment } from '../../core/resource-kind';
import type { MemoryFolder } from '../../core/tenant/memory-folder';
import { previewPromotion, pullIntoMemory } from '../../core/tenant/promote';
import { readManifest } from '../../core/tenant/manifest';
import { ChangeState, diffCommand } from './change-states';
import { changedFiles, changeName } from './changed-files';
import type { ScmDeps } from './deps';
import type { TenantRef } from './tenant-refs';
import { plural } from '../../core/text';
import { DisposableStore } from '../../core/disposable-store';

export const COMPARE_SCM = 'convai-compare';

/** Both tenants as pulled into memory when the comparison was made (or last refreshed). */
export interface TenantPair {
  source: MemoryFolder;
  target: MemoryFolder;
}

export interface Comparison {
  /** What promoting every resource would change in the target. */
  changes: Array<{ action: 'create' | 'update'; segment: Segment; name: string; file: string; fields: string[] }>;
  problems: string[];
}

export async function pullPair(connections: Connections, source: TenantRef, target: TenantRef): Promise<TenantPair> {
  const pull = (ref: TenantRef): Promise<MemoryFolder> =>
    pullIntoMemory(connections.client(ref.connection), {
      connection: ref.connection,
      baseUrl: connections.require(ref.connection).baseUrl,
      tenantId: ref.tenantId,
    });
  const [from, to] = await Promise.all([pull(source), pull(target)]);
  return { source: from, target: to };
}

async function tenantName(folder: MemoryFolder, ref: TenantRef): Promise<string> {
  const tenant = (await readManifest(folder))?.resources.find((entry) => entry.segment === 'tenants');
  return `${tenant?.name ?? `tenant ${ref.tenantId}`} (${ref.connection})`;
}

/** How a diff's title names its sides: the connections (staging ↔ production), or the tenants on one connection. */
function sideNames(source: TenantRef, target: TenantRef): string {
  return source.connection === target.connection
    ? `tenant ${target.tenantId} ↔ tenant ${source.tenantId}`
    : `${target.connection} ↔ ${source.connection}`;
}

let comparisons = 0;

/**
 * The change list of a comparison: what promoting the source tenant's
 * resources would change in the target, a row per file with a diff of the
 * target's version against the promoted one. Promote starts from the pair
 * shown here, so what changed on the target since is a conflict.
 */
export class CompareControl implements vscode.Disposable {
  private readonly scm: vscode.SourceControl;
  private readonly group: vscode.SourceControlResourceGroup;
  private readonly key = `compare:${++comparisons}`;
  private readonly disposables = new DisposableStore();
  private promoted: MemoryFolder | undefined;

  static async open(source: TenantRef, target: TenantRef, deps: ScmDeps): Promise<CompareControl> {
    const pair = await pullPair(deps.connections, source, target);
    const label = plain`ConvAI compare: ${await tenantName(pair.source, source)} → ${await tenantName(pair.target, target)}`;
    return new CompareControl(source, target, pair, label, deps);
  }

  private constructor(
    readonly source: TenantRef,
    readonly target: TenantRef,
    private pair: TenantPair,
    label: string,
    private readonly deps: ScmDeps,
  ) {
    this.scm = vscode.scm.createSourceControl(COMPARE_SCM, label);
    // A comparison takes no commit message: how it stands shows in the status bar and in each row's tooltip.
    this.scm.inputBox.visible = false;
    this.group = this.scm.createResourceGroup('promote', 'Changes to promote');
    // What a comparison lists is not work waiting in the workspace: it stays out of the Source Control badge.
    this.scm.count = 0;
    this.disposables.push(
      this.scm,
      deps.files.add(`${this.key}:target`, (file) => Promise.resolve(this.pair.target.files.get(file))),
      deps.files.add(`${this.key}:promoted`, (file) => Promise.resolve(this.promoted?.files.get(file))),
    );
  }

  get label(): string {
    return this.scm.label;
  }

  /** The tenants as last pulled: what a promotion from this list starts from. */
  get tenants(): TenantPair {
    return this.pair;
  }

  /** Whether a command's argument from the Source Control view (the list, its group or rows) belongs to this comparison. */
  owns(arg: unknown): boolean {
    return (
      arg === this.scm || arg === this.group || (arg instanceof ChangeState && this.group.resourceStates.includes(arg))
    );
  }

  /** Pulls both tenants again (after a promotion, or to catch up with either). */
  async refresh(): Promise<Comparison> {
    this.pair = await pullPair(this.deps.connections, this.source, this.target);
    return this.show();
  }

  /** Promotes every resource into a copy of the target and lists what that changes. */
  async show(): Promise<Comparison> {
    const { promotion, folder, plan } = await previewPromotion(this.pair.source, this.pair.target);
    this.promoted = folder;
    const changes = plan.changes.flatMap((change) =>
      change.action === 'delete' ? [] : [{ ...change, action: change.action, name: changeName(change) }],
    );
    const problemsOf = new Map(promotion.resources.map((r) => [r.file, r.problems]));
    const rows = changes.flatMap((change) =>
      changedFiles({
        ...change,
        ...(change.resource ? { values: change.resource.values } : {}),
        problems: problemsOf.get(change.file) ?? [],
      }),
    );
    const sides = sideNames(this.source, this.target);
    const states = rows.map((row) => {
      const right = this.deps.files.uri(`${this.key}:promoted`, row.file);
      const title = `${row.file.split('/').pop() ?? row.file} (${sides})`;
      return new ChangeState(
        row,
        right,
        diffCommand(this.deps.files.uri(`${this.key}:target`, row.file), right, title),
        `compare:${row.change.action}`,
      );
    });
    this.group.resourceStates = states;
    this.deps.decorations.publish(this, states);
    this.deps.files.reload(`${this.key}:target`);
    this.deps.files.reload(`${this.key}:promoted`);
    const { problems } = plan;
    for (const problem of problems) this.deps.log.warn(`${this.scm.label}: ${problem}`);
    const credentials = `Credentials are never copied: updated resources keep ${this.target.connection}'s own.`;
    const standing =
      problems.length > 0
        ? `${plural(problems.length, 'problem')} (see each row's tooltip): promoting everything is refused; select the rows to promote. ${problems.join(' ')}`
        : `${changes.length === 0 ? 'Nothing to promote: the target matches.' : 'Promote sends these (all, or the rows you select).'} ${credentials}`;
    this.scm.statusBarCommands = [
      {
        title:
          problems.length > 0 ? `$(warning) ${problems.length} to resolve` : `$(arrow-up) ${changes.length} to promote`,
        tooltip: standing,
        command: COMMANDS.refreshTenantChanges,
        arguments: [this.scm],
      },
    ];
    return {
      changes: changes.map(({ action, segment, name, file, fields }) => ({ action, segment, name, file, fields })),
      problems,
    };
  }

  dispose(): void {
    this.deps.decorations.withdraw(this);
    this.disposables.dispose();
  }
}
