// Simulated calls and judge calibration through the commands, in the real VS Code against the local service. The
// assistant answers as the service does (an echo); the caller's lines and the judge's verdicts are scripted with the
// service's fault queue, matched by each prompt's own test_prompt path, so they come in the order they are asked.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { parseJudgeFile } from '../../src/core/prompt-tests/judge-file';
import { callTranscriptUri } from '../../src/prompt-tests/call-transcripts';
import {
  addConnection,
  admin,
  clearFaults,
  diagnosticsWhen,
  injectFaults,
  kind,
  removeConnection,
  type PromptTestResult,
} from './support';

const CONNECTION = 'simulated';
const TENANT = 2;

interface JudgeResult extends PromptTestResult {
  judge: {
    agreement: number | null;
    tpr: number | null;
    tnr: number | null;
    kappa: number | null;
    consistency: number | null;
  };
}

/** test_prompt answers of one prompt, in order. */
function answers(id: number, responses: readonly string[]): Parameters<typeof injectFaults> {
  return responses.map((response) => ({
    match: `/ai_prompts/${id}/test_prompt`,
    status: 200,
    body: JSON.stringify({ response }),
  }));
}

function verdict(verdict: 'pass' | 'fail', reasoning: string, quote?: string): string {
  return JSON.stringify({ reasoning, verdict, ...(quote ? { quote } : {}) });
}

describe('prompt test suites: simulated calls and judge files', () => {
  const ids: Record<'desk' | 'caller' | 'judge', number> = { desk: 0, caller: 0, judge: 0 };
  let folder: vscode.Uri;
  const settings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('convai');
  /** A suite of one simulated call at the desk, judged on the refund's days and checked to stay at the desk. */
  const callSuite = async (file: string, name: string, maxTurns: number): Promise<vscode.Uri> => {
    const uri = vscode.Uri.joinPath(folder, file);
    await vscode.workspace.fs.writeFile(
      uri,
      Buffer.from(
        JSON.stringify(
          {
            target: { connection: CONNECTION, tenantId: TENANT },
            prompt: 'Sim Desk',
            cases: [
              {
                name,
                simulate: {
                  caller: 'Sim Caller',
                  persona: 'Your kettle broke.',
                  opening: 'Hello? My kettle broke.',
                  maxTurns,
                },
                criteria: [
                  {
                    name: 'says how long a refund takes',
                    judge: 'Sim Judge',
                    rubric: 'The assistant tells the caller how many days a refund takes.',
                  },
                  { name: 'stays at the desk', expect: { prompt: 'Sim Desk' } },
                ],
              },
            ],
          },
          null,
          2,
        ),
      ),
    );
    return uri;
  };

  before(async () => {
    await addConnection(CONNECTION);
    await settings().update('testConcurrency', 1, vscode.ConfigurationTarget.Global);
    const prompts = kind('ai_prompts');
    ids.desk = (await admin.create(prompts, { name: 'Sim Desk', user_prompt: 'Refund desk' }, TENANT)).id as number;
    ids.caller = (await admin.create(prompts, { name: 'Sim Caller', user_prompt: 'Play {{persona}}' }, TENANT))
      .id as number;
    ids.judge = (await admin.create(prompts, { name: 'Sim Judge', user_prompt: 'Judge {{criterion}}' }, TENANT))
      .id as number;
    const workspace = vscode.workspace.workspaceFolders?.[0];
    assert.ok(workspace, 'the tests run in a workspace');
    folder = vscode.Uri.joinPath(workspace.uri, 'simulated');
  });

  after(async () => {
    await clearFaults();
    await settings().update('testConcurrency', undefined, vscode.ConfigurationTarget.Global);
    for (const id of Object.values(ids)) if (id !== 0) await admin.delete(kind('ai_prompts'), id, TENANT);
    await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: false });
    await removeConnection(CONNECTION);
  });

  it("runs a simulated call and answers each criterion's tally and the failed call's transcript, which opens with the judge's reasoning", async () => {
    const uri = await callSuite('refund.prompttest.json', 'annoyed caller', 2);
    await injectFaults(
      ...answers(ids.caller, ['When do I get my money?']),
      ...answers(ids.judge, [verdict('fail', 'The assistant never says how many days.', 'When do I get my money?')]),
    );
    const result = await vscode.commands.executeCommand<PromptTestResult>('convai.runPromptTests', {
      uri: uri.toString(),
    });
    const [call] = result.cases;
    assert.ok(call);
    assert.equal(call.passed, false);
    assert.deepEqual(
      call.criteria?.map((c) => [c.name, c.runs, c.passes, c.verdict, c.reasons]),
      [
        ['says how long a refund takes', 1, 0, 'fail', ['The assistant never says how many days.']],
        ['stays at the desk', 1, 1, 'pass', []],
      ],
    );
    assert.deepEqual(
      call.transcript?.map((line) => [line.speaker, line.prompt]),
      [
        ['caller', undefined],
        ['assistant', 'Sim Desk'],
        ['caller', undefined],
        ['assistant', 'Sim Desk'],
      ],
    );
    assert.deepEqual(
      call.transcript?.filter((line) => line.speaker === 'caller').map((line) => line.text),
      ['Hello? My kettle broke.', 'When do I get my money?'],
    );

    // The failed result's link opens this document: the call, then each criterion with what decided it.
    await vscode.commands.executeCommand(
      'convai.openCallTranscript',
      callTranscriptUri(uri, 'annoyed caller').toString(),
    );
    const text = vscode.window.activeTextEditor?.document.getText() ?? '';
    assert.match(text, /^caller: Hello\? My kettle broke\.$/m);
    assert.match(text, /^assistant \(Sim Desk\): /m);
    assert.match(
      text,
      /^\[fail\] says how long a refund takes \(judged by "Sim Judge"\)\n {2}reasoning: The assistant never says how many days\.\n {2}quote: "When do I get my money\?"$/m,
    );
    assert.match(text, /^\[pass\] stays at the desk \(checked on the call\)$/m);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it("keeps a passed call's transcript to open, and opens none of a call it does not hold", async () => {
    const uri = await callSuite('passed.prompttest.json', 'passing caller', 1);
    await injectFaults(...answers(ids.judge, [verdict('pass', 'The assistant says five days.')]));
    const result = await vscode.commands.executeCommand<PromptTestResult>('convai.runPromptTests', {
      uri: uri.toString(),
    });
    assert.equal(result.cases[0]?.passed, true);
    await vscode.commands.executeCommand(
      'convai.openCallTranscript',
      callTranscriptUri(uri, 'passing caller').toString(),
    );
    const text = vscode.window.activeTextEditor?.document.getText() ?? '';
    assert.match(text, /^The call, which passed\.$/m);
    assert.match(text, /^caller: Hello\? My kettle broke\.$/m);
    assert.match(text, /^\[pass\] says how long a refund takes \(judged by "Sim Judge"\)$/m);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    // A call it does not hold is said to be so (as a user's command, in a notification), not opened empty.
    const never = callTranscriptUri(uri, 'a case that never ran');
    await vscode.commands.executeCommand('convai.openCallTranscript', never.toString());
    assert.notEqual(vscode.window.activeTextEditor?.document.uri.toString(), never.toString());
  });

  it('marks a prompt name the tenant has not while the suite is edited, unsaved, and clears it once the name is right', async () => {
    const uri = await callSuite('names.prompttest.json', 'names checked', 2);
    const editor = await vscode.window.showTextDocument(uri);
    const naming = (d: vscode.Diagnostic): boolean => d.message.includes('names no prompt');
    const text = editor.document.getText();
    const at = text.indexOf('"Sim Judge"');
    await editor.edit((edit) =>
      edit.replace(
        new vscode.Range(editor.document.positionAt(at), editor.document.positionAt(at + 11)),
        '"Sim Jugde"',
      ),
    );
    const [problem] = await diagnosticsWhen(uri, naming, (kept) => kept.length === 1, 'the misspelt judge');
    assert.equal(
      problem?.message,
      `case "names checked", criterion "says how long a refund takes": judge "Sim Jugde" names no prompt of tenant ${TENANT}; did you mean "Sim Judge"?`,
    );
    assert.equal(editor.document.isDirty, true);
    await editor.edit((edit) =>
      edit.replace(
        new vscode.Range(editor.document.positionAt(at), editor.document.positionAt(at + 11)),
        '"Sim Judge"',
      ),
    );
    await diagnosticsWhen(uri, naming, (kept) => kept.length === 0, 'no naming problem once the judge is right');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('answers error, not fail, of a criterion whose judge answered without a verdict, quoting the answer, and still decides the others', async () => {
    const uri = await callSuite('unjudged.prompttest.json', 'unjudged call', 1);
    await injectFaults(...answers(ids.judge, ['Sounds good to me.']));
    const result = await vscode.commands.executeCommand<PromptTestResult>('convai.runPromptTests', {
      uri: uri.toString(),
    });
    const [call] = result.cases;
    assert.deepEqual([call?.verdict, call?.passed, call?.runs, call?.errors], ['error', false, 0, 1]);
    assert.match(
      call?.reason ?? '',
      /^1 of 1 run errored \(so it is not counted\): criterion "says how long a refund takes": judge "Sim Judge" gave no verdict .*"Sounds good to me\."$/,
    );
    assert.deepEqual(
      call?.criteria?.map((c) => [c.name, c.verdict, c.runs, c.errors]),
      [
        ['says how long a refund takes', 'error', 0, 1],
        ['stays at the desk', 'pass', 1, 0],
      ],
    );
    assert.match(
      call?.criteria?.[0]?.reason ?? '',
      /^1 of 1 call did not decide it \(so it is not counted\): judge "Sim Judge" gave no verdict .*"Sounds good to me\."$/,
    );
  });

  it("runs a judge file and answers the judge's figures", async () => {
    const uri = vscode.Uri.joinPath(folder, 'sim-judge.judgetest.json');
    await vscode.workspace.fs.writeFile(
      uri,
      Buffer.from(
        JSON.stringify(
          {
            target: { connection: CONNECTION, tenantId: TENANT },
            judge: 'Sim Judge',
            labels: [
              {
                name: 'days given',
                rubric: 'Says how many days.',
                transcript: 'caller: When?\nassistant (Sim Desk): In five days.',
                expected: 'pass',
              },
              {
                name: 'no days',
                rubric: 'Says how many days.',
                transcript: 'caller: When?\nassistant (Sim Desk): Soon.',
                expected: 'fail',
              },
              {
                name: 'vague',
                rubric: 'Says how many days.',
                transcript: 'caller: When?\nassistant (Sim Desk): Later.',
                expected: 'fail',
              },
            ],
          },
          null,
          2,
        ),
      ),
    );
    await injectFaults(
      ...answers(ids.judge, [
        verdict('pass', 'Five days.'),
        verdict('fail', 'No number.'),
        verdict('pass', 'Later is a time.'),
      ]),
    );
    const result = await vscode.commands.executeCommand<JudgeResult>('convai.runPromptTests', { uri: uri.toString() });
    assert.deepEqual(
      result.cases.map((c) => [c.name, c.passed]),
      [
        ['days given', true],
        ['no days', true],
        ['vague', false],
      ],
    );
    const { agreement, tpr, tnr, consistency, kappa } = result.judge;
    assert.deepEqual({ agreement, tpr, tnr, consistency }, { agreement: 2 / 3, tpr: 1, tnr: 0.5, consistency: 1 });
    assert.ok(kappa !== null && Math.abs(kappa - 0.4) < 1e-9, `kappa ${String(kappa)}`);
  });

  it('labels calls: a new judge file needs its judge, then each call is appended', async () => {
    const file = vscode.Uri.joinPath(folder, 'new.judgetest.json');
    const label = {
      file: file.toString(),
      rubric: 'Says how many days.',
      transcript: 'caller: When?\nassistant (Sim Desk): In five days.',
      expected: 'pass',
    };
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('convai.labelCall', label)),
      /needs its judge: pass judge/,
    );
    assert.deepEqual(await vscode.commands.executeCommand('convai.labelCall', { ...label, judge: 'Sim Judge' }), {
      file: file.toString(),
      labels: 1,
    });
    assert.deepEqual(
      await vscode.commands.executeCommand('convai.labelCall', { ...label, expected: 'fail', name: 'second look' }),
      { file: file.toString(), labels: 2 },
    );
    const { file: read, problems } = parseJudgeFile(
      Buffer.from(await vscode.workspace.fs.readFile(file)).toString('utf8'),
    );
    assert.deepEqual(problems, []);
    assert.equal(read?.judge, 'Sim Judge');
    assert.deepEqual(
      read?.labels.map((l) => [l.name, l.expected, l.transcript]),
      [
        ['call 1', 'pass', label.transcript],
        ['second look', 'fail', label.transcript],
      ],
    );
  });
});
