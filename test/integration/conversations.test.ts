// Conversations in the results panel, through the commands' programmatic forms, against the local service, whose
// prompts route an answer to another prompt when the text matches a route in their settings (test/service/README.md).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { addConnection, admin, kind, rejection, removeConnection } from './support';

const CONNECTION = 'conversations';
const TENANT = 1;

interface Turn {
  resource: string;
  runId: string;
  response: { response: string; next_prompt_id: number | null; next_prompt_params: Record<string, unknown> };
}

const uriOf = (id: number): string => `convai://${CONNECTION}/tenants/${TENANT}/ai_prompts/${id}.json`;

describe('conversations in the results panel', () => {
  const prompts = kind('ai_prompts');
  let greeting: number;
  let billing: number;
  let closing: number;
  before(async () => {
    await addConnection(CONNECTION);
    closing = (await admin.create(prompts, { name: 'Conversation Closing' }, TENANT)).id as number;
    const routes = (next: number, params: object): string =>
      JSON.stringify({ routes: [{ when: 'money|bye', next_prompt_id: next, params }] });
    billing = (
      await admin.create(
        prompts,
        { name: 'Conversation Billing', settings: routes(closing, { step: 'closing' }) },
        TENANT,
      )
    ).id as number;
    greeting = (
      await admin.create(
        prompts,
        { name: 'Conversation Greeting', settings: routes(billing, { topic: 'refund' }) },
        TENANT,
      )
    ).id as number;
  });
  after(async () => {
    await removeConnection(CONNECTION);
    for (const id of [greeting, billing, closing]) await admin.delete(prompts, id, TENANT);
  });

  async function firstTurn(): Promise<Pick<Turn, 'resource' | 'runId'>> {
    await vscode.commands.executeCommand('convai.testPrompt', {
      uri: uriOf(greeting),
      promptText: 'I want my money back',
      promptParams: { caller: 'Ada' },
    });
    const [run] = await vscode.commands.executeCommand<Array<{ id: string }>>('convai.showRunHistory', {
      uri: uriOf(greeting),
    });
    assert.ok(run);
    return { resource: uriOf(greeting), runId: run.id };
  }

  it('continues a run whose answer names a next prompt there, with the parameters it carried, and records the turn', async () => {
    const first = await firstTurn();
    const second = await vscode.commands.executeCommand<Turn>('convai.continueConversation', {
      resource: first.resource,
      runId: first.runId,
      promptText: 'money, please',
    });
    assert.equal(second.resource, uriOf(billing), 'the second turn ran on the prompt the first answer named');
    assert.equal(second.response.next_prompt_id, closing);
    assert.deepEqual(
      second.response.next_prompt_params,
      { caller: 'Ada', topic: 'refund', step: 'closing' },
      'the carried parameters were sent on',
    );
    const [recorded] = await vscode.commands.executeCommand<
      Array<{ id: string; conversation?: unknown; inputs: unknown }>
    >('convai.showRunHistory', { uri: uriOf(billing) });
    assert.equal(recorded?.id, second.runId);
    assert.deepEqual(recorded?.conversation, { turn: 2, previous: { resource: first.resource, runId: first.runId } });
    assert.deepEqual(recorded?.inputs, {
      prompt_text: 'money, please',
      prompt_params: { caller: 'Ada', topic: 'refund' },
    });
  });

  it('refuses to continue a run whose answer names no next prompt, naming what it needs', async () => {
    const first = await firstTurn();
    const second = await vscode.commands.executeCommand<Turn>('convai.continueConversation', {
      resource: first.resource,
      runId: first.runId,
      promptText: 'money',
    });
    const third = await vscode.commands.executeCommand<Turn>('convai.continueConversation', {
      resource: second.resource,
      runId: second.runId,
      promptText: 'bye',
    });
    assert.equal(third.response.next_prompt_id, null);
    const error = await rejection(
      vscode.commands.executeCommand('convai.continueConversation', {
        resource: third.resource,
        runId: third.runId,
        promptText: 'more',
      }),
    );
    assert.match(
      error.message,
      /resource and runId must name a recorded test_prompt run whose answer names a next prompt \(next_prompt_id not null\)/,
    );
  });

  it("saves the turns as a conversation case in the first prompt's suite, each expecting the prompt that answered it", async () => {
    const first = await firstTurn();
    const second = await vscode.commands.executeCommand<Turn>('convai.continueConversation', {
      resource: first.resource,
      runId: first.runId,
      promptText: 'money, please',
    });
    const third = await vscode.commands.executeCommand<Turn>('convai.continueConversation', {
      resource: second.resource,
      runId: second.runId,
      promptText: 'bye',
      promptParams: { mood: 'calm' },
    });
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const file = vscode.Uri.joinPath(folder.uri, 'conversation.prompttest.json').fsPath;
    const saved = await vscode.commands.executeCommand<string>('convai.saveAsConversationCase', {
      resource: third.resource,
      runId: third.runId,
      file,
    });
    const text = Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.parse(saved))).toString('utf8');
    const suite = JSON.parse(text.replace(/^\/\/.*$/gm, '')) as { prompt: string; target: unknown; cases: unknown[] };
    assert.equal(suite.prompt, 'Conversation Greeting', "the suite is the first prompt's");
    assert.deepEqual(suite.target, { connection: CONNECTION, tenantId: TENANT });
    assert.equal(suite.cases.length, 1);
    const [savedCase] = suite.cases as Array<{
      name: string;
      prompt_params: unknown;
      turns: Array<{ prompt_text: string; prompt_params?: unknown; expect: { prompt: string } }>;
    }>;
    assert.equal(savedCase?.name, 'conversation: I want my money back');
    assert.deepEqual(savedCase?.prompt_params, { caller: 'Ada' }, "the first turn's parameters are the case's");
    // Each turn: its text, the prompt that answered it, and only the parameters it sent beyond those carried.
    assert.deepEqual(
      savedCase?.turns.map((t) => [t.prompt_text, t.expect.prompt, t.prompt_params]),
      [
        ['I want my money back', 'Conversation Greeting', undefined],
        ['money, please', 'Conversation Billing', undefined],
        ['bye', 'Conversation Closing', { mood: 'calm' }],
      ],
    );
    await vscode.workspace.fs.delete(vscode.Uri.parse(saved));
  });
});
