import * as path from 'node:path';
import * as vscode from 'vscode';
import { Debouncer } from '../core/debounce';
import { suiteText } from '../shared/suite-target';

/**
 * A kind of test file (`.prompttest.json`, `.judgetest.json`) in the Testing view: every one the workspace holds,
 * kept current as files change on disk or in an editor. `update` reads a file into its items; `removed` drops them.
 */
export function watchTestFiles(
  suffix: string,
  update: (uri: vscode.Uri) => unknown,
  removed: (uri: vscode.Uri) => void,
): vscode.Disposable[] {
  const watcher = vscode.workspace.createFileSystemWatcher(`**/*${suffix}`);
  // An edit re-reads the file once typing pauses: each read parses the whole file and rebuilds its items.
  const edits = new Debouncer();
  return [
    watcher,
    edits,
    watcher.onDidCreate((uri) => void update(uri)),
    watcher.onDidChange((uri) => void update(uri)),
    watcher.onDidDelete(removed),
    vscode.workspace.onDidChangeTextDocument((event) => {
      const { uri } = event.document;
      if (uri.path.endsWith(suffix)) edits.schedule(uri.toString(), () => void update(uri));
    }),
  ];
}

/** Every file of the kind in the workspace, read into its items. */
export async function discoverTestFiles(suffix: string, update: (uri: vscode.Uri) => Promise<unknown>): Promise<void> {
  for (const uri of await vscode.workspace.findFiles(`**/*${suffix}`, '**/node_modules/**')) await update(uri);
}

/** The file's item, found or made, and its text as the user sees it; none, and the item dropped, when it cannot be read. */
export async function fileItem(
  controller: vscode.TestController,
  uri: vscode.Uri,
): Promise<{ item: vscode.TestItem; text: string } | undefined> {
  let text: string;
  try {
    text = await suiteText(uri);
  } catch {
    controller.items.delete(uri.toString());
    return undefined;
  }
  const item =
    controller.items.get(uri.toString()) ?? controller.createTestItem(uri.toString(), path.basename(uri.path), uri);
  controller.items.add(item);
  item.range = new vscode.Range(0, 0, 0, 0);
  return { item, text };
}
