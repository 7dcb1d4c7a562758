// Trials inside VS Code against the local service: a suite runs on a prompt's unsaved edits through a copy that is
// deleted after, and nothing is ever saved by a test run, even when VS Code saves before tests.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DiskFolder } from '../../src/core/tenant/disk-folder';
import { readManifest } from '../../src/core/tenant/manifest';
import { isTrialCopy } from '../../src/core/trials/trial-names';
import {
  addConnection,
  admin,
  clearRequests,
  documentUri,
  kind,
  receivedRequests,
  rejection,
  removeConnection,
  replaceText,
  revertAll,
  type PromptTestResult,
  writeSuite as writeSuiteOf,
} from './support';

const CONNECTION = 'trials';
const TRIAGE = 2;

interface TrialAnswer extends PromptTestResult {
  version: 'saved' | 'unsaved' | 'trial';
  trial?: { tag: string; copies: Array<{ id?: number; copy: number; name: string }>; deleted: boolean };
  cases: Array<PromptTestResult['cases'][number] & { improved?: boolean; live?: { passes: number; runs: number } }>;
}

function writeSuite(name: string, suite: object): Promise<vscode.Uri> {
  return writeSuiteOf(CONNECTION, name, suite);
}

/** A suite whose one case passes when Order Triage answers with the model unsavedModel('unsaved-model') gives it. */
function editSuite(name: string): Promise<vscode.Uri> {
  return writeSuite(name, {
    prompt: 'Order Triage',
    cases: [
      { name: 'the edit answers', prompt_text: 'hi', expect: { response: { contains: 'Echo (unsaved-model)' } } },
    ],
  });
}

/** Order Triage's whole document, open, with an unsaved model. */
async function unsavedModel(model: string): Promise<vscode.TextDocument> {
  const uri = documentUri({ type: 'resource', connection: CONNECTION, tenantId: 1, segment: 'ai_prompts', id: TRIAGE });
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document);
  await replaceText(document, document.getText().replace(/"ai_model": "[^"]*"/, `"ai_model": "${model}"`));
  assert.ok(document.isDirty);
  return document;
}

/** Runs `test` on tenant `tenantId` pulled into a new folder, which is removed after, whatever the test did. */
async function withPulledFolder(tenantId: number, test: (folder: string) => Promise<void>): Promise<void> {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-trial-folder-'));
  const folder = path.join(temp, 'tenant');
  try {
    await vscode.commands.executeCommand('convai.pullTenant', { connection: CONNECTION, tenantId, folder });
    await test(folder);
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

const copiesLeft = async (): Promise<number> =>
  (await admin.list(kind('ai_prompts'), 1, { trialCopies: true })).filter(isTrialCopy).length;

describe('trials in VS Code', () => {
  const testing = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('testing');
  const convai = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('convai');
  before(async () => {
    // Edits other suites left unsaved would run as trials too.
    await revertAll();
    await addConnection(CONNECTION);
    await testing().update('saveBeforeTest', true, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await testing().update('saveBeforeTest', undefined, vscode.ConfigurationTarget.Global);
    await convai().update('tests.unsavedEdits', undefined, vscode.ConfigurationTarget.Global);
    await removeConnection(CONNECTION);
  });
  afterEach(() => revertAll());

  it('runs a suite on unsaved edits as a trial, saving nothing, with testing.saveBeforeTest on', async () => {
    const live = await admin.get(kind('ai_prompts'), TRIAGE, 1);
    const suite = await editSuite('trial-unsaved');
    const prompt = await unsavedModel('unsaved-model');
    await clearRequests();
    const answer = await vscode.commands.executeCommand<TrialAnswer>('convai.runPromptTests', {
      uri: suite.toString(),
    });
    assert.equal(answer.version, 'unsaved');
    assert.deepEqual(
      (await receivedRequests()).filter((r) => r.method === 'PUT'),
      [],
      'no PUT reached the service',
    );
    assert.equal(answer.passed, 1, JSON.stringify(answer.cases));
    assert.deepEqual(
      answer.trial?.copies.map((c) => [c.id, c.name]),
      [[TRIAGE, 'Order Triage']],
    );
    assert.equal(answer.trial?.deleted, true);

    assert.ok(prompt.isDirty, 'the edit is still unsaved');
    assert.equal(
      (await admin.get(kind('ai_prompts'), TRIAGE, 1)).ai_model,
      live.ai_model,
      'the live prompt is unchanged',
    );
    assert.equal(await copiesLeft(), 0);
    // The run history says which version ran: the unsaved one, as a trial.
    const [recorded] = await vscode.commands.executeCommand<
      Array<{ inputs: unknown; version: { savedHash?: string; unsavedChanges: boolean; trial?: boolean } }>
    >('convai.showRunHistory', { uri: prompt.uri.toString() });
    assert.deepEqual(recorded?.version, { unsavedChanges: false, trial: true });
  });

  it('runs the saved version when convai.tests.unsavedEdits is "saved", still saving nothing', async () => {
    await convai().update('tests.unsavedEdits', 'saved', vscode.ConfigurationTarget.Global);
    try {
      const suite = await editSuite('trial-saved');
      const prompt = await unsavedModel('unsaved-model');
      await clearRequests();
      const answer = await vscode.commands.executeCommand<TrialAnswer>('convai.runPromptTests', {
        uri: suite.toString(),
      });
      assert.equal(answer.version, 'saved');
      assert.equal(answer.trial, undefined);
      assert.equal(answer.failed, 1, 'the saved model answered');
      assert.ok(prompt.isDirty);
      assert.deepEqual(
        (await receivedRequests()).filter((r) => r.method !== 'GET' && !r.path.endsWith('/test_prompt')),
        [],
      );
    } finally {
      await convai().update('tests.unsavedEdits', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('refuses a save while a run is under way, keeping the text', async () => {
    const suite = await writeSuite('trial-hold', {
      prompt: 'Order Triage',
      cases: [{ name: 'slow', prompt_text: 'hi', repeat: 3, expect: { response: { contains: 'Echo' } } }],
    });
    const prompt = await unsavedModel('held-model');
    const running = vscode.commands.executeCommand<TrialAnswer>('convai.runPromptTests', { uri: suite.toString() });
    const saved = await prompt.save();
    await running;
    assert.equal(saved, false, 'the save was refused');
    assert.ok(prompt.isDirty);
    assert.notEqual((await admin.get(kind('ai_prompts'), TRIAGE, 1)).ai_model, 'held-model');
  });

  it("runs a suite as a trial of a pulled folder compared with live: the folder's edit improves one case and regresses another", async () => {
    await withPulledFolder(1, async (folder) => {
      const manifest = await readManifest(new DiskFolder(folder));
      const entry = manifest?.resources.find((r) => r.segment === 'ai_prompts' && r.id === TRIAGE);
      assert.ok(entry, "the pull wrote Order Triage's file");
      const file = path.join(folder, entry.file);
      const live = String((await admin.get(kind('ai_prompts'), TRIAGE, 1)).ai_model);
      fs.writeFileSync(
        file,
        fs.readFileSync(file, 'utf8').replace(/"ai_model": "[^"]*"/, '"ai_model": "folder-model"'),
      );
      const repeat = 5;
      const suite = await writeSuite('trial-folder', {
        prompt: 'Order Triage',
        cases: [
          {
            name: 'the folder answers',
            prompt_text: 'hi',
            repeat,
            expect: { response: { contains: '(folder-model)' } },
          },
          { name: 'live answers', prompt_text: 'hi', repeat, expect: { response: { contains: `(${live})` } } },
        ],
      });
      await clearRequests();
      const answer = await vscode.commands.executeCommand<TrialAnswer>('convai.runPromptTests', {
        uri: suite.toString(),
        trial: { folder, compare: true },
      });
      assert.equal(answer.version, 'trial');
      assert.deepEqual(
        answer.trial?.copies.map((c) => [c.id, c.name]),
        [[TRIAGE, 'Order Triage']],
      );
      assert.equal(answer.trial?.deleted, true);
      const byName = new Map(answer.cases.map((c) => [c.name, c]));
      const improved = byName.get('the folder answers');
      assert.deepEqual([improved?.improved, improved?.live?.passes, improved?.passes], [true, 0, repeat]);
      const regressed = byName.get('live answers');
      assert.deepEqual([regressed?.regressed, regressed?.live?.passes, regressed?.passes], [true, repeat, 0]);
      assert.equal(answer.failed, 1, 'the regressed case fails');
      // Nothing live was written: the only writes were the copy's create and delete.
      const writes = (await receivedRequests()).filter((r) => r.method !== 'GET' && !r.path.endsWith('/test_prompt'));
      assert.deepEqual(
        writes.map((r) => r.method),
        ['POST', 'DELETE'],
      );
      assert.equal((await admin.get(kind('ai_prompts'), TRIAGE, 1)).ai_model, live);
      assert.equal(await copiesLeft(), 0);
    });
  });

  it('runs a suite on a prompt the folder creates, through its copy', async () => {
    await withPulledFolder(1, async (folder) => {
      fs.writeFileSync(
        path.join(folder, 'ai_prompts', 'folder-created.json'),
        JSON.stringify({ name: 'Folder Created', system: 'Answer briefly.', ai_model: 'created-model' }, null, 2),
      );
      const suite = await writeSuite('trial-created', {
        prompt: 'Folder Created',
        cases: [{ name: 'answers', prompt_text: 'hi', expect: { response: { contains: '(created-model)' } } }],
      });
      const answer = await vscode.commands.executeCommand<TrialAnswer>('convai.runPromptTests', {
        uri: suite.toString(),
        trial: { folder },
      });
      assert.equal(answer.version, 'trial');
      assert.equal(answer.passed, 1, JSON.stringify(answer.cases));
      assert.deepEqual(
        answer.trial?.copies.map((c) => [c.id, c.name]),
        [[undefined, 'Folder Created']],
      );
      assert.equal(await copiesLeft(), 0);
      assert.equal(
        (await admin.list(kind('ai_prompts'), 1)).some((p) => p.name === 'Folder Created'),
        false,
        "the folder's prompt was not created live",
      );
    });
  });

  it('refuses a trial of a folder of another tenant, creating nothing', async () => {
    await withPulledFolder(2, async (folder) => {
      const suite = await writeSuite('trial-other', {
        prompt: 'Order Triage',
        cases: [{ name: 'any', prompt_text: 'hi', expect: { response: { contains: 'Echo' } } }],
      });
      await clearRequests();
      const error = await rejection(
        vscode.commands.executeCommand('convai.runPromptTests', { uri: suite.toString(), trial: { folder } }),
      );
      assert.match(error.message, /holds tenant 2 .*the suite runs in tenant 1/);
      assert.match(error.message, /Nothing was created\./);
      assert.deepEqual(
        (await receivedRequests()).filter((r) => r.method !== 'GET'),
        [],
      );
    });
  });

  it('cleans up the trial copies a tenant holds', async () => {
    await admin.create(kind('ai_prompts'), { name: '[trial 0badc0de] Order Triage', system: 'x' }, 1);
    const answer = await vscode.commands.executeCommand<{ deleted: Array<{ id: number; name: string }> }>(
      'convai.cleanTrials',
      { connection: CONNECTION, tenantId: 1, all: true },
    );
    assert.deepEqual(
      answer.deleted.map((d) => d.name),
      ['[trial 0badc0de] Order Triage'],
    );
    assert.equal(await copiesLeft(), 0);
  });
});
