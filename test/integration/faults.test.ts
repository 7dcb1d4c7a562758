import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { LIMITS } from '../../src/core/limits';
import {
  addConnection,
  admin,
  clearFaults,
  documentUri,
  injectFaults,
  kind,
  rejection,
  removeConnection,
  replaceText,
} from './support';

const CONNECTION = 'faults';
const TENANT = 1;

function functionUri(id: number): vscode.Uri {
  return documentUri({ type: 'resource', connection: CONNECTION, tenantId: TENANT, segment: 'ai_functions', id });
}

/** A fault answering a GET of one function's detail with this JSON text, for every read VS Code makes. */
async function detailAnswers(id: number, body: string): Promise<void> {
  await injectFaults({
    match: `GET /api/v1/ai_functions/${id}`,
    status: 200,
    body,
    contentType: 'application/json',
    count: 20,
  });
}

async function newFunction(name: string): Promise<number> {
  return (await admin.create(kind('ai_functions'), { name, description: 'fault target' }, TENANT)).id as number;
}

describe('hostile and broken answers', () => {
  before(async () => addConnection(CONNECTION));
  afterEach(async () => clearFaults());
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await removeConnection(CONNECTION);
  });

  it('reports a truncated JSON body clearly', async () => {
    const id = await newFunction('truncated');
    await detailAnswers(id, '{"id": 1, "na');
    const error = await rejection(vscode.workspace.openTextDocument(functionUri(id)));
    assert.match(error.message, /not valid JSON/);
  });

  it('reports an HTML error page by its status, without the HTML', async () => {
    const id = await newFunction('html-page');
    await injectFaults({
      match: `GET /api/v1/ai_functions/${id}`,
      status: 500,
      body: '<!DOCTYPE html><html><body><h1>Oops</h1><script>x()</script></body></html>',
      contentType: 'text/html',
      count: 20,
    });
    const error = await rejection(vscode.workspace.openTextDocument(functionUri(id)));
    assert.match(error.message, /500 Internal Server Error/);
    assert.ok(!/<html|<script/i.test(error.message), error.message);
  });

  it('names a dropped connection after retrying the read', async () => {
    const id = await newFunction('dropped');
    await injectFaults({ match: `GET /api/v1/ai_functions/${id}`, drop: true, count: 20 });
    const error = await rejection(vscode.workspace.openTextDocument(functionUri(id)));
    assert.match(error.message, /closed the connection/);
    assert.match(error.message, /attempts/);
  });

  it('times out a stalled body within the request deadline', async () => {
    const settings = vscode.workspace.getConfiguration('convai');
    await settings.update('requestTimeoutSeconds', 1, vscode.ConfigurationTarget.Global);
    try {
      const id = await newFunction('stalled');
      await injectFaults({
        match: `GET /api/v1/ai_functions/${id}`,
        status: 200,
        body: `{"id": ${id}, "name": "stalled"}`,
        stallBodyMs: 5000,
        count: 20,
      });
      const error = await rejection(vscode.workspace.openTextDocument(functionUri(id)));
      assert.match(error.message, /within 1 s/);
      assert.match(error.message, /try again, or raise convai\.requestTimeoutSeconds\./, "the fix in VS Code's words");
    } finally {
      await settings.update('requestTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('lists 50,000 resources', async () => {
    const many = Array.from({ length: 50_000 }, (_, i) => ({
      id: i + 1,
      name: `fn_${i}`,
      description: 'bulk',
      parameters: null,
    }));
    await injectFaults({
      match: 'GET /api/v1/ai_functions',
      status: 200,
      body: JSON.stringify(many),
      contentType: 'application/json',
      count: 3,
    });
    const entries = await vscode.workspace.fs.readDirectory(
      vscode.Uri.parse(`convai://${CONNECTION}/tenants/${TENANT}/ai_functions/`),
    );
    assert.equal(entries.length, 50_000);
  });

  it('opens a document with a 20 MB field', async () => {
    const id = await newFunction('huge');
    const description = 'x'.repeat(20 * 1024 * 1024);
    await detailAnswers(id, JSON.stringify({ id, name: 'huge', description, parameters: null, tenant_id: TENANT }));
    const document = await vscode.workspace.openTextDocument(functionUri(id));
    assert.ok(document.getText().length > 20 * 1024 * 1024);
  });

  it('sizes a document by what the service holds now, not by one very large answer', async () => {
    const id = await newFunction('once-large');
    const large = 2 * 1024 * 1024;
    await detailAnswers(
      id,
      JSON.stringify({ id, name: 'once-large', description: 'x'.repeat(large), parameters: null, tenant_id: TENANT }),
    );
    assert.ok((await vscode.workspace.fs.stat(functionUri(id))).size > large);
    await clearFaults();
    // A stat within the read window reuses the read it follows (LIMITS.freshRead); this one comes after the window.
    await new Promise((resolve) => setTimeout(resolve, LIMITS.freshRead.value));
    const { size } = await vscode.workspace.fs.stat(functionUri(id));
    assert.ok(size < 1024, `the stat still says ${size} bytes`);
  });

  it('survives 10,000-deep nesting with the data or a clear error', async () => {
    const id = await newFunction('deep');
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    await detailAnswers(
      id,
      `{"id": ${id}, "name": "deep", "description": null, "parameters": {"type": "object", "properties": {}, "x": ${deep}}, "tenant_id": ${TENANT}}`,
    );
    try {
      const document = await vscode.workspace.openTextDocument(functionUri(id));
      assert.ok(document.getText().includes('"deep"'));
    } catch (error) {
      assert.ok(error instanceof Error);
      assert.match(error.message, /deep|nest|JSON|large/i);
    }
  });

  it('keeps __proto__ keys as data and pollutes no prototype', async () => {
    const id = await newFunction('proto');
    await detailAnswers(
      id,
      `{"id": ${id}, "name": "proto", "description": null, "parameters": {"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}, "tenant_id": ${TENANT}}`,
    );
    const document = await vscode.workspace.openTextDocument(functionUri(id));
    assert.match(document.getText(), /"__proto__"/);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
  });

  it('opens a document whose every field has the wrong type', async () => {
    const id = await newFunction('wrong-types');
    await detailAnswers(
      id,
      JSON.stringify({ id: String(id), name: 42, description: ['a'], parameters: 'none', tenant_id: 'one' }),
    );
    const document = await vscode.workspace.openTextDocument(functionUri(id));
    assert.match(document.getText(), /"name": 42/);
  });

  it('keeps an unsaved edit when the service fails during the save', async () => {
    const id = await newFunction('keep-edit');
    const document = await vscode.workspace.openTextDocument(functionUri(id));
    const edited = document.getText().replace('"fault target"', '"my unsaved words"');
    await replaceText(document, edited);
    await injectFaults({
      match: `PUT /api/v1/ai_functions/${id}`,
      status: 500,
      body: '<html>down</html>',
      contentType: 'text/html',
      count: 2,
    });
    assert.equal(await document.save(), false);
    assert.equal(document.isDirty, true);
    assert.equal(document.getText(), edited);
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });
});
