// A suite's last green run as its baseline in VS Code (contract: "Verdicts over repeated runs"), against the local
// service whose answers vary at a seeded rate (answerVariation, answerSeed: test/service/README.md).
import * as assert from 'node:assert/strict';
import { request } from 'undici';
import * as vscode from 'vscode';
import { addConnection, admin, kind, removeConnection, serviceUrl, type PromptTestResult } from './support';

const CONNECTION = 'baseline';
const TENANT = 2;

async function vary(answerVariation: number): Promise<void> {
  // Seed 1 makes 6 of the next 20 answers differ: 14/20 meets minPassRate 0.5 but is a significant drop from 20/20.
  const response = await request(`${serviceUrl}/__test/options`, {
    method: 'POST',
    body: JSON.stringify({ answerVariation, answerSeed: 1 }),
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(response.statusCode, 200, await response.body.text());
}

describe('prompt test suites: the last green run as baseline', () => {
  let id = 0;
  let uri: vscode.Uri;
  const run = (extra: object = {}): Thenable<PromptTestResult> =>
    vscode.commands.executeCommand<PromptTestResult>('convai.runPromptTests', { uri: uri.toString(), ...extra });

  before(async () => {
    await addConnection(CONNECTION);
    id = (await admin.create(kind('ai_prompts'), { name: 'Baseline Prompt', user_prompt: 'Hi' }, TENANT)).id as number;
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the tests run in a workspace');
    uri = vscode.Uri.joinPath(folder.uri, 'baseline.prompttest.json');
    await vscode.workspace.fs.writeFile(
      uri,
      Buffer.from(
        JSON.stringify({
          target: { connection: CONNECTION, tenantId: TENANT },
          prompt: 'Baseline Prompt',
          cases: [
            {
              name: 'answers',
              prompt_text: 'Hello',
              expect: { response: { contains: 'Echo' } },
              repeat: 20,
              minPassRate: 0.5,
            },
          ],
        }),
      ),
    );
  });

  after(async () => {
    await vary(0);
    if (id !== 0) await admin.delete(kind('ai_prompts'), id, TENANT);
    await vscode.workspace.fs.delete(uri);
    await removeConnection(CONNECTION);
  });

  it('has nothing to compare with before a green run', async () => {
    await vary(0.3);
    const result = await run({ baseline: 'lastGreenRun' });
    assert.deepEqual(
      result.cases.map((c) => [c.passed, c.messages]),
      [[true, []]],
      'a flaky pass is no green run, and without one nothing regresses',
    );
  });

  it('fails a case whose passes dropped significantly since the last green run, though it meets minPassRate', async () => {
    await vary(0);
    assert.deepEqual(
      (await run()).cases.map((c) => c.passed),
      [true],
    );
    await vary(0.3);
    const against = await run({ baseline: 'lastGreenRun' });
    assert.equal(against.cases[0]?.passed, false);
    assert.deepEqual(
      against.cases[0]?.messages[0],
      'regressed: 14/20 passed, against 20/20 in the baseline (p = 0.010)',
    );
    assert.deepEqual(
      [against.cases[0]?.regressed, against.cases[0]?.verdict, against.cases[0]?.passes, against.cases[0]?.runs],
      [true, 'fail', 14, 20],
    );
    await vary(0.3);
    assert.deepEqual(
      (await run()).cases.map((c) => [c.passed, c.messages]),
      [[true, []]],
      'the default run has no baseline',
    );
  });

  it('refuses a baseline it does not know, naming the field', async () => {
    await assert.rejects(Promise.resolve(run({ baseline: 'yesterday' })), /baseline must be "lastGreenRun"/);
  });
});
