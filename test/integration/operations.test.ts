import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { JsonObject } from '../../src/core/json';
import type { RunRecord } from '../../src/core/history';
import {
  addConnection,
  admin,
  canonical,
  clearFaults,
  documentUri,
  injectFaults,
  kind,
  rejection,
  removeConnection,
  replaceText,
} from './support';

const CONNECTION = 'ops';
const READ_ONLY = 'ops-ro';
const TENANT = 1;

function promptUri(id: number, connection = CONNECTION): vscode.Uri {
  return documentUri({ type: 'resource', connection, tenantId: TENANT, segment: 'ai_prompts', id });
}

function integrationUri(id: number, connection = CONNECTION): vscode.Uri {
  return documentUri({ type: 'resource', connection, tenantId: TENANT, segment: 'integrations', id });
}

async function firstIntegration(): Promise<number> {
  const [integration] = await admin.list(kind('integrations'), TENANT);
  assert.ok(integration, 'the sample data has integrations');
  return integration.id as number;
}

describe('prompt tests and integration actions', () => {
  before(async () => {
    await addConnection(CONNECTION);
    await addConnection(READ_ONLY, { readOnly: true });
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await removeConnection(CONNECTION);
    await removeConnection(READ_ONLY);
  });

  it('testPrompt returns the service object unchanged for a sample prompt', async () => {
    const [prompt] = await admin.list(kind('ai_prompts'), TENANT);
    assert.ok(prompt);
    const body = { prompt_text: 'Where is my order?', prompt_params: { customer_name: 'Ada' } };
    const result = await vscode.commands.executeCommand<JsonObject>('convai.testPrompt', {
      uri: promptUri(prompt.id as number).toString(),
      promptText: body.prompt_text,
      promptParams: body.prompt_params,
    });
    assert.deepEqual(result, await admin.testPrompt(kind('ai_prompts'), prompt.id as number, TENANT, body));
  });

  it('keeps a prompt parameter named __proto__ in what it sends and in the run it records', async () => {
    const [prompt] = await admin.list(kind('ai_prompts'), TENANT);
    assert.ok(prompt);
    const uri = promptUri(prompt.id as number);
    const promptParams = JSON.parse('{"__proto__": "kept", "customer_name": "Ada"}') as JsonObject;
    const result = await vscode.commands.executeCommand<JsonObject>('convai.testPrompt', {
      uri: uri.toString(),
      promptText: 'Hello',
      promptParams,
    });
    assert.equal(
      JSON.stringify(result.next_prompt_params),
      '{"__proto__":"kept","customer_name":"Ada"}',
      'the service received it',
    );
    const [run] = await vscode.commands.executeCommand<RunRecord[]>('convai.showRunHistory', { uri: uri.toString() });
    assert.equal(
      JSON.stringify(run?.inputs.prompt_params),
      '{"__proto__":"kept","customer_name":"Ada"}',
      'the results panel shows the run it recorded',
    );
  });

  it('executeAction returns the service object for an integration', async () => {
    const result = await vscode.commands.executeCommand('convai.executeAction', {
      uri: integrationUri(await firstIntegration()).toString(),
      action: 'ping',
    });
    assert.deepEqual(result, { result: 'pong', status: 'success' });
  });

  it('returns a failing action status to the caller as the service gave it, and records it as a failure', async () => {
    const uri = integrationUri(await firstIntegration());
    const result = await vscode.commands.executeCommand<JsonObject>('convai.executeAction', {
      uri: uri.toString(),
      action: 'fail',
      params: { reason: 'CRM is down' },
    });
    assert.notEqual(result.status, 'success');
    const [run] = await vscode.commands.executeCommand<RunRecord[]>('convai.showRunHistory', { uri: uri.toString() });
    assert.equal(run?.outcome.kind, 'failed-status');
  });

  it('rejects with the HTTP status and the service reason when the service refuses', async () => {
    const uri = integrationUri(await firstIntegration());
    const error = await rejection(
      vscode.commands.executeCommand('convai.executeAction', { uri: uri.toString(), action: 'no_such_action' }),
    );
    assert.match(error.message, /422 Unprocessable Entity: action/);
    const deactivated = (await admin.create(kind('ai_prompts'), { name: 'Switched off', mode: 2 }, TENANT))
      .id as number;
    const promptError = await rejection(
      vscode.commands.executeCommand('convai.testPrompt', { uri: promptUri(deactivated).toString(), promptText: 'hi' }),
    );
    assert.match(promptError.message, /422 .*deactivated/);
    const [run] = await vscode.commands.executeCommand<RunRecord[]>('convai.showRunHistory', { uri: uri.toString() });
    assert.equal(run?.outcome.kind, 'error');
  });

  it('reports an answer that is not JSON as such, naming its content type, not as an HTTP error', async () => {
    const id = await firstIntegration();
    const uri = integrationUri(id);
    await injectFaults({
      match: `POST /api/v1/integrations/${id}/execute_action`,
      status: 200,
      body: '<html><body>Signed out</body></html>',
      contentType: 'text/html',
    });
    try {
      const error = await rejection(
        vscode.commands.executeCommand('convai.executeAction', { uri: uri.toString(), action: 'ping' }),
      );
      assert.match(error.message, /answered 200 with a body that is not valid JSON \(content type text\/html\)/);
      const [run] = await vscode.commands.executeCommand<RunRecord[]>('convai.showRunHistory', { uri: uri.toString() });
      assert.ok(run?.outcome.kind === 'error', `the run's outcome: ${JSON.stringify(run?.outcome)}`);
      assert.equal(run.outcome.status, undefined, 'the results panel shows "HTTP error <status>" for a status');
    } finally {
      await clearFaults();
    }
  });

  it('runs unsaved edits as a trial, saving nothing, and records that; with "saved", the saved version', async () => {
    const id = (
      await admin.create(kind('ai_prompts'), { name: 'Dirty run', user_prompt: 'Saved text for {{who}}' }, TENANT)
    ).id as number;
    const uri = promptUri(id);
    const document = await vscode.workspace.openTextDocument(uri);
    await replaceText(document, document.getText().replace('Saved text', 'Unsaved text'));
    assert.ok(document.isDirty);
    const test = (): Thenable<JsonObject> =>
      vscode.commands.executeCommand<JsonObject>('convai.testPrompt', {
        uri: uri.toString(),
        promptText: 'hi',
        promptParams: { who: 'Ada' },
      });
    const latest = async (): Promise<RunRecord | undefined> =>
      (await vscode.commands.executeCommand<RunRecord[]>('convai.showRunHistory', { uri: uri.toString() }))[0];

    assert.equal((await test()).altered_prompt, 'Unsaved text for Ada', 'the edit answered, through a copy');
    const trial = await latest();
    assert.deepEqual(trial?.version, { unsavedChanges: false, trial: true });
    assert.ok(document.isDirty, 'nothing was saved');
    assert.equal((await admin.get(kind('ai_prompts'), id, TENANT)).user_prompt, 'Saved text for {{who}}');

    const settings = vscode.workspace.getConfiguration('convai');
    await settings.update('tests.unsavedEdits', 'saved', vscode.ConfigurationTarget.Global);
    try {
      assert.equal((await test()).altered_prompt, 'Saved text for Ada');
      const run = await latest();
      assert.ok(run);
      assert.equal(run.version.unsavedChanges, true);
      const savedHash = createHash('sha256')
        .update(canonical(await admin.get(kind('ai_prompts'), id, TENANT)))
        .digest('hex')
        .slice(0, 8);
      assert.equal(run.version.savedHash, savedHash);
      assert.deepEqual(run.inputs, { prompt_text: 'hi', prompt_params: { who: 'Ada' } });
    } finally {
      await settings.update('tests.unsavedEdits', undefined, vscode.ConfigurationTarget.Global);
    }
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it("runs a part's unsaved edits as the prompt's trial", async () => {
    const id = (
      await admin.create(
        kind('ai_prompts'),
        { name: 'Dirty part run', system: 'Saved system', user_prompt: 'Saved user' },
        TENANT,
      )
    ).id as number;
    const part = await vscode.workspace.openTextDocument(
      documentUri({
        type: 'part',
        connection: CONNECTION,
        tenantId: TENANT,
        segment: 'ai_prompts',
        id,
        part: 'user_prompt',
      }),
    );
    await replaceText(part, 'Unsaved user');
    assert.ok(part.isDirty);
    const uri = promptUri(id);
    const answer = await vscode.commands.executeCommand<JsonObject>('convai.testPrompt', {
      uri: uri.toString(),
      promptText: 'hi',
    });
    assert.equal(answer.altered_prompt, 'Unsaved user');
    const [run] = await vscode.commands.executeCommand<RunRecord[]>('convai.showRunHistory', { uri: uri.toString() });
    assert.equal(run?.version.trial, true);
    assert.ok(part.isDirty);
    await vscode.window.showTextDocument(part);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('refuses to execute an action through a read-only connection', async () => {
    const error = await rejection(
      vscode.commands.executeCommand('convai.executeAction', {
        uri: integrationUri(await firstIntegration(), READ_ONLY).toString(),
        action: 'ping',
      }),
    );
    assert.match(error.message, /read-only/);
  });

  it('rejects arguments that name the wrong kind or miss a field', async () => {
    const notPrompt = await rejection(
      vscode.commands.executeCommand('convai.testPrompt', { uri: integrationUri(1).toString(), promptText: 'x' }),
    );
    assert.match(notPrompt.message, /uri must name an AI Prompt/);
    const noText = await rejection(
      vscode.commands.executeCommand('convai.testPrompt', { uri: promptUri(1).toString() }),
    );
    assert.match(noText.message, /promptText must be a non-empty string/);
    const badParams = await rejection(
      vscode.commands.executeCommand('convai.executeAction', {
        uri: integrationUri(1).toString(),
        action: 'echo',
        params: [1],
      }),
    );
    assert.match(badParams.message, /params must be an object/);
  });
});
