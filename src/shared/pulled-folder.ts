import * as path from 'node:path';
import * as vscode from 'vscode';
import { MANIFEST_FILE, readManifest, type Manifest } from '../core/tenant/manifest';
import { DiskFolder } from '../core/tenant/disk-folder';

/**
 * The pulled folder a command names: an absolute path (scripts), a URI (menus,
 * the source-control view), the folder of the active editor's file, or one the
 * user picks among the workspace's pulled folders.
 */
export async function pulledFolder(arg: unknown): Promise<string | undefined> {
  if (typeof arg === 'string') return path.resolve(arg);
  if (arg instanceof vscode.Uri) return arg.fsPath;
  const rootUri =
    typeof arg === 'object' && arg !== null && 'rootUri' in arg ? (arg as { rootUri?: unknown }).rootUri : undefined;
  if (rootUri instanceof vscode.Uri) return rootUri.fsPath;
  const manifests = await vscode.workspace.findFiles(`**/${MANIFEST_FILE}`, '**/node_modules/**', 50);
  const active = vscode.window.activeTextEditor?.document.uri;
  const holding = active && manifests.find((m) => active.fsPath.startsWith(`${path.dirname(m.fsPath)}${path.sep}`));
  if (holding) return path.dirname(holding.fsPath);
  if (manifests.length === 0)
    throw new Error(
      'No pulled tenant folder in this workspace: pull a tenant first with "ConvAI: Pull Tenant to Folder…".',
    );
  if (manifests.length === 1) return path.dirname((manifests[0] as vscode.Uri).fsPath);
  const picked = await vscode.window.showQuickPick(
    manifests.map((m) => ({
      label: vscode.workspace.asRelativePath(path.dirname(m.fsPath)),
      folder: path.dirname(m.fsPath),
    })),
    {
      placeHolder: 'Which pulled tenant folder?',
    },
  );
  return picked?.folder;
}

/** What a command says of a folder it was given that holds no manifest: the fix is a pull. */
export function notPulled(folder: string): Error {
  return new Error(
    `${folder} holds no pulled tenant (no ${MANIFEST_FILE}): pull a tenant into it first with "ConvAI: Pull Tenant to Folder…".`,
  );
}

/** The folder's manifest, or an error that says how to get one. */
export async function manifestOf(folder: string): Promise<Manifest> {
  const manifest = await readManifest(new DiskFolder(folder));
  if (!manifest) throw notPulled(folder);
  return manifest;
}
