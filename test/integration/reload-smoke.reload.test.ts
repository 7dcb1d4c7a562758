import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { afterReload, beforeReload, loadPhaseData, savePhaseData } from '../harness/reload';

// A check of the harness's reload itself, with a plain file: the reload tests of the extension's own editors
// build on an editor being restored and on phase data coming through.
describe('a window reload (harness self-check)', () => {
  beforeReload('opens a file in an editor', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the harness opens a workspace folder');
    const file = vscode.Uri.joinPath(folder.uri, 'reload-smoke.txt');
    await vscode.workspace.fs.writeFile(file, Buffer.from('written before the reload\n'));
    await vscode.window.showTextDocument(file, { preview: false });
    savePhaseData('reload-smoke.file', file.toString());
  });

  afterReload('finds the editor open again', () => {
    const file = loadPhaseData<string>('reload-smoke.file');
    const open = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .map((tab) => (tab.input instanceof vscode.TabInputText ? tab.input.uri.toString() : undefined));
    assert.ok(open.includes(file), `${file} is not among the open editors: ${open.join(', ')}`);
  });
});
