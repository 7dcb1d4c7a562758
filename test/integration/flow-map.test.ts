// Show Flow Map as a script calls it, in a real VS Code against the local service: a pulled folder's map answered once
// the panel drew it, the same as the core reads from the folder's files, and the live tenant's from the service.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { request } from 'undici';
import * as vscode from 'vscode';
import { folderFlowMap } from '../../src/core/flow-map/folder';
import type { FlowMap } from '../../src/core/flow-map/model';
import { DiskFolder } from '../../src/core/tenant/disk-folder';
import { readManifest } from '../../src/core/tenant/manifest';
import {
  addConnection,
  admin,
  adminToken,
  clearFaults,
  injectFaults,
  kind,
  rejection,
  removeConnection,
  serviceUrl,
} from './support';

const CONNECTION = 'flow-map';
const SCOPED = 'flow-map-tenant';

describe('convai.showFlowMap', () => {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-flow-map-'));
  const folder = path.join(temp, 'acme');

  before(async () => {
    await addConnection(CONNECTION);
    await vscode.commands.executeCommand('convai.pullTenant', { connection: CONNECTION, tenantId: 1, folder });
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await removeConnection(CONNECTION);
    fs.rmSync(temp, { recursive: true, force: true });
  });

  it("answers with a pulled folder's map once the panel drew it: the model the folder's files give", async () => {
    const shown = await vscode.commands.executeCommand<FlowMap>('convai.showFlowMap', { folder });
    const manifest = await readManifest(new DiskFolder(folder));
    assert.ok(manifest, 'the pull wrote a manifest');
    const { map } = await folderFlowMap(new DiskFolder(folder), manifest);
    assert.deepEqual(shown, map);
    assert.ok(
      shown.nodes.some((n) => n.id.startsWith('ai_prompts/') && n.name === 'Order Triage'),
      'the sample prompt is a node by its name',
    );
    const kinds = new Set(shown.edges.map((e) => e.kind));
    for (const kind of ['intent', 'integration'])
      assert.ok(
        kinds.has(kind as FlowMap['edges'][number]['kind']),
        `an edge of kind ${kind} among ${[...kinds].join(', ')}`,
      );
    const tab = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('convai.flowMap'));
    assert.equal(tab?.label, 'Flow Map: acme', 'the panel is open, named after the folder');
  });

  it('draws a reference the folder does not hold as a dangling problem', async () => {
    const file = path.join(folder, 'ai_prompts', 'order-triage.json');
    const prompt = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(file, `${JSON.stringify({ ...prompt, next_prompt_id: 987654 }, null, 2)}\n`);
    const shown = await vscode.commands.executeCommand<FlowMap>('convai.showFlowMap', { folder });
    const from = shown.nodes.find((n) => n.name === 'Order Triage')?.id;
    assert.deepEqual(
      shown.problems.filter((p) => p.kind === 'dangling'),
      [{ kind: 'dangling', from, field: 'next_prompt_id', target: 'ai_prompts/987654' }],
    );
    fs.writeFileSync(file, `${JSON.stringify(prompt, null, 2)}\n`);
  });

  it("answers with the live tenant's map: the same map as its pulled folder, edges of every kind and problems alike", async () => {
    const live = await vscode.commands.executeCommand<FlowMap>('convai.showFlowMap', {
      connection: CONNECTION,
      tenantId: 1,
    });
    const pulled = await vscode.commands.executeCommand<FlowMap>('convai.showFlowMap', { folder });
    assert.deepEqual(live, pulled);
    assert.ok(
      live.edges.some((e) => e.kind === 'action'),
      "an intent's ai_actions are edges",
    );
  });

  it("answers with what the workspace's suites of the tenant reached once one ran: prompts passed or untested, the hand-overs taken", async () => {
    const workspace = vscode.workspace.workspaceFolders?.[0];
    assert.ok(workspace, 'the tests run in a workspace');
    const before = await vscode.commands.executeCommand<FlowMap & { coverage?: unknown }>('convai.showFlowMap', {
      connection: CONNECTION,
      tenantId: 1,
    });
    assert.equal(before.coverage, undefined, 'no suite of the tenant ran yet');
    const prompts = (await admin.list(kind('ai_prompts'), 1)).filter((p) => p.name === 'Order Triage');
    const triage = prompts[0]?.id as number;
    const next = (await admin.get(kind('ai_prompts'), triage, 1)).next_prompt_id as number;
    assert.ok(typeof next === 'number', 'Order Triage hands over to a prompt in the sample data');
    const suite = vscode.Uri.joinPath(workspace.uri, 'flow-map-coverage.prompttest.json');
    await vscode.workspace.fs.writeFile(
      suite,
      Buffer.from(
        JSON.stringify({
          target: { connection: CONNECTION, tenantId: 1 },
          prompt: 'Order Triage',
          cases: [
            {
              name: 'triage hands over',
              turns: [
                { prompt_text: 'Where is order A-1?', expect: { prompt: triage } },
                { prompt_text: 'Thanks', expect: { prompt: next } },
              ],
            },
          ],
        }),
      ),
    );
    try {
      const result = await vscode.commands.executeCommand<{ passed: number }>('convai.runPromptTests', {
        uri: suite.toString(),
      });
      assert.equal(result.passed, 1);
      const shown = await vscode.commands.executeCommand<
        FlowMap & { coverage?: { nodes: Record<string, string>; edges: string[] } }
      >('convai.showFlowMap', { connection: CONNECTION, tenantId: 1 });
      assert.ok(shown.coverage, 'the map carries coverage');
      assert.equal(shown.coverage.nodes[`ai_prompts/${triage}`], 'passed');
      assert.equal(shown.coverage.nodes[`ai_prompts/${next}`], 'passed');
      assert.deepEqual(shown.coverage.edges, [`ai_prompts/${triage} -> ai_prompts/${next}`]);
      const untested = shown.nodes.filter(
        (n) => n.segment === 'ai_prompts' && n.id !== `ai_prompts/${triage}` && n.id !== `ai_prompts/${next}`,
      );
      assert.ok(
        untested.length > 0 && untested.every((n) => shown.coverage?.nodes[n.id] === 'untested'),
        'every other prompt is untested',
      );
      const pulled = await vscode.commands.executeCommand<FlowMap & { coverage?: unknown }>('convai.showFlowMap', {
        folder,
      });
      assert.deepEqual(pulled.coverage, shown.coverage, "the tenant's pulled folder shows the same coverage");
    } finally {
      await vscode.workspace.fs.delete(suite);
    }
  });

  // The map's bundle is loaded apart from the extension's: these hold it to the client's errors (scripts/build.mjs).
  const liveMap = (connection: string): Thenable<FlowMap> =>
    vscode.commands.executeCommand<FlowMap>('convai.showFlowMap', { connection, tenantId: 1 });

  it('leaves out a resource deleted while it reads the live tenant: listed, then 404 for its detail', async () => {
    const before = await liveMap(CONNECTION);
    const id = (await admin.create(kind('ai_prompts'), { name: 'Deleted While Mapped' }, 1)).id as number;
    const listed = await request(`${serviceUrl}/api/v1/ai_prompts?tenant_id=1`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    const list = await listed.body.text();
    assert.ok(list.includes('Deleted While Mapped'), list);
    await admin.delete(kind('ai_prompts'), id, 1);
    // The list answers as it did before the delete; the detail, read after it, is the service's own 404.
    await injectFaults({ match: 'GET /api/v1/ai_prompts', status: 200, body: list, contentType: 'application/json' });
    try {
      assert.deepEqual(await liveMap(CONNECTION), before);
    } finally {
      await clearFaults();
    }
  });

  it('reads the live tenant with its own token, which may not read the tenant record (403)', async () => {
    const token = String((await admin.get(kind('tenants'), 1)).auth_token);
    const scoped = { name: SCOPED, baseUrl: serviceUrl, token, tenantId: 1 };
    await vscode.commands.executeCommand('convai.addConnection', scoped);
    try {
      const live = await liveMap(CONNECTION);
      assert.deepEqual(await liveMap(SCOPED), live);
      const tab = vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('convai.flowMap'));
      assert.equal(tab?.label, `Flow Map: tenant 1 (${SCOPED})`, 'named by its id: the tenant record was refused');
    } finally {
      await removeConnection(SCOPED);
    }
  });

  it('refuses a folder given as a relative path, naming the field', async () => {
    const error = await rejection(vscode.commands.executeCommand('convai.showFlowMap', { folder: 'acme' }));
    assert.match(error.message, /folder must be the absolute path/);
  });
});
