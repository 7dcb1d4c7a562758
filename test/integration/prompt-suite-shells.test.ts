// One suite run for both shells: the same suite through convai.runPromptTests and through the command-line tool's
// `test --json` (a child process, as CI runs it) against the same local service gives the same structured results,
// every case with the contract's verdict fields. The service's answers vary at a seeded rate and fail on cue, so both
// runs meet the same answers in the same order, one request at a time.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { request } from 'undici';
import * as vscode from 'vscode';
import {
  addConnection,
  adminToken,
  clearFaults,
  injectFaults,
  removeConnection,
  serviceUrl,
  type PromptTestCase,
  type PromptTestResult,
} from './support';

const CONNECTION = 'shells';
const FIELDS = ['name', 'passed', 'verdict', 'runs', 'passes', 'errors', 'passRate', 'interval', 'messages'] as const;

async function vary(answerVariation: number): Promise<void> {
  const response = await request(`${serviceUrl}/__test/options`, {
    method: 'POST',
    body: JSON.stringify({ answerVariation, answerSeed: 1 }),
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(response.statusCode, 200, await response.body.text());
}

/** The same answers for the next run: the seed starts again, and the first two test_prompt requests fail with 500. */
async function sameAnswers(): Promise<void> {
  await vary(0.3);
  await injectFaults({ match: 'test_prompt', status: 500, body: '{"error":"model overloaded"}', count: 2 });
}

describe('prompt test suites: one run for VS Code and the CLI', () => {
  let uri: vscode.Uri;
  const concurrency = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('convai');

  before(async () => {
    await addConnection(CONNECTION);
    await concurrency().update('testConcurrency', 1, vscode.ConfigurationTarget.Global);
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the tests run in a workspace');
    uri = vscode.Uri.joinPath(folder.uri, 'shells', 'triage.prompttest.json');
    await vscode.workspace.fs.writeFile(
      uri,
      Buffer.from(
        JSON.stringify(
          {
            target: { connection: CONNECTION, tenantId: 1 },
            prompt: 'Order Triage',
            cases: [
              { name: 'errors first', prompt_text: 'Hello', expect: { response: { contains: 'Echo' } }, repeat: 3 },
              {
                name: 'varies',
                prompt_text: 'Hello',
                expect: { response: { contains: 'Echo' } },
                repeat: 20,
                minPassRate: 0.5,
              },
              { name: 'wrong value', prompt_text: 'x', expect: { altered_prompt: 'nothing like it' } },
              { name: 'always', prompt_text: 'x', expect: { next_prompt_id: { equals: 3 } } },
            ],
          },
          null,
          2,
        ),
      ),
    );
  });

  after(async () => {
    await vary(0);
    await clearFaults();
    await concurrency().update('testConcurrency', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(uri, '..'), { recursive: true });
    await removeConnection(CONNECTION);
  });

  it("gives the same verdicts, tallies, intervals and messages through both shells, each case with the contract's fields", async () => {
    await sameAnswers();
    const inEditor = await vscode.commands.executeCommand<PromptTestResult>('convai.runPromptTests', {
      uri: uri.toString(),
    });
    for (const testCase of inEditor.cases) {
      for (const field of FIELDS) assert.ok(field in testCase, `${testCase.name} has ${field}`);
    }
    // A failed request's message names the connection in VS Code, which the CLI has not: the one thing each shell words.
    const pick = (c: PromptTestCase): Partial<PromptTestCase> => ({
      ...Object.fromEntries(FIELDS.map((f) => [f, c[f]])),
      messages: c.messages.map((m) => m.replace(`: ${CONNECTION}: `, ': ')),
    });
    assert.deepEqual(
      inEditor.cases.map((c) => [c.name, c.verdict, c.passed, c.runs, c.passes, c.errors]),
      [
        ['errors first', 'error', false, 1, 1, 2],
        ['varies', 'flaky', true, 20, inEditor.cases[1]?.passes, 0],
        ['wrong value', 'fail', false, 1, 0, 0],
        ['always', 'pass', true, 1, 1, 0],
      ],
    );
    assert.ok((inEditor.cases[1]?.passes ?? 20) < 20, 'the seeded answers vary');
    assert.match(inEditor.cases[0]?.messages[0] ?? '', /^2 of 3 runs errored \(so they are not counted\): .*500/);
    assert.match(inEditor.cases[0]?.reason ?? '', /^2 of 3 runs errored \(so they are not counted\): .*500/);

    await sameAnswers();
    const cli = vscode.extensions.getExtension('convai.convai-config')?.extensionPath;
    assert.ok(cli, 'the extension is loaded');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [path.join(cli, 'dist', 'cli.js'), 'test', '--json', '--concurrency', '1', uri.fsPath],
      {
        env: { ...process.env, CONVAI_URL: serviceUrl, CONVAI_TOKEN: adminToken, ELECTRON_RUN_AS_NODE: '1' },
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(stdout) as {
      passed: number;
      failed: number;
      skipped: number;
      suites: Array<{ cases: PromptTestCase[] }>;
    };
    assert.deepEqual(report.suites[0]?.cases.map(pick), inEditor.cases.map(pick));
    assert.deepEqual(
      [report.passed, report.failed, report.skipped],
      [inEditor.passed, inEditor.failed, inEditor.skipped],
    );
  });
});
