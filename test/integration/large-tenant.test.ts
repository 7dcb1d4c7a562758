// The tree, Go to Resource and completion at the size of the contract's "Large tenants": tenant 3 of the second
// local service, 50,000 prompts in 200 groups of 250. The tree is the extension's own provider, over a registry and
// a listing cache of the test's (VS Code gives no reading of another extension's tree), against the service over HTTP.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ServiceClient } from '../../src/core/client';
import type { JsonObject } from '../../src/core/json';
import { GroupNode, KindNode, ResourceNode, TenantNode, type TreeNode } from '../../src/tree/nodes';
import { ResourceTreeProvider } from '../../src/tree/provider';
import { ownTree } from './own-tree';
import { addConnection, documentUri, kind, largeService, removeConnection, replaceText, revertAll } from './support';

const CONNECTION = 'large-tenant';
const TENANT = largeService.tenantId;
const large = new ServiceClient({ baseUrl: largeService.url, token: () => largeService.adminToken });

async function setPageSize(value: number | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('convai').update('treePageSize', value, vscode.ConfigurationTarget.Global);
}

async function child(
  provider: ResourceTreeProvider,
  node: TreeNode | undefined,
  predicate: (node: TreeNode) => boolean,
  what: string,
): Promise<TreeNode> {
  const children = await provider.getChildren(node);
  const found = children.find(predicate);
  assert.ok(found, `${what} among ${children.length} children`);
  return found;
}

function description(provider: ResourceTreeProvider, node: TreeNode): Promise<string> {
  return Promise.resolve(provider.getTreeItem(node)).then((item) => String(item.description ?? ''));
}

describe('a tenant of 50,000 prompts', function () {
  this.timeout(120_000);
  let tree: vscode.Disposable | undefined;
  let provider: ResourceTreeProvider;
  let prompts: KindNode;
  let named: JsonObject;

  before(async () => {
    await addConnection(CONNECTION, { baseUrl: largeService.url, token: largeService.adminToken });
    const own = await ownTree(CONNECTION, largeService.adminToken);
    tree = own;
    provider = own.provider;
    const connection = await child(provider, undefined, (node) => node.connectionName === CONNECTION, 'the connection');
    const tenant = await child(
      provider,
      connection,
      (node) => node instanceof TenantNode && node.tenantId === TENANT,
      'Bulk Co',
    );
    prompts = (await child(
      provider,
      tenant,
      (node) => node instanceof KindNode && node.segment === 'ai_prompts',
      'AI Prompts',
    )) as KindNode;
    const all = await large.list(kind('ai_prompts'), TENANT);
    named = all[42_000] ?? {};
  });

  after(async () => {
    await revertAll();
    await setPageSize(undefined);
    tree?.dispose();
    await removeConnection(CONNECTION);
  });

  it('shows the prompts by group, each with its count, never more than a page under one node', async () => {
    const groups = await provider.getChildren(prompts);
    assert.equal(groups.length, 200);
    assert.ok(groups.every((node) => node instanceof GroupNode && node.by === 'field'));
    const first = groups[0] as GroupNode;
    assert.equal(first.label, 'group-001');
    assert.equal(await description(provider, first), '250');
    assert.equal(await description(provider, prompts), '50000');
    const members = await provider.getChildren(first);
    assert.equal(members.length, 250);
    assert.ok(
      members.every((node) => node instanceof ResourceNode && provider.getParent(node) === first),
      "a prompt's parent is its group",
    );
  });

  it('cuts a group larger than convai.treePageSize into name ranges', async () => {
    await setPageSize(200);
    const groups = await provider.getChildren(prompts);
    assert.equal(groups.length, 200);
    const group = groups.find((node) => node instanceof GroupNode && node.label === 'group-002');
    assert.ok(group instanceof GroupNode);
    const ranges = await provider.getChildren(group);
    assert.ok(
      ranges.every((node) => node instanceof GroupNode && node.by === 'range' && / – /.test(node.label)),
      ranges.map((n) => (n as GroupNode).label).join(', '),
    );
    assert.deepEqual(await Promise.all(ranges.map((node) => description(provider, node))), ['125', '125']);
    for (const range of ranges) assert.equal((await provider.getChildren(range)).length, 125);
  });

  it('finds a prompt among 50,000 with Go to Resource', async () => {
    const found = await vscode.commands.executeCommand<{
      matches: { name: string; id: number; segment: string }[];
      total: number;
    }>('convai.goToResource', { connection: CONNECTION, tenantId: TENANT, query: String(named.name) });
    assert.deepEqual(found.matches[0], {
      name: named.name,
      segment: 'ai_prompts',
      id: named.id,
      tenantId: TENANT,
      uri: documentUri({
        type: 'resource',
        connection: CONNECTION,
        tenantId: TENANT,
        segment: 'ai_prompts',
        id: named.id as number,
      }).toString(),
    });
  });

  it('completes next_prompt_id with the prompts whose names start with the word typed, best first', async () => {
    const all = await large.list(kind('ai_prompts'), TENANT);
    const word = String(named.name).split(' ')[0] ?? '';
    const [best] = all
      .filter((p) => String(p.name).startsWith(`${word} `))
      .sort((a, b) => (String(a.name).toLowerCase() < String(b.name).toLowerCase() ? -1 : 1));
    const uri = documentUri({
      type: 'resource',
      connection: CONNECTION,
      tenantId: TENANT,
      segment: 'ai_prompts',
      id: all[0]?.id as number,
    });
    const document = await vscode.workspace.openTextDocument(uri);
    await replaceText(document, document.getText().replace(/"next_prompt_id": \d+/, `"next_prompt_id": ${word}`));
    const line = document
      .getText()
      .split('\n')
      .findIndex((text) => text.includes('"next_prompt_id"'));
    const position = new vscode.Position(line, document.lineAt(line).text.indexOf(word) + word.length);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      uri,
      position,
    );
    const targets = list.items.filter((item) => item.label !== 'null');
    assert.equal(targets.length, 50, 'a page of targets, not the tenant');
    assert.ok(list.isIncomplete, 'typing more narrows them');
    assert.deepEqual([targets[0]?.insertText, targets[0]?.label], [String(best?.id), best?.name]);
    assert.ok(
      targets.every((item) => String(item.label).startsWith(`${word} `)),
      'every target starts with the word',
    );
  });
});
