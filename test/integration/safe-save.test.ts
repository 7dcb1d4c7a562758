// The save path against behaviour the spec allows and real services show: fields derived from other resources,
// and detail fields beyond the spec (timestamps) that an update answer leaves out.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ServiceClient } from '../../src/core/client';
import type { JsonObject } from '../../src/core/json';
import { startService, type RunningService } from '../service/server';
import {
  addConnection,
  admin,
  canonical,
  clearFaults,
  diagnosticsWhen,
  documentText,
  documentUri,
  injectFaults,
  kind,
  removeConnection,
  replaceText,
  revertAll,
  writeError,
} from './support';

const TENANT = 1;

describe('safe save: a conflict is a change to a field the save sends', () => {
  const CONNECTION = 'derived';
  let intentId = 0;
  let actionId = 0;
  let actionName = '';

  before(async () => {
    await addConnection(CONNECTION);
    // A sample intent with a linked action: its ai_actions are rendered from the action.
    const intents = await Promise.all(
      (await admin.list(kind('intents'), TENANT)).map((i) => admin.get(kind('intents'), i.id as number, TENANT)),
    );
    const linked = intents.find((i) => Array.isArray(i.ai_actions) && i.ai_actions.length > 0);
    assert.ok(linked, 'the sample data has an intent with an action');
    intentId = linked.id as number;
    const action = (linked.ai_actions as JsonObject[])[0] as JsonObject;
    actionId = action.id as number;
    actionName = String(action.name);
  });
  after(async () => {
    await admin.update(kind('ai_actions'), actionId, { name: actionName }, TENANT);
    await removeConnection(CONNECTION);
  });
  afterEach(revertAll);

  it('saves an intent whose action was renamed elsewhere, and shows the new action name', async () => {
    const uri = documentUri({
      type: 'resource',
      connection: CONNECTION,
      tenantId: TENANT,
      segment: 'intents',
      id: intentId,
    });
    const document = await vscode.workspace.openTextDocument(uri);
    const opened = JSON.parse(document.getText()) as JsonObject;
    await admin.update(kind('ai_actions'), actionId, { name: `${actionName} (renamed elsewhere)` }, TENANT);
    await replaceText(document, canonical({ ...opened, speak: 'Saved although an action was renamed.' }));
    assert.ok(await document.save(), 'no conflict: ai_actions is derived, and not sent');
    const after = await admin.get(kind('intents'), intentId, TENANT);
    assert.equal(after.speak, 'Saved although an action was renamed.');
    await documentText(document, (text) => text === canonical(after), "the document to show the service's detail");
    assert.match(document.getText(), /renamed elsewhere/);
  });
});

describe('safe save after an answer was lost', () => {
  const CONNECTION = 'lost-answer';

  before(async () => addConnection(CONNECTION));
  after(async () => {
    await clearFaults();
    await removeConnection(CONNECTION);
  });
  afterEach(revertAll);

  it('saves again with no conflict when the service holds exactly what the document saves', async () => {
    const id = (await admin.create(kind('ai_functions'), { name: 'lost_answer_fn', description: 'before' }, TENANT))
      .id as number;
    try {
      const uri = documentUri({
        type: 'resource',
        connection: CONNECTION,
        tenantId: TENANT,
        segment: 'ai_functions',
        id,
      });
      const document = await vscode.workspace.openTextDocument(uri);
      const text = canonical({ ...(JSON.parse(document.getText()) as JsonObject), description: 'after' });
      await injectFaults({ match: `PUT /api/v1/ai_functions/${id}`, loseAnswer: true });
      const lost = await writeError(uri, text);
      assert.match(lost.message, /closed the connection/);
      assert.equal(
        (await admin.get(kind('ai_functions'), id, TENANT)).description,
        'after',
        'the service applied the update whose answer was lost',
      );
      await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
      assert.equal((await admin.get(kind('ai_functions'), id, TENANT)).description, 'after');
    } finally {
      await admin.delete(kind('ai_functions'), id, TENANT);
    }
  });
});

describe('safe save against a service with extra timestamp fields', () => {
  const CONNECTION = 'stamped';
  let service: RunningService;
  let client: ServiceClient;
  let id = 0;

  before(async () => {
    service = await startService({ adminToken: 'stamped-admin-token', timestamps: true });
    client = new ServiceClient({ baseUrl: service.url, token: () => service.adminToken });
    await addConnection(CONNECTION, { baseUrl: service.url, token: service.adminToken });
    id = (
      await client.create(
        kind('ai_functions'),
        { name: 'stamped_fn', description: 'before', parameters: { type: 'object', properties: {} } },
        TENANT,
      )
    ).id as number;
  });
  after(async () => {
    await removeConnection(CONNECTION);
    await client.close();
    await service.close();
  });
  afterEach(revertAll);

  it("leaves the document equal to the service's detail after a save, the new updated_at included", async () => {
    const uri = documentUri({
      type: 'resource',
      connection: CONNECTION,
      tenantId: TENANT,
      segment: 'ai_functions',
      id,
    });
    const document = await vscode.workspace.openTextDocument(uri);
    const opened = JSON.parse(document.getText()) as JsonObject;
    assert.equal(typeof opened.updated_at, 'string', 'the detail carries updated_at');
    await replaceText(document, canonical({ ...opened, description: 'after' }));
    assert.ok(await document.save());
    const detail = await client.get(kind('ai_functions'), id, TENANT);
    assert.notEqual(detail.updated_at, opened.updated_at);
    await documentText(document, (text) => text === canonical(detail), 'the document to equal the detail');
  });

  it('is no conflict when only updated_at changed on the service', async () => {
    const uri = documentUri({
      type: 'resource',
      connection: CONNECTION,
      tenantId: TENANT,
      segment: 'ai_functions',
      id,
    });
    const document = await vscode.workspace.openTextDocument(uri);
    const opened = JSON.parse(document.getText()) as JsonObject;
    // An update that changes nothing but the timestamp.
    await client.update(kind('ai_functions'), id, { description: opened.description ?? null }, TENANT);
    await replaceText(
      document,
      canonical({
        ...opened,
        parameters: { type: 'object', properties: { q: { type: 'string', description: 'query' } } },
      }),
    );
    assert.ok(await document.save());
  });

  it('does not flag the fields beyond the schema on a document the user did not touch', async () => {
    const uri = documentUri({
      type: 'resource',
      connection: CONNECTION,
      tenantId: TENANT,
      segment: 'ai_functions',
      id,
    });
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    // A schema problem the JSON support must report proves it has validated the document.
    const opened = JSON.parse(document.getText()) as JsonObject;
    await replaceText(document, canonical({ ...opened, parameters: 'not an object' }));
    const diagnostics = await diagnosticsWhen(
      uri,
      (d) => d.source !== 'ConvAI',
      (all) => all.some((d) => document.getText(d.range).includes('not an object')),
      "VS Code's JSON support to report the bad parameters",
    );
    assert.deepEqual(
      diagnostics
        .filter((d) => /updated_at|created_at/.test(d.message + document.getText(d.range)))
        .map((d) => d.message),
      [],
    );
  });
});
