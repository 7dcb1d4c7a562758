// A connection's tenants are one cached listing (issue 19): the file system, Go to Resource and the pickers
// read the same one, and the extension's own changes to a tenant make the next reader ask the service again.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { JsonObject } from '../../src/core/json';
import {
  addConnection,
  admin,
  clearRequests,
  kind,
  documentUri,
  receivedRequests,
  removeConnection,
  replaceText,
  revertAll,
} from './support';

const CONNECTION = 'tenant-listing';
const tenantsUri = vscode.Uri.parse(`convai://${CONNECTION}/tenants/`);

async function gets(path: string): Promise<number> {
  return (await receivedRequests()).filter((r) => r.method === 'GET' && r.path === path).length;
}

const tenantListGets = (): Promise<number> => gets('/api/v1/tenants');

/**
 * Go to Resource over all the connection's tenants, as the tree's connection node starts it; its quick pick is
 * closed as soon as it opens (closing before then does nothing), which ends the command.
 */
async function goToResource(): Promise<void> {
  let done = false;
  const command = Promise.resolve(
    vscode.commands.executeCommand('convai.goToResource', { key: CONNECTION, connectionName: CONNECTION }),
  ).finally(() => {
    done = true;
  });
  while (!done) {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await command;
}

async function listedTenants(): Promise<string[]> {
  return (await vscode.workspace.fs.readDirectory(tenantsUri))
    .filter(([, type]) => type === vscode.FileType.Directory)
    .map(([name]) => name);
}

describe('the tenants listing, shared', () => {
  let created: number | undefined;

  before(() => addConnection(CONNECTION));
  after(async () => {
    await revertAll();
    if (created !== undefined) {
      const uri = documentUri({ type: 'tenant', connection: CONNECTION, tenantId: created });
      await vscode.commands.executeCommand('convai.deleteResource', { uri: uri.toString(), confirm: false });
    }
    await removeConnection(CONNECTION);
  });

  it('is one GET for the file system and Go to Resource', async () => {
    await clearRequests();
    const [first, second] = await Promise.all([listedTenants(), listedTenants()]);
    assert.deepEqual(first, second);
    assert.ok(first.includes('1') && first.includes('2'), 'the sample tenants are listed');
    await goToResource();
    assert.ok((await gets('/api/v1/ai_prompts')) > 0, "Go to Resource listed the tenants' resources");
    assert.deepEqual(await listedTenants(), first);
    assert.equal(await tenantListGets(), 1);
  });

  it('is read afresh after a tenant is created, renamed and deleted here', async () => {
    await clearRequests();
    const tenant = await vscode.commands.executeCommand<JsonObject>('convai.createResource', {
      connection: CONNECTION,
      segment: 'tenants',
      fields: { name: 'Listed Tenant', email: 'owner@listed.example', package: 'voice' },
    });
    assert.equal(typeof tenant.id, 'number');
    const id = tenant.id as number;
    created = id;
    assert.ok((await listedTenants()).includes(String(id)), 'the created tenant is listed');
    assert.equal(await tenantListGets(), 1);

    const document = await vscode.workspace.openTextDocument(
      documentUri({ type: 'tenant', connection: CONNECTION, tenantId: id }),
    );
    await replaceText(document, document.getText().replace('"Listed Tenant"', '"Listed Tenant (renamed)"'));
    assert.ok(await document.save());
    await listedTenants();
    assert.equal(await tenantListGets(), 2, 'a saved tenant drops the listing');
    await revertAll();

    await vscode.commands.executeCommand('convai.deleteResource', { uri: document.uri.toString(), confirm: false });
    created = undefined;
    assert.ok(!(await listedTenants()).includes(String(id)), 'the deleted tenant is gone');
    assert.equal(await tenantListGets(), 3);
  });

  it("keeps a kind's listing in the file system until the extension changes that kind", async () => {
    const prompts = vscode.Uri.parse(`convai://${CONNECTION}/tenants/2/ai_prompts/`);
    await vscode.workspace.fs.readDirectory(prompts);
    await clearRequests();
    await vscode.workspace.fs.readDirectory(prompts);
    assert.equal(await gets('/api/v1/ai_prompts'), 0, 'read from the listing');
    const prompt = await vscode.commands.executeCommand<JsonObject>('convai.createResource', {
      connection: CONNECTION,
      tenantId: 2,
      segment: 'ai_prompts',
      fields: { name: 'Listed prompt', user_prompt: 'Hi' },
    });
    const id = prompt.id as number;
    try {
      assert.ok(
        (await vscode.workspace.fs.readDirectory(prompts)).some(([name]) => name === `${id}.json`),
        'the created prompt is listed',
      );
    } finally {
      const uri = documentUri({ type: 'resource', connection: CONNECTION, tenantId: 2, segment: 'ai_prompts', id });
      await vscode.commands.executeCommand('convai.deleteResource', { uri: uri.toString(), confirm: false });
    }
    assert.ok(
      !(await vscode.workspace.fs.readDirectory(prompts)).some(([name]) => name === `${id}.json`),
      'the deleted prompt is gone',
    );
  });

  it('reads the target tenant afresh after a promotion', async () => {
    const name = 'Promoted to listing';
    const source = (await admin.create(kind('ai_prompts'), { name, user_prompt: 'Hi' }, 1)).id as number;
    const prompts = vscode.Uri.parse(`convai://${CONNECTION}/tenants/2/ai_prompts/`);
    const files = async (): Promise<string[]> =>
      (await vscode.workspace.fs.readDirectory(prompts))
        .filter(([, type]) => type === vscode.FileType.File)
        .map(([entry]) => entry);
    const before = new Set(await files());
    let promoted: number | undefined;
    try {
      await vscode.commands.executeCommand('convai.promote', {
        source: { connection: CONNECTION, tenantId: 1 },
        target: { connection: CONNECTION, tenantId: 2 },
        resources: [{ segment: 'ai_prompts', name }],
        confirm: false,
      });
      const added = (await files()).filter((entry) => !before.has(entry));
      assert.equal(added.length, 1, `the promoted prompt is listed: ${added.join(', ')}`);
      promoted = Number.parseInt(added[0] ?? '', 10);
    } finally {
      await admin.delete(kind('ai_prompts'), source, 1);
      if (promoted !== undefined) await admin.delete(kind('ai_prompts'), promoted, 2);
    }
  });
});
