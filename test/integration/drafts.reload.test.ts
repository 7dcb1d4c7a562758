import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { afterReload, beforeReload, loadPhaseData, savePhaseData } from '../harness/reload';
import { addConnection, admin, documentText, documentUri, kind, removeConnection, replaceText } from './support';

const CONNECTION = 'drafted';
const TENANT = 1;

type Phase = {
  uri: string;
  id: number;
  secret: string;
  marker: string;
};

describe('a draft across a reload of the window', () => {
  beforeReload("is kept when auto-save does not upload an integration's edit", async () => {
    await addConnection(CONNECTION);
    const secret = `draft-secret-${randomBytes(6).toString('hex')}`;
    const marker = `draft-marker-${randomBytes(6).toString('hex')}`;
    const id = (
      await admin.create(
        kind('integrations'),
        { name: 'Drafted CRM', system: 'http_api', technical_id: 'drafted-crm', tec_params: { api_key: secret } },
        TENANT,
      )
    ).id as number;
    const uri = documentUri({
      type: 'resource',
      connection: CONNECTION,
      tenantId: TENANT,
      segment: 'integrations',
      id,
    });
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSaveDelay', 500, vscode.ConfigurationTarget.Global);
    await files.update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    try {
      const document = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(document, { preview: false });
      const saved = new Promise<void>((resolve) => {
        const listener = vscode.workspace.onDidSaveTextDocument((d) => {
          if (d.uri.toString() !== uri.toString()) return;
          listener.dispose();
          resolve();
        });
      });
      await replaceText(document, document.getText().replace('"Drafted CRM"', `"${marker}"`));
      await saved;
    } finally {
      await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
      await files.update('autoSaveDelay', undefined, vscode.ConfigurationTarget.Global);
    }
    savePhaseData('drafts.integration', { uri: uri.toString(), id, secret, marker } satisfies Phase);
  });

  afterReload('shows the draft, and Ctrl+S uploads it with the credential kept', async () => {
    const { uri, id, secret, marker } = loadPhaseData<Phase>('drafts.integration');
    try {
      assert.equal((await admin.get(kind('integrations'), id, TENANT)).name, 'Drafted CRM', 'nothing was uploaded');
      const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
      assert.ok(document.getText().includes(marker), `the draft is shown: ${document.getText()}`);
      assert.ok(!document.getText().includes(secret), 'the credential stays masked');

      await vscode.window.showTextDocument(document, { preview: false });
      await vscode.commands.executeCommand('workbench.action.files.save');
      const stored = await admin.get(kind('integrations'), id, TENANT);
      assert.equal(stored.name, marker, 'Ctrl+S uploaded the draft');
      assert.deepEqual(stored.tec_params, { api_key: secret }, 'the masked credential went back as it was');
      await documentText(document, (text) => text.includes(marker) && !text.includes(secret), 'the saved document');
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
