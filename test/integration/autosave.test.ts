import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { addConnection, admin, documentUri, kind, receivedRequests, removeConnection, replaceText } from './support';

const CONNECTION = 'autosave';
const TENANT = 1;

function nextWillSave(uri: vscode.Uri): Promise<vscode.TextDocumentSaveReason> {
  return new Promise((resolve) => {
    const listener = vscode.workspace.onWillSaveTextDocument((event) => {
      if (event.document.uri.toString() !== uri.toString()) return;
      listener.dispose();
      resolve(event.reason);
    });
  });
}

describe('auto-save', () => {
  const settings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('files');
  before(async () => {
    await addConnection(CONNECTION);
    // Long enough that the explicit save below starts before another auto-save of the newer text could, which it
    // would join (50 ms lost that race now and then); short enough for the first auto-save to come quickly.
    await settings().update('autoSaveDelay', 1000, vscode.ConfigurationTarget.Global);
    await settings().update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await settings().update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    await settings().update('autoSaveDelay', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await removeConnection(CONNECTION);
  });

  it('does not upload on its own; Ctrl+S does', async () => {
    const id = (await admin.create(kind('ai_functions'), { name: 'autosave_fn', description: 'before' }, TENANT)).id as number;
    const uri = documentUri({ type: 'resource', connection: CONNECTION, tenantId: TENANT, segment: 'ai_functions', id });
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const autoSaved = nextWillSave(uri);
    await replaceText(document, document.getText().replace('"before"', '"after"'));
    assert.equal(await autoSaved, vscode.TextDocumentSaveReason.AfterDelay);
    assert.equal((await admin.get(kind('ai_functions'), id, TENANT)).description, 'before');
    // A save of the same version would join the running auto-save; a newer version queues behind it.
    await replaceText(document, document.getText().replace('"after"', '"after ctrl+s"'));
    assert.ok(await document.save());
    const puts = (await receivedRequests()).filter((r) => r.method === 'PUT' && r.path === `/api/v1/ai_functions/${id}`);
    assert.equal(puts.length, 1, 'only the explicit save uploaded');
    assert.equal((await admin.get(kind('ai_functions'), id, TENANT)).description, 'after ctrl+s');
  });
});
