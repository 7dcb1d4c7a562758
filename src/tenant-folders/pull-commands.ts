/**
 * Pull Tenant: which tenant, into which folder (a new one named after it, or one pulled into before), and the pull
 * with its progress and Cancel; and a pull again of a folder from where its manifest says it came from.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isProgrammatic } from '../commands';
import type { JsonObject } from '../core/json';
import type { ListingCache } from '../core/listing-cache';
import { diskFolder } from '../core/tenant/folder-io';
import { MANIFEST_FILE, slug, type Manifest } from '../core/tenant/manifest';
import { pullTenant } from '../core/tenant/pull';
import type { Connections } from '../connections/registry';
import type { Log } from '../log';
import { manifestOf } from '../shared/pulled-folder';
import { connectionOf } from './folders';
import { pickTenant } from '../connections/pickers';
import { plain, plainText } from '../core/plain-text';
import type { FolderEvents } from './folder-events';
import { cancellable, countProgress, type Progress } from '../ui/progress';

function integer(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new Error(`${field} must be the tenant's integer id.`);
  return value;
}

/** The tenant a user pulls: the tree's tenant node, or picked. */
async function tenantToPull(
  connections: Connections,
  listings: ListingCache,
  arg: unknown,
): Promise<{ connection: string; tenantId: number; name: string } | undefined> {
  if (typeof arg === 'object' && arg !== null && 'connectionName' in arg && 'tenantId' in arg && 'summary' in arg) {
    const node = arg as { connectionName: string; tenantId: number; summary: JsonObject };
    return {
      connection: node.connectionName,
      tenantId: node.tenantId,
      name: String(node.summary.name ?? `tenant ${node.tenantId}`),
    };
  }
  return pickTenant(connections, listings, 'Pull which tenant?');
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

interface PullTarget {
  connection: string;
  tenantId: number;
  name: string;
}

export async function pull(
  connections: Connections,
  listings: ListingCache,
  log: Log,
  events: FolderEvents,
  arg: unknown,
): Promise<{ folder: string; resources: number } | undefined> {
  const programmatic = isProgrammatic(arg);
  const target = programmatic
    ? {
        connection: String(arg.connection ?? ''),
        tenantId: integer(arg.tenantId, 'tenantId'),
        name: `tenant ${String(arg.tenantId)}`,
      }
    : await tenantToPull(connections, listings, arg);
  if (!target) return undefined;
  // Before asking where: a connection that is not there fails now.
  connections.require(target.connection);
  const folder = programmatic
    ? typeof arg.folder === 'string' && path.isAbsolute(arg.folder)
      ? arg.folder
      : undefined
    : await pickFolder(target.name);
  if (programmatic && !folder) throw new Error('folder must be an absolute path.');
  if (!folder) return undefined;
  return pullInto(connections, log, events, target, folder, programmatic);
}

async function pullInto(
  connections: Connections,
  log: Log,
  events: FolderEvents,
  target: PullTarget,
  folder: string,
  programmatic: boolean,
): Promise<{ folder: string; resources: number } | undefined> {
  const connection = connections.require(target.connection);
  let written = 0;
  const work = (signal?: AbortSignal, progress?: Progress): ReturnType<typeof pullTenant> => {
    const shown = countProgress(progress, (done, total) => `${done} of ${total} resources`);
    return pullTenant(
      connections.client(connection.name),
      diskFolder(folder),
      { connection: connection.name, baseUrl: connection.baseUrl, tenantId: target.tenantId },
      {
        signal,
        onProgress: (done, total) => {
          written = done;
          shown(done, total);
        },
      },
    );
  };
  let result: Awaited<ReturnType<typeof pullTenant>>;
  const stop = new AbortController();
  events.writing(folder);
  try {
    result = programmatic
      ? await work()
      : await cancellable(`Pulling ${target.name} into ${folder}`, (signal, progress) => {
          signal.addEventListener('abort', () => stop.abort());
          return work(signal, progress);
        });
  } catch (error) {
    // Cancel is the user's choice, not a failure: what was written is recorded, and the next pull goes on from it.
    if (!stop.signal.aborted) throw error;
    log
      .for('tenant-folders')
      .info(
        `Pull of tenant ${target.tenantId} of ${connection.name} into ${folder} stopped by Cancel after ${written} resources.`,
      );
    void vscode.window.showInformationMessage(
      plain`Pull of ${target.name} stopped: ${folder} holds the ${written} resources pulled so far, recorded in its manifest. Pull again into it to complete it.`,
    );
    return undefined;
  } finally {
    events.written(folder, 'pull');
  }
  const folderLog = log.for('tenant-folders');
  folderLog.info(
    `Pulled tenant ${target.tenantId} of ${connection.name} into ${folder}: ${result.resources} resources.`,
  );
  for (const note of result.notes) folderLog.info(note);
  for (const duplicate of result.duplicates) folderLog.warn(duplicate);
  if (!programmatic) {
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
    if (choice === 'Add to Workspace')
      vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders?.length ?? 0, 0, {
        uri: vscode.Uri.file(folder),
      });
  }
  return { folder, resources: result.resources };
}

/** How a folder's tenant is called in messages: its name when it was pulled. */
function tenantName(manifest: Manifest): string {
  return manifest.resources.find((entry) => entry.segment === 'tenants')?.name ?? `tenant ${manifest.tenantId}`;
}

/** Pulls a folder again from where its manifest says it came from, asking nothing. */
export async function pullAgain(
  connections: Connections,
  log: Log,
  events: FolderEvents,
  folder: string,
): Promise<void> {
  const manifest = await manifestOf(folder);
  await pullInto(
    connections,
    log,
    events,
    { connection: connectionOf(connections, manifest), tenantId: manifest.tenantId, name: tenantName(manifest) },
    folder,
    false,
  );
}
