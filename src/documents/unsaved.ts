import * as vscode from 'vscode';
import { isFile, toResourceUriString, wholeOf } from '../core/uri';
import type { Drafts } from './drafts';
import { parseUri } from '../shared/locations';

/**
 * The open documents of a resource with unsaved changes: its whole document and its parts, or the document whose
 * URI is the resource itself (a request definition file, which is no resource of the service).
 */
function dirtyViews(resource: string): vscode.TextDocument[] {
  return vscode.workspace.textDocuments.filter((document) => {
    if (!document.isDirty) return false;
    if (document.uri.toString() === resource) return true;
    const location = parseUri(document.uri);
    return location !== undefined && isFile(location) && toResourceUriString(wholeOf(location)) === resource;
  });
}

/** Whether the service lacks edits of a resource made here: unsaved changes in an editor, or a draft. */
export function hasUnsavedEdits(drafts: Drafts, resource: string): boolean {
  return dirtyViews(resource).length > 0 || drafts.ofResource(resource).length > 0;
}

/** Saves a resource's edits to the service, as Ctrl+S in each editor would; true when none is left. */
export async function saveUnsavedEdits(drafts: Drafts, resource: string): Promise<boolean> {
  for (const document of dirtyViews(resource)) {
    if (!(await document.save())) return false;
  }
  for (const key of drafts.ofResource(resource)) await saveInEditor(vscode.Uri.parse(key));
  return !hasUnsavedEdits(drafts, resource);
}

/** Saves a document as Ctrl+S in its editor does: also when it is clean but holds a draft, which document.save() skips. */
export async function saveInEditor(uri: vscode.Uri): Promise<void> {
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, { preview: false });
  await vscode.commands.executeCommand('workbench.action.files.save');
}
