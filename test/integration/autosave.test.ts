import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  addConnection,
  admin,
  canonical,
  clearRequests,
  documentText,
  documentUri,
  kind,
  receivedRequests,
  rejection,
  removeConnection,
  replaceText,
  revertAll,
} from './support';

const CONNECTION = 'autosave';
const TENANT = 1;

/** Resolves once VS Code has finished an auto-save of the document (kept as a draft or uploaded). */
function nextAutoSave(uri: vscode.Uri): Promise<void> {
  return new Promise((resolve, reject) => {
    const willSave = vscode.workspace.onWillSaveTextDocument((event) => {
      if (event.document.uri.toString() !== uri.toString()) return;
      willSave.dispose();
      if (event.reason !== vscode.TextDocumentSaveReason.AfterDelay)
        reject(new Error(`a save with reason ${event.reason} came first`));
    });
    const saved = vscode.workspace.onDidSaveTextDocument((document) => {
      if (document.uri.toString() !== uri.toString()) return;
      saved.dispose();
      resolve();
    });
  });
}

async function puts(path: string): Promise<number> {
  return (await receivedRequests()).filter((r) => r.method === 'PUT' && r.path === path).length;
}

async function diskText(uri: vscode.Uri): Promise<string> {
  return Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
}

async function editAndAutoSave(document: vscode.TextDocument, text: string): Promise<void> {
  const autoSaved = nextAutoSave(document.uri);
  await replaceText(document, text);
  await autoSaved;
}

describe('auto-save', () => {
  const files = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('files');
  const convai = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('convai');
  before(async () => {
    await addConnection(CONNECTION);
    // Long enough that an explicit save right after an edit starts before the auto-save of that edit.
    await files().update('autoSaveDelay', 1000, vscode.ConfigurationTarget.Global);
    await files().update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
  });
  afterEach(async () => {
    await convai().update('uploadOnAutoSave', undefined, vscode.ConfigurationTarget.Global);
    await revertAll();
  });
  after(async () => {
    await files().update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    await files().update('autoSaveDelay', undefined, vscode.ConfigurationTarget.Global);
    await removeConnection(CONNECTION);
  });

  it('keeps valid and invalid text as a draft, sends nothing, and Ctrl+S uploads it', async () => {
    const id = (await admin.create(kind('ai_functions'), { name: 'autosave_fn', description: 'before' }, TENANT))
      .id as number;
    const uri = documentUri({
      type: 'resource',
      connection: CONNECTION,
      tenantId: TENANT,
      segment: 'ai_functions',
      id,
    });
    const path = `/api/v1/ai_functions/${id}`;
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    await clearRequests();

    await editAndAutoSave(document, document.getText().replace('"before"', '"after"'));
    assert.equal(await puts(path), 0, 'an auto-save sends nothing');
    assert.equal((await admin.get(kind('ai_functions'), id, TENANT)).description, 'before');
    assert.equal(document.isDirty, false, "the draft is the document's content now");
    assert.equal(await diskText(uri), document.getText());

    const invalid = '{ "name": "autosave_fn", "description": ';
    await editAndAutoSave(document, invalid);
    assert.equal(await puts(path), 0, 'invalid JSON is never sent');
    assert.equal(await diskText(uri), invalid, 'the invalid text is kept, not lost');

    await replaceText(
      document,
      canonical({ ...(await admin.get(kind('ai_functions'), id, TENANT)), description: 'after ctrl+s' }),
    );
    assert.ok(await document.save());
    assert.equal(await puts(path), 1, 'only the explicit save uploaded');
    assert.equal((await admin.get(kind('ai_functions'), id, TENANT)).description, 'after ctrl+s');
    const error = await rejection(
      vscode.commands.executeCommand('convai.resolveDraft', { uri: uri.toString(), action: 'discard' }),
    );
    assert.match(error.message, /has a draft/, 'the upload ended the draft');
  });

  it("keeps a part's draft when its editor closes, and discarding it shows the service's text", async () => {
    const id = (await admin.create(kind('ai_prompts'), { name: 'Autosaved part', system: 'Be brief.' }, TENANT))
      .id as number;
    const part = vscode.Uri.parse(
      `${documentUri({ type: 'resource', connection: CONNECTION, tenantId: TENANT, segment: 'ai_prompts', id })
        .toString()
        .replace(/\.json$/, '')}/system.md`,
    );
    const document = await vscode.workspace.openTextDocument(part);
    await vscode.window.showTextDocument(document);
    await clearRequests();
    await editAndAutoSave(document, 'Be very brief.');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    const reopened = await vscode.workspace.openTextDocument(part);
    assert.equal(reopened.getText(), 'Be very brief.');
    assert.equal((await admin.get(kind('ai_prompts'), id, TENANT)).system, 'Be brief.');
    assert.equal((await receivedRequests()).filter((r) => r.method === 'PUT').length, 0);

    await vscode.window.showTextDocument(reopened);
    await vscode.commands.executeCommand('convai.resolveDraft', { uri: part.toString(), action: 'discard' });
    await documentText(reopened, (text) => text === 'Be brief.', "the service's system text");
    assert.equal(await diskText(part), 'Be brief.');
  });

  it('with convai.uploadOnAutoSave uploads valid text, and keeps invalid text and conflicts as drafts', async () => {
    await convai().update('uploadOnAutoSave', true, vscode.ConfigurationTarget.Global);
    const id = (await admin.create(kind('ai_functions'), { name: 'uploaded_fn', description: 'one' }, TENANT))
      .id as number;
    const uri = documentUri({
      type: 'resource',
      connection: CONNECTION,
      tenantId: TENANT,
      segment: 'ai_functions',
      id,
    });
    const path = `/api/v1/ai_functions/${id}`;
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    await clearRequests();

    await editAndAutoSave(document, document.getText().replace('"one"', '"two"'));
    assert.equal(await puts(path), 1);
    const saved = await admin.get(kind('ai_functions'), id, TENANT);
    assert.equal(saved.description, 'two');

    const afterUpload = await documentText(document, (text) => text === canonical(saved), 'the saved text');
    await editAndAutoSave(document, afterUpload.replace('"two"', '"three'));
    assert.equal(await puts(path), 1, 'invalid JSON is not sent');

    await admin.update(kind('ai_functions'), id, { description: 'changed by someone else' }, TENANT);
    await clearRequests();
    await editAndAutoSave(document, afterUpload.replace('"two"', '"four"'));
    assert.equal(await puts(path), 0, 'a conflict is not overwritten by an auto-save');
    assert.equal((await admin.get(kind('ai_functions'), id, TENANT)).description, 'changed by someone else');
    assert.equal(await diskText(uri), afterUpload.replace('"two"', '"four"'), 'the text stays, as a draft');
    await vscode.commands.executeCommand('convai.resolveDraft', { uri: uri.toString(), action: 'discard' });
    await documentText(document, (text) => text.includes('changed by someone else'), "the service's version");
  });
});
