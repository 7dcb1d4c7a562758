import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CommandShells } from '../commands';
import type { JsonObject } from '../core/json';
import { DiskFolder } from '../core/tenant/disk-folder';
import { MANIFEST_FILE, type Manifest } from '../core/tenant/manifest';
import { slug } from '../core/tenant/resource-paths';
import { pullTenant, type PullResult } from '../core/tenant/pull';
import { plain, plainText } from '../core/plain-text';
import { pickTenant } from '../connections/pickers';
import { manifestOf } from '../shared/pulled-folder';
import { cancellable, countProgress } from '../ui/progress';
import type { FolderCommandServices } from './folder-commands';
import { connectionOf } from './folders';

interface PullTarget {
  connection: string;
  tenantId: number;
  name: string;
}

/** `convai.pullTenant`'s answer (contract: `{ folder, resources }`). */
export interface Pulled {
  folder: string;
  resources: number;
}

function tenantId(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new Error("tenantId must be the tenant's integer id.");
  return value;
}

/** The pull itself, as both shells run it: the folder's watchers told, the tenant pulled, what it found logged. */
async function pullInto(
  { connections, events, log }: FolderCommandServices,
  target: PullTarget,
  folder: string,
  run: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
): Promise<PullResult> {
  const connection = connections.require(target.connection);
  const source = { connection: connection.name, baseUrl: connection.baseUrl, tenantId: target.tenantId };
  events.writing(folder);
  try {
    const result = await pullTenant(connections.client(connection.name), new DiskFolder(folder), source, run);
    const folderLog = log.for('tenant-folders');
    folderLog.info(
      `Pulled tenant ${target.tenantId} of ${connection.name} into ${folder}: ${result.resources} resources.`,
    );
    for (const note of result.notes) folderLog.info(note);
    for (const duplicate of result.duplicates) folderLog.warn(duplicate);
    return result;
  } finally {
    events.written(folder, 'pull');
  }
}

/** A pull a user started: with progress and Cancel, and the outcome said. */
async function pullShown(
  services: FolderCommandServices,
  target: PullTarget,
  folder: string,
): Promise<Pulled | undefined> {
  let written = 0;
  const stop = new AbortController();
  let result: PullResult;
  try {
    result = await cancellable(`Pulling ${target.name} into ${folder}`, (signal, progress) => {
      signal.addEventListener('abort', () => stop.abort());
      const report = countProgress(progress, (done, total) => `${done} of ${total} resources`);
      const onProgress = (done: number, total: number): void => {
        written = done;
        report(done, total);
      };
      return pullInto(services, target, folder, { signal, onProgress });
    });
  } catch (error) {
    // Cancel is the user's choice, not a failure: what was written is recorded, and the next pull goes on from it.
    if (!stop.signal.aborted) throw error;
    services.log
      .for('tenant-folders')
      .info(
        `Pull of tenant ${target.tenantId} of ${target.connection} into ${folder} stopped by Cancel after ${written} resources.`,
      );
    void vscode.window.showInformationMessage(
      plain`Pull of ${target.name} stopped: ${folder} holds the ${written} resources pulled so far, recorded in its manifest. Pull again into it to complete it.`,
    );
    return undefined;
  }
  if (result.duplicates.length > 0)
    void vscode.window.showWarningMessage(`Pulled, but names repeat: ${result.duplicates.map(plainText).join(' ')}`);
  const kept =
    result.keptLocalChanges.length > 0
      ? ` Kept your changes in ${result.keptLocalChanges.map(plainText).join(', ')}.`
      : '';
  const inWorkspace = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(folder)) !== undefined;
  const choice = await vscode.window.showInformationMessage(
    `${plain`Pulled ${result.resources} resources of ${target.name} into ${folder}.`}${kept}`,
    ...(inWorkspace ? [] : ['Add to Workspace']),
  );
  if (choice === 'Add to Workspace') {
    vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders?.length ?? 0, 0, {
      uri: vscode.Uri.file(folder),
    });
  }
  return { folder, resources: result.resources };
}

/** The tenant a user pulls: the tree's tenant node, or picked. */
async function tenantToPull(services: FolderCommandServices, arg: unknown): Promise<PullTarget | undefined> {
  if (typeof arg === 'object' && arg !== null && 'connectionName' in arg && 'tenantId' in arg && 'summary' in arg) {
    const node = arg as { connectionName: string; tenantId: number; summary: JsonObject };
    const name = String(node.summary.name ?? `tenant ${node.tenantId}`);
    return { connection: node.connectionName, tenantId: node.tenantId, name };
  }
  return pickTenant(services.connections, services.listings, 'Pull which tenant?');
}

/** What a folder holds, for a pull: nothing (or not there yet), a pulled tenant, or other files. */
async function folderState(folder: vscode.Uri): Promise<'empty' | 'pulled' | 'other'> {
  const entries = await vscode.workspace.fs.readDirectory(folder).then(
    (found) => found,
    () => [],
  );
  if (entries.length === 0) return 'empty';
  return entries.some(([entry]) => entry === MANIFEST_FILE) ? 'pulled' : 'other';
}

/**
 * Where a pull goes: a new folder named after the tenant (made here, as an open dialog cannot make one everywhere),
 * or a folder the user chooses. A folder holding other files is refused for a new folder inside it, since a plan
 * would report every one of them.
 */
async function pickFolder(name: string): Promise<string | undefined> {
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri;
  const base = slug(name) || 'tenant';
  const proposed = workspace && vscode.Uri.joinPath(workspace, base);
  const items: Array<vscode.QuickPickItem & { folder?: vscode.Uri }> = [
    ...(proposed
      ? [
          {
            label: plain`$(new-folder) ${vscode.workspace.asRelativePath(proposed)}`,
            description: 'a folder of the workspace for this tenant',
            folder: proposed,
          },
        ]
      : []),
    { label: '$(folder-opened) Choose a folder…', description: 'an empty folder, or one pulled into before' },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: plain`Pull ${name} into`,
    placeHolder: "The tenant's files go into this folder",
    // The step after the tenant's pick: VS Code gives the keyboard back to where it was as that pick closes, and a
    // pick that closed on losing it would end the pull unasked.
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  let folder =
    picked.folder ??
    (
      await vscode.window.showOpenDialog({
        canSelectFolders: true,
        canSelectFiles: false,
        canSelectMany: false,
        openLabel: 'Pull Here',
        title: plain`Pull ${name} into (an empty folder, or one pulled into before)`,
        defaultUri: workspace,
      })
    )?.[0];
  if (!folder) return undefined;
  if ((await folderState(folder)) === 'other') {
    const inside = vscode.Uri.joinPath(folder, base);
    const fix = `Pull into ${base}/ inside it`;
    const choice = await vscode.window.showWarningMessage(
      plain`${folder.fsPath} holds other files and no pulled tenant (${MANIFEST_FILE}); a plan of it would report every one of them.`,
      { modal: true },
      fix,
    );
    if (choice !== fix) return undefined;
    if ((await folderState(inside)) === 'other')
      throw new Error(
        plain`${inside.fsPath} holds other files too: choose an empty folder, or one pulled into before.`,
      );
    folder = inside;
  }
  await vscode.workspace.fs.createDirectory(folder);
  return folder.fsPath;
}

/** `convai.pullTenant`: a tenant picked (or the tree's) into a folder picked, or `{ connection, tenantId, folder }`. */
export function pullCommand(services: FolderCommandServices): CommandShells<Pulled> {
  return {
    interactive: async (arg) => {
      const target = await tenantToPull(services, arg);
      if (!target) return undefined;
      // Before asking where: a connection that is not there fails now.
      services.connections.require(target.connection);
      const folder = await pickFolder(target.name);
      return folder === undefined ? undefined : pullShown(services, target, folder);
    },
    programmatic: async (args) => {
      const id = tenantId(args.tenantId);
      const target = { connection: String(args.connection ?? ''), tenantId: id, name: `tenant ${id}` };
      services.connections.require(target.connection);
      if (typeof args.folder !== 'string' || !path.isAbsolute(args.folder))
        throw new Error('folder must be an absolute path.');
      const result = await pullInto(services, target, args.folder);
      return { folder: args.folder, resources: result.resources };
    },
  };
}

/** How a folder's tenant is called in messages: its name when it was pulled. */
function tenantName(manifest: Manifest): string {
  return manifest.resources.find((entry) => entry.segment === 'tenants')?.name ?? `tenant ${manifest.tenantId}`;
}

/** Pulls a folder again from where its manifest says it came from, asking nothing else. */
export async function pullAgain(services: FolderCommandServices, folder: string): Promise<void> {
  const manifest = await manifestOf(folder);
  const connection = connectionOf(services.connections, manifest);
  await pullShown(services, { connection, tenantId: manifest.tenantId, name: tenantName(manifest) }, folder);
}
