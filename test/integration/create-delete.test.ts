import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { JsonObject } from '../../src/core/json';
import { TENANT_SEGMENTS } from '../../src/core/resources';
import type { Segment } from '../../src/core/resource-kind';
import { addConnection, admin, documentUri, kind, removeConnection, rejection } from './support';

const CONNECTION = 'crud';
const READ_ONLY = 'crud-ro';
const TENANT = 2;

const FIELDS: Readonly<Record<Segment, JsonObject>> = {
  tenants: { name: 'Created Tenant', email: 'owner@created.example', package: 'voice' },
  integrations: { name: 'Created LLM', system: 'openai', technical_id: 'created-llm' },
  ai_prompts: { name: 'Created prompt', user_prompt: 'Hello {{name}}' },
  ai_functions: { name: 'created_fn', parameters: { type: 'object', properties: {} } },
  ai_actions: { name: 'Created action', action_type: 1 },
  agents: { name: 'Created agent' },
  intents: { name: 'created_intent', intent_type: 1 },
  datasources: { name: 'Created text', type: 'text', content: 'Opening hours: 9 to 5' },
};

const SEGMENTS: Segment[] = ['tenants', ...TENANT_SEGMENTS];

function tenantOf(segment: Segment): number | undefined {
  return segment === 'tenants' ? undefined : TENANT;
}

function uriOf(segment: Segment, id: number, connection = CONNECTION): vscode.Uri {
  return documentUri(
    segment === 'tenants'
      ? { type: 'tenant', connection, tenantId: id }
      : { type: 'resource', connection, tenantId: TENANT, segment, id },
  );
}

describe('create and delete', () => {
  before(async () => {
    await addConnection(CONNECTION);
    await addConnection(READ_ONLY, { readOnly: true });
  });
  after(async () => {
    await removeConnection(CONNECTION);
    await removeConnection(READ_ONLY);
  });

  for (const segment of SEGMENTS) {
    it(`creates and deletes ${segment}, returning the service's answers`, async () => {
      const created = await vscode.commands.executeCommand<JsonObject>('convai.createResource', {
        connection: CONNECTION,
        segment,
        fields: FIELDS[segment],
        ...(segment === 'tenants' ? {} : { tenantId: TENANT }),
      });
      assert.equal(typeof created.id, 'number');
      assert.equal(created.name, FIELDS[segment].name);
      const id = created.id as number;
      const stored = await admin.get(kind(segment), id, tenantOf(segment));
      assert.equal(stored.name, FIELDS[segment].name, 'the service holds it');

      const status = await vscode.commands.executeCommand<string>('convai.deleteResource', {
        uri: uriOf(segment, id).toString(),
        confirm: false,
      });
      assert.equal(status, kind(segment).deleteStatus(id));
      const gone = await rejection(admin.get(kind(segment), id, tenantOf(segment)));
      assert.match(gone.message, /404/);
    });
  }

  it('closes the editors of a deleted resource and of its parts', async () => {
    const created = await vscode.commands.executeCommand<JsonObject>('convai.createResource', {
      connection: CONNECTION,
      tenantId: TENANT,
      segment: 'ai_prompts',
      fields: { name: 'Closing prompt', system: 'Soon gone.' },
    });
    const uri = uriOf('ai_prompts', created.id as number);
    const part = vscode.Uri.parse(
      `convai://${CONNECTION}/tenants/${TENANT}/ai_prompts/${String(created.id)}/system.md`,
    );
    await vscode.window.showTextDocument(uri);
    await vscode.window.showTextDocument(part, { viewColumn: vscode.ViewColumn.Beside });
    await vscode.commands.executeCommand('convai.deleteResource', { uri: uri.toString(), confirm: false });
    const open = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter(
        (t) =>
          t.input instanceof vscode.TabInputText && [uri.toString(), part.toString()].includes(t.input.uri.toString()),
      );
    assert.deepEqual(open, []);
  });

  it('refuses writes on a read-only connection, leaving the service unchanged', async () => {
    const before = await admin.list(kind('ai_functions'), TENANT);
    const createError = await rejection(
      vscode.commands.executeCommand('convai.createResource', {
        connection: READ_ONLY,
        tenantId: TENANT,
        segment: 'ai_functions',
        fields: { name: 'nope' },
      }),
    );
    assert.match(createError.message, /read-only/);
    assert.deepEqual(await admin.list(kind('ai_functions'), TENANT), before);
    const target = before[0];
    assert.ok(target);
    const deleteError = await rejection(
      vscode.commands.executeCommand('convai.deleteResource', {
        uri: uriOf('ai_functions', target.id as number, READ_ONLY).toString(),
        confirm: false,
      }),
    );
    assert.match(deleteError.message, /read-only/);
    assert.ok((await admin.get(kind('ai_functions'), target.id as number, TENANT)).id === target.id);
  });

  it('rejects a malformed request naming the field', async () => {
    const noTenant = await rejection(
      vscode.commands.executeCommand('convai.createResource', {
        connection: CONNECTION,
        segment: 'intents',
        fields: {},
      }),
    );
    assert.match(noTenant.message, /tenantId/);
    const badSegment = await rejection(
      vscode.commands.executeCommand('convai.createResource', {
        connection: CONNECTION,
        tenantId: TENANT,
        segment: 'prompts',
        fields: {},
      }),
    );
    assert.match(badSegment.message, /segment must be one of/);
    const missing = await rejection(
      vscode.commands.executeCommand('convai.createResource', {
        connection: CONNECTION,
        tenantId: TENANT,
        segment: 'integrations',
        fields: { name: 'x' },
      }),
    );
    assert.match(missing.message, /422 .*system/);
    const badUri = await rejection(
      vscode.commands.executeCommand('convai.deleteResource', { uri: 'convai://crud/tenants/', confirm: false }),
    );
    assert.match(badUri.message, /uri must name a ConvAI resource/);
  });

  it('lists a tenant as a directory of its seven kinds, and a kind as its resources (a prompt with its folder of parts)', async () => {
    const tenant = await vscode.workspace.fs.readDirectory(
      vscode.Uri.parse(`convai://${CONNECTION}/tenants/${TENANT}/`),
    );
    assert.deepEqual(
      tenant,
      TENANT_SEGMENTS.map((s) => [s, vscode.FileType.Directory]),
    );
    const prompts = await vscode.workspace.fs.readDirectory(
      vscode.Uri.parse(`convai://${CONNECTION}/tenants/${TENANT}/ai_prompts/`),
    );
    const expected = (await admin.list(kind('ai_prompts'), TENANT)).flatMap((p) => [
      [`${String(p.id)}.json`, vscode.FileType.File],
      [String(p.id), vscode.FileType.Directory],
    ]);
    assert.deepEqual(prompts, expected);
    const intents = await vscode.workspace.fs.readDirectory(
      vscode.Uri.parse(`convai://${CONNECTION}/tenants/${TENANT}/intents/`),
    );
    assert.ok(
      intents.every(([name, type]) => name.endsWith('.json') && type === vscode.FileType.File),
      'intents have no parts',
    );
    const tenants = await vscode.workspace.fs.readDirectory(vscode.Uri.parse(`convai://${CONNECTION}/tenants/`));
    assert.ok(tenants.some(([name, type]) => name === `${TENANT}` && type === vscode.FileType.Directory));
    assert.ok(tenants.some(([name, type]) => name === `${TENANT}.json` && type === vscode.FileType.File));
  });
});
