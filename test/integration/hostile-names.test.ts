// Names a tenant's users choose, shown where VS Code would read them as more than text: a right-to-left override in
// the tree and the flow map's tab, codicon syntax in a tree label, Markdown in the Plan Push preview. Each is shown
// as text (the notifications, the status bar, Go to Resource and the delete dialog: test/ui/hostile-names.ui.test.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DiskFolder } from '../../src/core/tenant/disk-folder';
import { readManifest } from '../../src/core/tenant/manifest';
import { KindNode, ResourceNode, TenantNode, type TreeNode } from '../../src/tree/nodes';
import type { ResourceTreeProvider } from '../../src/tree/provider';
import { ownTree } from './own-tree';
import { addConnection, admin, adminToken, kind, removeConnection } from './support';

const CONNECTION = 'hostile';
const RLO = '\u202E';
/** Read left to right it ends "exe.txt"; shown, the override would make it end "txt.exe". */
const TENANT_NAME = `Hostile ${RLO}txt.exe`;
const ICONS = '$(alert) $(zap) $(check) Approved';
const PROTO = '__proto__';
const LINK = '[click](command:workbench.action.files.newUntitledFile)';

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

describe('hostile names in labels, titles and the plan preview', () => {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-hostile-'));
  let tenantId = 0;

  before(async () => {
    await addConnection(CONNECTION);
    tenantId = (
      await admin.create(kind('tenants'), { name: TENANT_NAME, email: 'ops@hostile.example', package: 'voice' })
    ).id as number;
    for (const [name, group] of [
      [ICONS, `${RLO}puorg`],
      [PROTO, undefined],
      [LINK, undefined],
    ] as const) {
      await admin.create(
        kind('ai_prompts'),
        { name, ...(group ? { group } : {}), system: 'You help.', settings: '{}', function_defs: '[]' },
        tenantId,
      );
    }
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await admin.delete(kind('tenants'), tenantId);
    await removeConnection(CONNECTION);
    fs.rmSync(temp, { recursive: true, force: true });
  });

  it("shows a tenant's and a prompt's name, and a description, in the tree as text: no override, no icon syntax", async () => {
    const own = await ownTree(CONNECTION, adminToken);
    try {
      const { provider } = own;
      const connection = await child(
        provider,
        undefined,
        (node) => node.connectionName === CONNECTION,
        'the connection',
      );
      const tenant = await child(
        provider,
        connection,
        (node) => node instanceof TenantNode && node.tenantId === tenantId,
        'the hostile tenant',
      );
      const tenantItem = await provider.getTreeItem(tenant);
      assert.equal(tenantItem.label, 'Hostile \\u202Etxt.exe');
      const prompts = await child(
        provider,
        tenant,
        (node) => node instanceof KindNode && node.segment === 'ai_prompts',
        'AI Prompts',
      );
      const icons = await child(
        provider,
        prompts,
        (node) => node instanceof ResourceNode && node.summary.name === ICONS,
        'the prompt of icons',
      );
      const item = await provider.getTreeItem(icons);
      assert.equal(item.label, '\\$(alert) \\$(zap) \\$(check) Approved');
      assert.ok(
        typeof item.description === 'string' &&
          item.description.includes('group \\u202Epuorg') &&
          !item.description.includes(RLO),
        String(item.description),
      );
    } finally {
      own.dispose();
    }
  });

  it("names the flow map's tab after the tenant as text", async () => {
    await vscode.commands.executeCommand('convai.showFlowMap', { connection: CONNECTION, tenantId });
    const tab = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('convai.flowMap'));
    assert.equal(tab?.label, `Flow Map: Hostile \\u202Etxt.exe (${CONNECTION})`);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('shows names in the Plan Push preview as text: no emphasis, no link', async () => {
    const folder = path.join(temp, 'hostile');
    await vscode.commands.executeCommand('convai.pullTenant', { connection: CONNECTION, tenantId, folder });
    const manifest = await readManifest(new DiskFolder(folder));
    assert.ok(manifest, 'the pull wrote a manifest');
    for (const name of [PROTO, LINK]) {
      const entry = manifest.resources.find((e) => e.name === name);
      assert.ok(entry, `${name} was pulled`);
      fs.rmSync(path.join(folder, entry.file));
    }
    await vscode.commands.executeCommand('convai.planPush', vscode.Uri.file(folder));
    const shown = await vscode.workspace.openTextDocument(
      vscode.Uri.from({ scheme: 'convai-plan', path: '/Plan of hostile.md', query: folder }),
    );
    // As the preview renders it: VS Code's own Markdown renderer.
    const html = await vscode.commands.executeCommand<string>('markdown.api.render', shown.getText());
    assert.ok(html.includes('<code>__proto__</code>'), html);
    assert.ok(html.includes(`<code>${LINK}</code>`), html);
    assert.ok(!/<strong>proto<\/strong>|<a\s/.test(html), `no name became emphasis or a link: ${html}`);
  });
});
