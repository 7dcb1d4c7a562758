import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { JsonObject } from '../../src/core/json';
import { CREDENTIAL_MASK } from '../../src/core/credentials';
import {
  addConnection,
  admin,
  adminToken,
  clearFaults,
  documentText,
  documentUri,
  injectFaults,
  kind,
  rejection,
  removeConnection,
  replaceText,
  startRecorder,
  workbenchLogs,
  writeError,
} from './support';

const CONNECTION = 'secrets';
const TENANT = 1;

/** Every file the extension logged to, below code-server's user data folder. */
function extensionLogs(): string {
  return workbenchLogs((file) => /convai/i.test(file));
}

describe('credentials: masked in documents, never in logs or messages', () => {
  const credential = `sentinel-credential-${randomBytes(6).toString('hex')}`;
  const requestKey = `sentinel-request-key-${randomBytes(6).toString('hex')}`;
  let integrationId = 0;
  let tenantToken = '';
  const messages: string[] = [];
  const texts: string[] = [];

  before(async () => {
    await addConnection(CONNECTION);
    integrationId = (
      await admin.create(
        kind('integrations'),
        {
          name: 'Secret LLM',
          system: 'openai',
          technical_id: 'secret-llm',
          tec_params: { model: 'gpt-4o', api_key: credential },
        },
        TENANT,
      )
    ).id as number;
    tenantToken = String((await admin.get(kind('tenants'), TENANT)).auth_token);
  });
  after(async () => {
    await clearFaults();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await removeConnection(CONNECTION);
  });

  const integrationUri = (): vscode.Uri =>
    documentUri({
      type: 'resource',
      connection: CONNECTION,
      tenantId: TENANT,
      segment: 'integrations',
      id: integrationId,
    });

  it('masks a tenant token and integration secrets in their documents', async () => {
    const tenant = await vscode.workspace.openTextDocument(
      documentUri({ type: 'tenant', connection: CONNECTION, tenantId: TENANT }),
    );
    assert.ok(!tenant.getText().includes(tenantToken));
    assert.match(tenant.getText(), new RegExp(`"auth_token": "${CREDENTIAL_MASK}"`));
    const integration = await vscode.workspace.openTextDocument(integrationUri());
    assert.ok(!integration.getText().includes(credential));
    assert.match(integration.getText(), /"model": "gpt-4o"/);
    texts.push(tenant.getText(), integration.getText());
  });

  it('saves an edit without touching the masked secret, and saves a secret the user changed', async () => {
    const document = await vscode.workspace.openTextDocument(integrationUri());
    await replaceText(document, document.getText().replace('"Secret LLM"', '"Secret LLM (EU)"'));
    assert.ok(await document.save());
    let stored = await admin.get(kind('integrations'), integrationId, TENANT);
    assert.equal(stored.name, 'Secret LLM (EU)');
    assert.equal((stored.tec_params as JsonObject).api_key, credential, 'the original secret was sent back');
    await replaceText(document, document.getText().replace(CREDENTIAL_MASK, 'rotated-key'));
    assert.ok(await document.save());
    stored = await admin.get(kind('integrations'), integrationId, TENANT);
    assert.equal((stored.tec_params as JsonObject).api_key, 'rotated-key');
    await documentText(
      document,
      (text) => text.includes(CREDENTIAL_MASK) && !text.includes('rotated-key'),
      'the saved secret masked again',
    );
    await replaceText(document, document.getText().replace(CREDENTIAL_MASK, credential));
    assert.ok(await document.save());
  });

  it('reveals credentials for one document on request', async () => {
    const uri = integrationUri();
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.commands.executeCommand('convai.revealCredentials', { uri: uri.toString() });
    assert.ok(
      document.getText().includes(credential),
      `revealed: ${document.getText().replaceAll(CREDENTIAL_MASK, 'MASK').slice(0, 400)}`,
    );
    const other = await vscode.workspace.openTextDocument(
      documentUri({ type: 'tenant', connection: CONNECTION, tenantId: TENANT }),
    );
    assert.ok(!other.getText().includes(tenantToken), 'other documents stay masked');
  });

  it('keeps tokens and credentials out of errors, results and the log, with trace logging on', async () => {
    // A service that echoes the caller's Authorization header in an error page.
    await injectFaults({
      match: `GET /api/v1/integrations/${integrationId}`,
      status: 500,
      body: `{"error":"bad request from Bearer ${adminToken}"}`,
      count: 1,
    });
    messages.push(
      (
        await rejection(
          vscode.commands.executeCommand('convai.executeAction', {
            uri: integrationUri().toString(),
            action: 'no_such_action',
          }),
        )
      ).message,
    );
    messages.push((await writeError(integrationUri(), '{ broken')).message);
    await addConnection('secrets-wrong', { token: `wrong-${adminToken}` });
    messages.push(
      (await rejection(vscode.workspace.fs.readDirectory(vscode.Uri.parse('convai://secrets-wrong/tenants/')))).message,
    );
    await removeConnection('secrets-wrong');
    const [prompt] = await admin.list(kind('ai_prompts'), TENANT);
    assert.ok(prompt);
    texts.push(
      JSON.stringify(
        await vscode.commands.executeCommand('convai.testPrompt', {
          uri: documentUri({
            type: 'resource',
            connection: CONNECTION,
            tenantId: TENANT,
            segment: 'ai_prompts',
            id: prompt.id as number,
          }).toString(),
          promptText: 'hello',
        }),
      ),
    );
    texts.push(
      JSON.stringify(
        await vscode.commands.executeCommand('convai.executeAction', {
          uri: integrationUri().toString(),
          action: 'ping',
        }),
      ),
    );
    const api = await startRecorder({
      status: 500,
      contentType: 'text/plain',
      body: (r) => `echo of ${r.headers.authorization ?? ''}`,
    });
    try {
      await vscode.commands.executeCommand('convai.storeRequestSecret', { name: 'leak-check', value: requestKey });
      const definition = {
        name: 'Leak check',
        url: `${api.url}/check`,
        method: 'POST',
        api_key: '${secret:leak-check}',
        headers: { Authorization: 'Bearer {{api_key}}' },
        function_definition: {
          type: 'function',
          name: 'leak_check',
          description: 'Checks leaks',
          parameters: { type: 'object', properties: {} },
        },
      };
      texts.push(
        JSON.stringify(await vscode.commands.executeCommand('convai.previewRequest', { definition, arguments: {} })),
      );
      const response = await vscode.commands.executeCommand<JsonObject>('convai.sendRequest', {
        definition,
        arguments: {},
      });
      assert.deepEqual(
        api.received.map((r) => r.headers.authorization),
        [`Bearer ${requestKey}`],
        'the key reached the API',
      );
      assert.equal(response.status, 500);
      const runs = await vscode.commands.executeCommand<unknown[]>('convai.showRunHistory', {
        uri: integrationUri().toString(),
      });
      texts.push(JSON.stringify(runs));
    } finally {
      await api.close();
    }
    const log = extensionLogs();
    for (const [name, secret] of [
      ['the token', adminToken],
      ['the tenant token', tenantToken],
      ['the credential', credential],
      ['the request key', requestKey],
    ] as const) {
      const leak = log.split('\n').find((line) => line.includes(secret));
      assert.equal(leak?.replaceAll(secret, '<SECRET>'), undefined, `${name} is in the extension's log`);
      for (const message of messages) assert.ok(!message.includes(secret), `${name} is in the message: ${message}`);
      for (const text of texts) assert.ok(!text.includes(secret), `${name} is in a result: ${text.slice(0, 200)}`);
    }
    assert.match(log, /authorization[^\n]*redacted/i, 'requests are traced with the Authorization header redacted');
  });
});
