import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { afterReload, beforeReload, loadPhaseData, savePhaseData } from '../harness/reload';
import { addConnection, admin, canonical, documentUri, kind, removeConnection } from './support';

const CONNECTION = 'reloaded';
const TENANT = 1;

function openEditors(): string[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .map((tab) => (tab.input instanceof vscode.TabInputText ? tab.input.uri.toString() : ''));
}

describe('a reload of the window', () => {
  beforeReload('leaves a convai: editor open', async () => {
    await addConnection(CONNECTION);
    const id = (
      await admin.create(kind('ai_prompts'), { name: 'Survives reloads', user_prompt: 'Hi {{name}}' }, TENANT)
    ).id as number;
    const uri = documentUri({ type: 'resource', connection: CONNECTION, tenantId: TENANT, segment: 'ai_prompts', id });
    await vscode.window.showTextDocument(uri, { preview: false });
    savePhaseData('editors.prompt', { uri: uri.toString(), id });
  });

  afterReload('restores the convai: editor with the service text', async () => {
    const { uri, id } = loadPhaseData<{ uri: string; id: number }>('editors.prompt');
    try {
      assert.ok(openEditors().includes(uri), `${uri} is not among the open editors: ${openEditors().join(', ')}`);
      const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
      assert.equal(document.getText(), canonical(await admin.get(kind('ai_prompts'), id, TENANT)));
      assert.equal(document.isDirty, false);
    } finally {
      // Only its own editor: other reload tests check what else came back.
      const tabs = vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri);
      await vscode.window.tabGroups.close(tabs);
      await removeConnection(CONNECTION);
    }
  });
});
