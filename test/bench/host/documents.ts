// Open, save and listing of prompts of a 5,000-prompt tenant, through `convai:` and through the floor file system,
// both driven the same way through VS Code's API: what a user waits for when a document opens, saves or a folder
// lists. Candidate and floor alternate who goes first; every open and save uses a prompt not read before in this
// extension host, so no cache of either answers it.
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { benchConnection, floorScheme, type Pair, type UsedPrompts } from '../protocol';

type Side = 'candidate' | 'floor';

export interface DocumentPlan {
  tenantId: number;
  /** Prompts of that tenant, each used at most once. */
  promptIds: number[];
  /** How many prompts the tenant holds: a listing must show them all. */
  promptCount: number;
}

const warmUps = 2;

/** Fresh prompts that many opens and saves use, warm-ups included, candidate and floor together. */
export function promptsNeeded(opens: number, saves: number): number {
  return 2 * (opens + warmUps + saves + warmUps);
}

function uriOf(side: Side, path: string): vscode.Uri {
  return vscode.Uri.from({ scheme: side === 'candidate' ? 'convai' : floorScheme, authority: benchConnection, path });
}

async function timed<T>(work: () => Thenable<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/** A fast open that shows an error instead of the prompt must not pass for a fast open. */
function checkShows(document: vscode.TextDocument, id: number): vscode.TextDocument {
  const shown = JSON.parse(document.getText()) as { id?: unknown };
  if (shown.id !== id)
    throw new Error(
      `${document.uri.toString()} opened without prompt ${id}'s detail: ${document.getText().slice(0, 200)}`,
    );
  return document;
}

/** `iterations` pairs after the warm-ups, each side first in every other pair. */
async function interleaved(iterations: number, sample: (side: Side) => Promise<number>): Promise<Pair[]> {
  const pairs: Pair[] = [];
  for (let i = 0; i < warmUps + iterations; i++) {
    const order: Side[] = i % 2 === 0 ? ['candidate', 'floor'] : ['floor', 'candidate'];
    const pair: Pair = { candidate: 0, floor: 0 };
    for (const side of order) pair[side] = await sample(side);
    if (i >= warmUps) pairs.push(pair);
  }
  return pairs;
}

export class DocumentBench {
  private next = 0;
  readonly opened: UsedPrompts = { candidate: [], floor: [] };
  readonly saved: UsedPrompts = { candidate: [], floor: [] };

  constructor(private readonly plan: DocumentPlan) {}

  private freshPrompt(side: Side, used: UsedPrompts): { uri: vscode.Uri; id: number } {
    const id = this.plan.promptIds[this.next++];
    if (id === undefined) throw new Error(`the bench ran out of prompts of tenant ${this.plan.tenantId} to open fresh`);
    used[side].push(id);
    return { uri: uriOf(side, `/tenants/${this.plan.tenantId}/ai_prompts/${id}.json`), id };
  }

  /** openTextDocument of a prompt never read before: stat and readFile, and whatever the provider sends for them. */
  opens(iterations: number): Promise<Pair[]> {
    return interleaved(iterations, async (side) => {
      const { uri, id } = this.freshPrompt(side, this.opened);
      const { ms, value } = await timed(() => vscode.workspace.openTextDocument(uri));
      checkShows(value, id);
      return ms;
    });
  }

  /** save() of a freshly opened prompt whose description was edited; the open and the edit are not timed. */
  saves(iterations: number): Promise<Pair[]> {
    return interleaved(iterations, async (side) => {
      const { uri, id } = this.freshPrompt(side, this.saved);
      const document = checkShows(await vscode.workspace.openTextDocument(uri), id);
      const detail = JSON.parse(document.getText()) as Record<string, unknown>;
      const edit = new vscode.WorkspaceEdit();
      edit.replace(
        uri,
        new vscode.Range(0, 0, document.lineCount, 0),
        `${JSON.stringify({ ...detail, description: `Saved by the bench (${side})` }, null, 2)}\n`,
      );
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`the edit of ${uri.toString()} did not apply`);
      const { ms, value: saved } = await timed(() => document.save());
      if (!saved || document.isDirty)
        throw new Error(`${uri.toString()} was not saved (${side}); see the extension's log`);
      return ms;
    });
  }

  /** readDirectory of the tenant's AI Prompts folder; the ConvAI listings are dropped (convai.refresh) before each. */
  listings(iterations: number): Promise<Pair[]> {
    return interleaved(iterations, async (side) => {
      if (side === 'candidate') await vscode.commands.executeCommand('convai.refresh');
      const uri = uriOf(side, `/tenants/${this.plan.tenantId}/ai_prompts/`);
      const { ms, value: entries } = await timed(() => vscode.workspace.fs.readDirectory(uri));
      const files = entries.filter(([, type]) => type === vscode.FileType.File).length;
      if (files !== this.plan.promptCount)
        throw new Error(`${uri.toString()} listed ${files} files, not the tenant's ${this.plan.promptCount} prompts`);
      return ms;
    });
  }
}
