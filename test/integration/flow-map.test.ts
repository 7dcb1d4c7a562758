// Show Flow Map as a script calls it, in a real VS Code against the local service: a pulled folder's map answered once
// the panel drew it, the same as the core reads from the folder's files, and the live tenant's from the service.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { folderFlowMap } from '../../src/core/flow-map/folder';
import type { FlowMap } from '../../src/core/flow-map/model';
import { diskFolder } from '../../src/core/tenant/folder-io';
import { readManifest } from '../../src/core/tenant/manifest';
import { addConnection, rejection, removeConnection } from './support';

const CONNECTION = 'flow-map';

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

  it('answers with a pulled folder\'s map once the panel drew it: the model the folder\'s files give', async () => {
    const shown = await vscode.commands.executeCommand<FlowMap>('convai.showFlowMap', { folder });
    const manifest = await readManifest(diskFolder(folder));
    assert.ok(manifest, 'the pull wrote a manifest');
    const { map } = await folderFlowMap(diskFolder(folder), manifest);
    assert.deepEqual(shown, map);
    assert.ok(shown.nodes.some((n) => n.id.startsWith('ai_prompts/') && n.name === 'Order Triage'), 'the sample prompt is a node by its name');
    const kinds = new Set(shown.edges.map((e) => e.kind));
    for (const kind of ['intent', 'integration']) assert.ok(kinds.has(kind as FlowMap['edges'][number]['kind']), `an edge of kind ${kind} among ${[...kinds].join(', ')}`);
    const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('convai.flowMap'));
    assert.equal(tab?.label, 'Flow Map: acme', 'the panel is open, named after the folder');
  });

  it('draws a reference the folder does not hold as a dangling problem', async () => {
    const file = path.join(folder, 'ai_prompts', 'order-triage.json');
    const prompt = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(file, `${JSON.stringify({ ...prompt, next_prompt_id: 987654 }, null, 2)}\n`);
    const shown = await vscode.commands.executeCommand<FlowMap>('convai.showFlowMap', { folder });
    const from = shown.nodes.find((n) => n.name === 'Order Triage')?.id;
    assert.deepEqual(shown.problems.filter((p) => p.kind === 'dangling'), [{ kind: 'dangling', from, field: 'next_prompt_id', target: 'ai_prompts/987654' }]);
    fs.writeFileSync(file, `${JSON.stringify(prompt, null, 2)}\n`);
  });

  it('answers with the live tenant\'s map: the same resources as its pulled folder, and every reference the folder holds', async () => {
    const live = await vscode.commands.executeCommand<FlowMap>('convai.showFlowMap', { connection: CONNECTION, tenantId: 1 });
    const pulled = await vscode.commands.executeCommand<FlowMap>('convai.showFlowMap', { folder });
    assert.deepEqual(live.nodes, pulled.nodes);
    const edge = (e: FlowMap['edges'][number]): string => `${e.from} -${e.kind}-> ${e.to}`;
    const liveEdges = new Set(live.edges.map(edge));
    assert.deepEqual(pulled.edges.map(edge).filter((e) => !liveEdges.has(e)), []);
    // The references a pull does not keep yet (an intent's ai_actions, an agent element's function_ids and
    // integration.id) are read from the service's details.
    assert.ok(live.edges.some((e) => e.kind === 'action'), 'an intent\'s ai_actions are edges');
  });

  it('refuses a folder given as a relative path, naming the field', async () => {
    const error = await rejection(vscode.commands.executeCommand('convai.showFlowMap', { folder: 'acme' }));
    assert.match(error.message, /folder must be the absolute path/);
  });
});
