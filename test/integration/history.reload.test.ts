import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { JsonObject } from '../../src/core/client';
import type { RunRecord } from '../../src/core/history';
import { afterReload, beforeReload, loadPhaseData, savePhaseData } from '../harness/reload';
import { addConnection, admin, documentUri, kind, removeConnection } from './support';

const CONNECTION = 'history';
const TENANT = 1;

describe('the run history', () => {
  beforeReload('records a prompt test', async () => {
    await addConnection(CONNECTION);
    const [prompt] = await admin.list(kind('ai_prompts'), TENANT);
    assert.ok(prompt);
    const uri = documentUri({ type: 'resource', connection: CONNECTION, tenantId: TENANT, segment: 'ai_prompts', id: prompt.id as number }).toString();
    const response = await vscode.commands.executeCommand<JsonObject>('convai.testPrompt', { uri, promptText: 'remember me' });
    savePhaseData('history.run', { uri, response });
  });

  afterReload('still holds the run after a reload of the window', async () => {
    const { uri, response } = loadPhaseData<{ uri: string; response: JsonObject }>('history.run');
    try {
      const runs = await vscode.commands.executeCommand<RunRecord[]>('convai.showRunHistory', { uri });
      const run = runs.find((r) => r.inputs.prompt_text === 'remember me');
      assert.ok(run, `the run is in the history: ${JSON.stringify(runs.map((r) => r.inputs))}`);
      assert.deepEqual(run.outcome, { kind: 'ok', response });
    } finally {
      await removeConnection(CONNECTION);
    }
  });
});
