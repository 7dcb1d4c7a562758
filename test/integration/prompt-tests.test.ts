// Prompt test suites run in the real VS Code against the local service, whose test_prompt answers
// "Echo (<model>): <prompt_text>" and whose execute_action answers ping with pong (test/service/README.md).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  addConnection,
  admin,
  clearRequests,
  diagnosticsWhen,
  kind,
  receivedRequests,
  rejection,
  removeConnection,
  type PromptTestResult,
  writeSuite as writeSuiteOf,
} from './support';

const CONNECTION = 'suites';

function writeSuite(name: string, suite: object): Promise<vscode.Uri> {
  return writeSuiteOf(CONNECTION, name, suite);
}

describe('prompt test suites', () => {
  before(() => addConnection(CONNECTION));
  after(() => removeConnection(CONNECTION));

  it('gives every assertion kind its verdict, with messages naming the field and the assertion', async () => {
    const uri = await writeSuite('triage', {
      prompt: 'Order Triage',
      cases: [
        {
          name: 'all pass',
          prompt_text: 'Where is order A-1?',
          prompt_params: { customer_name: 'Ada', order_id: 'A-1' },
          expect: {
            response: { contains: 'A-1', notContains: 'refund', matches: '^Echo \\(.+\\): Where', maxLength: 500 },
            next_prompt_params: { jsonSchema: { type: 'object', required: ['order_id'] } },
            altered_prompt: { contains: 'Ada' },
            next_prompt_id: 3,
          },
        },
        { name: 'equals fails', prompt_text: 'x', expect: { response: { equals: 'nope' } } },
        { name: 'contains fails', prompt_text: 'x', expect: { response: { contains: 'zzz' } } },
        { name: 'notContains fails', prompt_text: 'a parcel', expect: { response: { notContains: 'parcel' } } },
        { name: 'matches fails', prompt_text: 'x', expect: { response: { matches: '^Nope' } } },
        { name: 'maxLength fails', prompt_text: 'a long enough text', expect: { response: { maxLength: 3 } } },
        { name: 'jsonSchema fails', prompt_text: 'x', expect: { response: { jsonSchema: { type: 'object' } } } },
      ],
    });
    const result = await vscode.commands.executeCommand<PromptTestResult>('convai.runPromptTests', {
      uri: uri.toString(),
    });
    const verdicts = Object.fromEntries(result.cases.map((c) => [c.name, c.passed]));
    assert.deepEqual(verdicts, {
      'all pass': true,
      'equals fails': false,
      'contains fails': false,
      'notContains fails': false,
      'matches fails': false,
      'maxLength fails': false,
      'jsonSchema fails': false,
    });
    assert.equal(result.passed, 1);
    assert.equal(result.failed, 6);
    const message = (name: string): string => result.cases.find((c) => c.name === name)?.messages.join('\n') ?? '';
    assert.match(message('equals fails'), /^response: is not equal to the expected value/);
    assert.match(message('contains fails'), /^response: does not contain "zzz"; it is "Echo/);
    assert.match(message('notContains fails'), /^response: contains "parcel", which it must not/);
    assert.match(message('matches fails'), /^response: does not match \/\^Nope\//);
    assert.match(message('maxLength fails'), /^response: is \d+ characters long, more than 3/);
    assert.match(message('jsonSchema fails'), /^response: is not JSON, so it cannot satisfy the schema/);
  });

  it("marks what a suite's schema cannot see at its place: an unknown assertion, a bad pattern, a schema that is none", async () => {
    const uri = await writeSuite('broken', {
      prompt: 'Order Triage',
      cases: [
        {
          name: 'a',
          prompt_text: 'x',
          expect: {
            response: { containz: 'x', matches: '(' },
            next_prompt_params: { jsonSchema: { type: 'nonsense' } },
          },
        },
      ],
    });
    const document = await vscode.workspace.openTextDocument(uri);
    const found = await diagnosticsWhen(
      uri,
      (d) => d.source === 'ConvAI',
      (all) => all.length >= 3,
      "the suite's problems",
    );
    const at = found.map((d) => [document.getText(d.range), d.message.split(':')[0]]);
    assert.deepEqual(at.slice(0, 2), [
      ['"containz"', 'response'],
      ['"("', 'response'],
    ]);
    assert.match(found[2]?.message ?? '', /next_prompt_params: not a JSON Schema/);
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('convai.runPromptTests', { uri: uri.toString() })),
      /broken\.prompttest\.json cannot run/,
    );
  });

  it('runs an execute_action suite against an integration', async () => {
    const uri = await writeSuite('orders-api', {
      integration: 'Order Status API',
      cases: [
        { name: 'ping', action: 'ping', expect: { result: 'pong', status: 'success' } },
        { name: 'fail', action: 'fail', params: { reason: 'down' }, expect: { status: 'success' } },
      ],
    });
    const result = await vscode.commands.executeCommand<PromptTestResult>('convai.runPromptTests', {
      uri: uri.toString(),
    });
    assert.deepEqual(
      result.cases.map((c) => [c.name, c.passed]),
      [
        ['ping', true],
        ['fail', false],
      ],
    );
  });

  it('names what is missing where when the target cannot be resolved', async () => {
    const uri = await writeSuite('missing', {
      prompt: 'No Such Prompt',
      cases: [{ name: 'a', prompt_text: 'x', expect: { response: { contains: 'x' } } }],
    });
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('convai.runPromptTests', { uri: uri.toString() })),
      /AI Prompt "No Such Prompt" is not in tenant 1 on connection "suites"/,
    );
  });

  it("names the ids of the prompts a suite's name fits, rather than testing one of them", async () => {
    const tenantId = (await admin.create(kind('tenants'), { name: 'Suites Shared Names', email: 'a@shared.example' }))
      .id as number;
    try {
      const ids: number[] = [];
      for (const text of ['Hello in English', 'Hallo auf Deutsch']) {
        ids.push(
          (await admin.create(kind('ai_prompts'), { name: 'Greeting', user_prompt: text }, tenantId)).id as number,
        );
      }
      const uri = await writeSuite('shared-name', {
        target: { connection: CONNECTION, tenantId },
        prompt: 'Greeting',
        cases: [{ name: 'a', prompt_text: 'x', expect: { response: { contains: 'x' } } }],
      });
      await clearRequests();
      const error = await rejection(vscode.commands.executeCommand('convai.runPromptTests', { uri: uri.toString() }));
      assert.ok(
        error.message.includes(
          `AI Prompt "Greeting" names 2 prompts in tenant ${tenantId} on connection "${CONNECTION}" (ids ${ids.join(', ')}): give the id instead ("prompt": ${ids[0]}), or rename one.`,
        ),
        error.message,
      );
      assert.deepEqual(
        (await receivedRequests()).filter((r) => r.path.endsWith('/test_prompt')),
        [],
        'nothing was tested',
      );
    } finally {
      await admin.delete(kind('tenants'), tenantId);
    }
  });

  it("records every case run in the prompt's run history", async () => {
    const texts = ['history one', 'history two', 'history three'].map((t) => `${t} ${Date.now()}`);
    const uri = await writeSuite('history', {
      prompt: 'Order Triage',
      cases: texts.map((prompt_text, i) => ({
        name: `case ${i}`,
        prompt_text,
        expect: { response: { contains: 'Echo' } },
      })),
    });
    await vscode.commands.executeCommand('convai.runPromptTests', { uri: uri.toString() });
    const runs = await vscode.commands.executeCommand<Array<{ inputs: { prompt_text?: string } }>>(
      'convai.showRunHistory',
      { uri: 'convai://suites/tenants/1/ai_prompts/2.json' },
    );
    const recorded = runs.map((run) => run.inputs.prompt_text);
    for (const text of texts) assert.ok(recorded.includes(text), `the history holds the run of "${text}"`);
  });
});

describe('prompt test suites: writing them', () => {
  before(() => addConnection(CONNECTION));
  after(() => removeConnection(CONNECTION));

  function fileIn(name: string): string {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    return vscode.Uri.joinPath(folder.uri, name).fsPath;
  }

  it('starts a commented suite for a prompt, its placeholders prefilled', async () => {
    const file = fileIn('new-triage.prompttest.json');
    const created = await vscode.commands.executeCommand<string>('convai.newPromptTestSuite', {
      uri: 'convai://suites/tenants/1/ai_prompts/2.json',
      file,
    });
    const text = Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.parse(created))).toString('utf8');
    assert.match(text, /^\/\/ Test cases for the prompt "Order Triage"/);
    const params = /"prompt_params": (\{[^}]*\})/.exec(text)?.[1];
    const prefilled = JSON.parse(params ?? '{}') as Record<string, string>;
    for (const name of ['customer_name', 'order_id'])
      assert.equal(prefilled[name], '', `${name} is prefilled in ${params ?? 'no prompt_params'}`);
    assert.match(text, /"target": \{\s*"connection": "suites",\s*"tenantId": 1\s*\}/);
    assert.match(text, /"prompt_text": "Hello"/, 'the starter case has something to send');
    const result = await vscode.commands.executeCommand<PromptTestResult>('convai.runPromptTests', { uri: created });
    assert.deepEqual([result.passed, result.failed], [1, 0], 'the starter case runs and passes as it stands');
  });

  it('saves a run as a case whose outputs are the expected values, and the case passes', async () => {
    await vscode.commands.executeCommand('convai.testPrompt', {
      uri: 'convai://suites/tenants/1/ai_prompts/2.json',
      promptText: 'Saved run',
      promptParams: { order_id: 'B-2' },
    });
    const [run] = await vscode.commands.executeCommand<Array<{ id: string }>>('convai.showRunHistory', {
      uri: 'convai://suites/tenants/1/ai_prompts/2.json',
    });
    assert.ok(run);
    const file = fileIn('saved.prompttest.json');
    const saved = await vscode.commands.executeCommand<string>('convai.saveAsTestCase', {
      resource: 'convai://suites/tenants/1/ai_prompts/2.json',
      runId: run.id,
      file,
    });
    const second = await vscode.commands.executeCommand<string>('convai.saveAsTestCase', {
      resource: 'convai://suites/tenants/1/ai_prompts/2.json',
      runId: run.id,
      file,
    });
    assert.equal(second, saved, 'the second run joins the same suite');
    const result = await vscode.commands.executeCommand<PromptTestResult>('convai.runPromptTests', { uri: saved });
    assert.deepEqual(
      result.cases.map((c) => [c.name, c.passed]),
      [
        ['Saved run', true],
        ['Saved run (2)', true],
      ],
    );
  });
});
