import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { JsonObject } from '../../src/core/json';
import type { RunRecord } from '../../src/core/history';
import { afterReload, beforeReload, loadPhaseData, savePhaseData } from '../harness/reload';
import { addConnection, admin, documentUri, kind, removeConnection } from './support';

const CONNECTION = 'history';
const TENANT = 1;

/** Resolves once the results panel's tab is open (VS Code restores webviews after the extension starts). */
function resultsPanelTab(): Promise<void> {
  const open = (): boolean =>
    vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .some((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('convai.results'));
  if (open()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      listener.dispose();
      reject(new Error('the results panel did not come back after the reload'));
    }, 10_000);
    const listener = vscode.window.tabGroups.onDidChangeTabs(() => {
      if (!open()) return;
      clearTimeout(timer);
      listener.dispose();
      resolve();
    });
  });
}

describe('the run history', () => {
  beforeReload('records a prompt test', async () => {
    await addConnection(CONNECTION);
    const [prompt] = await admin.list(kind('ai_prompts'), TENANT);
    assert.ok(prompt);
    const uri = documentUri({
      type: 'resource',
      connection: CONNECTION,
      tenantId: TENANT,
      segment: 'ai_prompts',
      id: prompt.id as number,
    }).toString();
    const response = await vscode.commands.executeCommand<JsonObject>('convai.testPrompt', {
      uri,
      promptText: 'remember me',
    });
    // Shown as a user would (a URI, not an argument object), so the results panel is open for the reload.
    await vscode.commands.executeCommand('convai.showRunHistory', vscode.Uri.parse(uri));
    savePhaseData('history.run', { uri, response });
  });

  afterReload('still holds the run after a reload of the window', async () => {
    const { uri, response } = loadPhaseData<{ uri: string; response: JsonObject }>('history.run');
    try {
      const runs = await vscode.commands.executeCommand<RunRecord[]>('convai.showRunHistory', { uri });
      const run = runs.find((r) => r.inputs.prompt_text === 'remember me');
      assert.ok(run, `the run is in the history: ${JSON.stringify(runs.map((r) => r.inputs))}`);
      assert.deepEqual(run.outcome, { kind: 'ok', response });
      await resultsPanelTab();
    } finally {
      await removeConnection(CONNECTION);
    }
  });
});
