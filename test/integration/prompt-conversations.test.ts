// Conversation cases run in the real VS Code against the local service, whose test_prompt answers with the
// prompt's own next_prompt_id and echoes prompt_params as next_prompt_params (test/service/operations.ts).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { addConnection, admin, kind, removeConnection, type PromptTestResult } from './support';

const CONNECTION = 'conversations';
const TENANT = 2;

describe('prompt test suites: conversations', () => {
  /** Conv Greeting hands over to Conv Billing, which hands over to Conv Closing, which keeps the conversation. */
  const ids: Record<'greeting' | 'billing' | 'closing', number> = { greeting: 0, billing: 0, closing: 0 };
  let uri: vscode.Uri;

  before(async () => {
    await addConnection(CONNECTION);
    const prompts = kind('ai_prompts');
    ids.closing = (await admin.create(prompts, { name: 'Conv Closing', user_prompt: 'Goodbye {{caller}}' }, TENANT))
      .id as number;
    ids.billing = (
      await admin.create(
        prompts,
        {
          name: 'Conv Billing',
          user_prompt: 'Billing for {{caller}}, order {{order_id}}',
          next_prompt_id: ids.closing,
        },
        TENANT,
      )
    ).id as number;
    ids.greeting = (
      await admin.create(
        prompts,
        { name: 'Conv Greeting', user_prompt: 'Hello {{caller}}', next_prompt_id: ids.billing },
        TENANT,
      )
    ).id as number;
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the tests run in a workspace');
    uri = vscode.Uri.joinPath(folder.uri, 'conversation.prompttest.json');
  });

  after(async () => {
    for (const id of Object.values(ids)) if (id !== 0) await admin.delete(kind('ai_prompts'), id, TENANT);
    await vscode.workspace.fs.delete(uri);
    await removeConnection(CONNECTION);
  });

  it('routes each turn by the answer before it, carrying its parameters, and names the prompts of the turn that failed', async () => {
    await vscode.workspace.fs.writeFile(
      uri,
      Buffer.from(
        JSON.stringify(
          {
            target: { connection: CONNECTION, tenantId: TENANT },
            prompt: 'Conv Greeting',
            cases: [
              {
                name: 'refund goes to billing',
                prompt_params: { caller: 'Ada' },
                repeat: 2,
                turns: [
                  { prompt_text: 'Hello', expect: { prompt: 'Conv Greeting', altered_prompt: 'Hello Ada' } },
                  {
                    prompt_text: 'I want my money back',
                    prompt_params: { order_id: 'A-1' },
                    expect: {
                      prompt: ids.billing,
                      altered_prompt: 'Billing for Ada, order A-1',
                      response: { speakable: true, maxWords: 12 },
                    },
                  },
                  { prompt_text: 'Thanks', expect: { prompt: 'Conv Closing', altered_prompt: 'Goodbye Ada' } },
                  { prompt_text: 'Bye', expect: { prompt: 'Conv Closing' } },
                ],
              },
              {
                name: 'refund skips billing',
                turns: [
                  { prompt_text: 'Hello', expect: { prompt: 'Conv Greeting' } },
                  { prompt_text: 'I want my money back', expect: { prompt: 'Conv Closing' } },
                  { prompt_text: 'Thanks' },
                ],
              },
            ],
          },
          null,
          2,
        ),
      ),
    );
    const result = await vscode.commands.executeCommand<PromptTestResult>('convai.runPromptTests', {
      uri: uri.toString(),
    });
    assert.deepEqual(
      result.cases.map((c) => [c.name, c.passed]),
      [
        ['refund goes to billing', true],
        ['refund skips billing', false],
      ],
    );
    assert.deepEqual(result.cases[1]?.messages, [
      `turn 2: answered by "Conv Billing" (${ids.billing}), expected "Conv Closing"`,
    ]);
  });

  it('records each turn in the run history of the prompt that answered it', async () => {
    const history = async (id: number): Promise<Array<{ inputs: { prompt_text: string } }>> =>
      vscode.commands.executeCommand('convai.showRunHistory', {
        uri: `convai://${CONNECTION}/tenants/${TENANT}/ai_prompts/${id}.json`,
      });
    assert.deepEqual((await history(ids.closing)).map((r) => r.inputs.prompt_text).sort(), [
      'Bye',
      'Bye',
      'Thanks',
      'Thanks',
    ]);
    assert.deepEqual(
      (await history(ids.billing)).map((r) => r.inputs.prompt_text),
      Array.from({ length: 3 }, () => 'I want my money back'),
    );
  });
});
