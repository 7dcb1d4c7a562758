// The tree, Go to Resource and completion on the large tenant (contract "Large tenants": 50,000 prompts), inside the
// extension host. The tree's first level is the extension's own provider asked for the AI Prompts node's children
// and their rows from an empty listing cache each time (test/integration/own-tree.ts), so it holds the listing's
// GET; its floor is that GET and JSON.parse alone. Go to Resource and completion are the extension's, timed once
// their listings are cached, against a bare substring scan of the same names.
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { toResourceUriString } from '../../../src/core/uri';
import { KindNode } from '../../../src/tree/nodes';
import { ownTree } from '../../integration/own-tree';
import { benchConnection, type Pair } from '../protocol';
import type { FloorClient } from './floor-client';

export interface LargeSamples {
  firstLevel: Pair[];
  goToResource: Pair[];
  completion: Pair[];
}

const iterations = { firstLevel: 5, search: 10 };

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** What no index can beat by much: every name folded and searched for the word, as a keystroke without one would. */
function bareScan(names: readonly string[], word: string): number {
  const folded = word.toLowerCase();
  return names.filter((name) => name.toLowerCase().includes(folded)).length;
}

async function firstLevel(client: FloorClient, tenantId: number, token: string, floorFirst: boolean): Promise<Pair> {
  const floor = (): Promise<number> => timed(() => client.send('GET', `/ai_prompts?tenant_id=${tenantId}`));
  const before = floorFirst ? await floor() : undefined;
  const tree = await ownTree(benchConnection, token);
  try {
    const candidate = await timed(async () => {
      const children = await tree.provider.getChildren(new KindNode(benchConnection, tenantId, 'ai_prompts'));
      if (children.length < 2)
        throw new Error(`the AI Prompts node of tenant ${tenantId} shows ${children.length} children`);
      await Promise.all(children.map((child) => tree.provider.getTreeItem(child)));
    });
    return { candidate, floor: before ?? (await floor()) };
  } finally {
    tree.dispose();
  }
}

/** The names the samples type: words of prompt names spread over the tenant, none typed twice. */
function queries(names: readonly string[]): string[] {
  return Array.from(
    { length: iterations.search + 1 },
    (_, n) => names[Math.floor(((n + 0.5) * names.length) / (iterations.search + 1))] ?? '',
  );
}

async function goToResource(tenantId: number, names: readonly string[]): Promise<Pair[]> {
  const search = (query: string): Thenable<unknown> =>
    vscode.commands.executeCommand('convai.goToResource', { connection: benchConnection, tenantId, query });
  const [warmUp, ...typed] = queries(names);
  // The first search loads the tenant's listings; the samples are of a cache that holds them.
  await search(warmUp ?? '');
  const pairs: Pair[] = [];
  for (const query of typed)
    pairs.push({
      candidate: await timed(() => Promise.resolve(search(query))),
      floor: await timed(async () => bareScan(names, query)),
    });
  return pairs;
}

async function completion(tenantId: number, promptId: number, names: readonly string[]): Promise<Pair[]> {
  const uri = vscode.Uri.parse(
    toResourceUriString({
      type: 'resource',
      connection: benchConnection,
      tenantId,
      segment: 'ai_prompts',
      id: promptId,
    }),
  );
  const document = await vscode.workspace.openTextDocument(uri);
  const original = document.getText();
  const pairs: Pair[] = [];
  try {
    const [warmUp, ...typed] = queries(names).map((name) => name.split(' ')[0] ?? '');
    for (const [index, word] of [warmUp ?? '', ...typed].entries()) {
      const edit = new vscode.WorkspaceEdit();
      const text = original.replace(/"next_prompt_id": (\d+|null)/, `"next_prompt_id": ${word}`);
      edit.replace(uri, new vscode.Range(0, 0, document.lineCount, 0), text);
      await vscode.workspace.applyEdit(edit);
      const line = document
        .getText()
        .split('\n')
        .findIndex((each) => each.includes('"next_prompt_id"'));
      const position = new vscode.Position(line, document.lineAt(line).text.indexOf(word) + word.length);
      const candidate = await timed(() =>
        Promise.resolve(vscode.commands.executeCommand('vscode.executeCompletionItemProvider', uri, position)),
      );
      if (index > 0) pairs.push({ candidate, floor: await timed(async () => bareScan(names, word)) });
    }
  } finally {
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  return pairs;
}

export async function measureLarge(client: FloorClient, tenantId: number, token: string): Promise<LargeSamples> {
  const samples: LargeSamples = { firstLevel: [], goToResource: [], completion: [] };
  for (let i = 0; i < iterations.firstLevel; i++)
    samples.firstLevel.push(await firstLevel(client, tenantId, token, i % 2 === 1));
  const prompts = await client.prompts(tenantId);
  const names = prompts.map((prompt) => prompt.name);
  samples.goToResource = await goToResource(tenantId, names);
  const [first] = prompts;
  if (!first) throw new Error('the large tenant holds no prompt');
  samples.completion = await completion(tenantId, first.id, names);
  return samples;
}
