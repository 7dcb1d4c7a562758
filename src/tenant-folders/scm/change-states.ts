import * as vscode from 'vscode';
import type { PlannedChange, LocalPlan } from '../../core/tenant/plan';
import { changedFiles, changeName, describe, type ChangeAction, type ChangedFile } from './changed-files';
import type { ReadOnlyFiles } from './read-only-files';

/** Git's letters and colours, which people already read at a glance. */
const LOOK: Record<ChangeAction, { badge: string; color: string }> = {
  create: { badge: 'A', color: 'gitDecoration.addedResourceForeground' },
  update: { badge: 'M', color: 'gitDecoration.modifiedResourceForeground' },
  delete: { badge: 'D', color: 'gitDecoration.deletedResourceForeground' },
  conflict: { badge: 'C', color: 'gitDecoration.conflictingResourceForeground' },
};

/** A diff side that holds the service's version, as people call it: the service, then which connection reaches it. */
export function serviceSideTitle(connection: string): string {
  return `service: ${connection}`;
}

/** Opens a diff of two versions of a file; `title` names the file and the two sides. */
export function diffCommand(left: vscode.Uri, right: vscode.Uri, title: string): vscode.Command {
  return { title: 'Open Changes', command: 'vscode.diff', arguments: [left, right, title, { preview: true }] };
}

/** A row of a ConvAI change list; the Promote command reads the change back from the rows it is given. */
export class ChangeState implements vscode.SourceControlResourceState {
  readonly decorations: vscode.SourceControlResourceDecorations;

  constructor(
    readonly row: ChangedFile,
    readonly resourceUri: vscode.Uri,
    readonly command: vscode.Command,
    readonly contextValue: string,
  ) {
    const gone = row.removed;
    this.decorations = { tooltip: describe(row), strikeThrough: gone, faded: gone };
  }
}

/**
 * The rows of a pulled folder's changes, a change that the last check found in `conflicts` as a conflict. With a
 * connection, a row opens the diff of the service's side (`files`, under `key`) and the folder's; without, the file.
 */
export function folderChangeStates(
  plan: LocalPlan,
  conflicts: ReadonlyMap<string, PlannedChange> | undefined,
  root: vscode.Uri,
  service: { files: ReadOnlyFiles; key: string; connection: string | undefined },
): ChangeState[] {
  const rows = plan.changes.flatMap((local) => {
    const conflict = conflicts?.get(local.file);
    return changedFiles({
      action: conflict ? 'conflict' : local.action,
      segment: local.segment,
      name: changeName(local),
      file: local.file,
      fields: local.fields,
      ...(local.resource ? { values: local.resource.values } : {}),
      ...(conflict?.reason ? { reason: conflict.reason } : {}),
    });
  });
  const { files, key, connection } = service;
  return rows.map((row) => {
    const uri = vscode.Uri.joinPath(root, ...row.file.split('/'));
    const right = row.removed ? files.empty(row.file) : uri;
    const title = `${row.file.split('/').pop() ?? row.file} (${serviceSideTitle(connection ?? '')} ↔ folder)`;
    const command =
      connection === undefined
        ? { title: 'Open File', command: 'vscode.open', arguments: [right] }
        : diffCommand(files.uri(key, row.file), right, title);
    return new ChangeState(row, uri, command, `tenantFolder:${row.change.action}`);
  });
}

/**
 * The letter and colour of each row's file, in the change lists and, for
 * files on disk, in the Explorer, like Git's. Every list publishes its rows
 * under its own owner.
 */
export class ChangeDecorations implements vscode.FileDecorationProvider, vscode.Disposable {
  private readonly owners = new Map<object, Map<string, vscode.FileDecoration>>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri[]>();
  readonly onDidChangeFileDecorations = this.changed.event;
  private readonly registration = vscode.window.registerFileDecorationProvider(this);

  publish(owner: object, states: readonly ChangeState[]): void {
    const before = this.owners.get(owner) ?? new Map<string, vscode.FileDecoration>();
    const after = new Map(
      states.map((state) => {
        const { badge, color } = LOOK[state.row.change.action];
        return [
          state.resourceUri.toString(),
          new vscode.FileDecoration(badge, describe(state.row), new vscode.ThemeColor(color)),
        ] as const;
      }),
    );
    this.owners.set(owner, after);
    const touched = new Set([...before.keys(), ...after.keys()]);
    if (touched.size > 0) this.changed.fire([...touched].map((uri) => vscode.Uri.parse(uri)));
  }

  withdraw(owner: object): void {
    this.publish(owner, []);
    this.owners.delete(owner);
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const key = uri.toString();
    for (const decorations of this.owners.values()) {
      const decoration = decorations.get(key);
      if (decoration) return decoration;
    }
    return undefined;
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
    this.owners.clear();
  }
}
