// Drift in VS Code, against the local service over HTTP: what changed, appeared or disappeared on the service since a
// folder was pulled (convai.drift), one resource's service version taken into the folder (convai.takeServiceVersion),
// the folder's list and status after it, and the plan preview that Plan Push keeps one of per folder. The changes
// go to a tenant of the test's own, so the sample data other tests read stays as it is.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { JsonObject } from '../../src/core/json';
import type { PublicChange } from '../../src/core/tenant/plan-text';
import { addConnection, admin, documentText, kind, removeConnection } from './support';

const CONNECTION = 'drift';

interface DriftedRow {
  segment: string;
  id: number;
  name: string;
  change: 'changed' | 'created' | 'deleted';
  fields: string[];
}

interface CheckResult {
  changes: number;
  conflicts: number;
  problems: number;
  drifted?: number;
  status: string;
}

function readJson(file: string): JsonObject {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as JsonObject;
}

function writeJson(file: string, value: JsonObject): void {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

function drift(folder: string): Thenable<{ drifted: DriftedRow[] }> {
  return vscode.commands.executeCommand<{ drifted: DriftedRow[] }>('convai.drift', { folder });
}

/** The tabs showing the plan of the folder named `name`: its rendered preview, or its text without Markdown's. */
function planTabs(name: string): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.label.endsWith(`Plan of ${name}.md`));
}

describe('tenant folders: drift and Take Service Version', () => {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-drift-'));
  const folder = path.join(temp, 'drifting');
  let tenantId = 0;
  let driftingId = 0;
  let steadyId = 0;
  let doomedId = 0;
  let appearedId = 0;

  before(async () => {
    await addConnection(CONNECTION);
    tenantId = (
      await admin.create(kind('tenants'), { name: 'Drift Tenant', email: 'ops@drift.example', package: 'voice' })
    ).id as number;
    driftingId = (
      await admin.create(
        kind('ai_prompts'),
        { name: 'Drifting Prompt', description: 'pulled', system: 'Pulled system text.' },
        tenantId,
      )
    ).id as number;
    steadyId = (await admin.create(kind('ai_prompts'), { name: 'Steady Prompt', description: 'pulled' }, tenantId))
      .id as number;
    doomedId = (
      await admin.create(kind('intents'), { name: 'doomed', display_name: 'Doomed', intent_type: 1 }, tenantId)
    ).id as number;
    await vscode.commands.executeCommand('convai.pullTenant', { connection: CONNECTION, tenantId, folder });
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await admin.delete(kind('tenants'), tenantId);
    await removeConnection(CONNECTION);
    fs.rmSync(temp, { recursive: true, force: true });
  });

  it('lists nothing right after the pull, then what changed, appeared and disappeared on the service', async () => {
    assert.deepEqual((await drift(folder)).drifted, []);
    await admin.update(
      kind('ai_prompts'),
      driftingId,
      { description: 'theirs', system: "The colleague's system text." },
      tenantId,
    );
    appearedId = (
      await admin.create(kind('intents'), { name: 'appeared', display_name: 'Appeared', intent_type: 1 }, tenantId)
    ).id as number;
    await admin.delete(kind('intents'), doomedId, tenantId);

    const { drifted } = await drift(folder);
    assert.deepEqual(
      drifted.map((d) => ({ ...d, fields: [...d.fields].sort() })),
      [
        {
          segment: 'ai_prompts',
          id: driftingId,
          name: 'Drifting Prompt',
          change: 'changed',
          fields: ['description', 'system'],
        },
        { segment: 'intents', id: appearedId, name: 'appeared', change: 'created', fields: [] },
        { segment: 'intents', id: doomedId, name: 'doomed', change: 'deleted', fields: [] },
      ],
    );
    assert.equal(
      readJson(path.join(folder, 'ai_prompts', 'drifting-prompt.json')).description,
      'pulled',
      'finding drift writes nothing',
    );
  });

  it("shows the service's version of a drifted file as the folder would hold it", async () => {
    const side = (file: string): vscode.Uri =>
      vscode.Uri.from({ scheme: 'convai-pulled', path: `/${file}`, query: `drift:${folder}` });
    const system = await vscode.workspace.openTextDocument(side('ai_prompts/drifting-prompt.system.md'));
    assert.equal(
      system.getText(),
      fs
        .readFileSync(path.join(folder, 'ai_prompts', 'drifting-prompt.system.md'), 'utf8')
        .replace('Pulled system text.', "The colleague's system text."),
    );
    const created = JSON.parse(
      (await vscode.workspace.openTextDocument(side('intents/appeared.json'))).getText(),
    ) as JsonObject;
    assert.equal(created.id, appearedId);
    assert.equal(created.display_name, 'Appeared');
  });

  it("counts the drift in the folder's list and its status bar item", async () => {
    const checked = await vscode.commands.executeCommand<CheckResult>('convai.refreshTenantChanges', { folder });
    assert.equal(checked.drifted, 3);
    assert.equal(checked.changes, 0);
    assert.match(checked.status, /3 changed on the service/);
  });

  it("takes the service's version of one resource, leaving another file edited in the folder as it is", async () => {
    const steadyFile = path.join(folder, 'ai_prompts', 'steady-prompt.json');
    writeJson(steadyFile, { ...readJson(steadyFile), description: 'mine' });

    await vscode.commands.executeCommand('convai.takeServiceVersion', {
      folder,
      segment: 'ai_prompts',
      id: driftingId,
    });
    const taken = readJson(path.join(folder, 'ai_prompts', 'drifting-prompt.json'));
    assert.equal(taken.id, driftingId);
    assert.equal(taken.description, 'theirs');
    assert.match(
      fs.readFileSync(path.join(folder, 'ai_prompts', 'drifting-prompt.system.md'), 'utf8'),
      /^The colleague's system text\.\n?$/,
    );
    assert.equal(readJson(steadyFile).description, 'mine', 'the other edit is kept');

    const plan = await vscode.commands.executeCommand<{ changes: PublicChange[] }>('convai.planPush', { folder });
    assert.deepEqual(plan.changes, [
      { action: 'update', segment: 'ai_prompts', id: steadyId, name: 'Steady Prompt', fields: ['description'] },
    ]);
    assert.deepEqual(
      (await drift(folder)).drifted.map((d) => [d.change, d.name]),
      [
        ['created', 'appeared'],
        ['deleted', 'doomed'],
      ],
    );
  });

  it('takes a resource created on the service as a new file, and one deleted there by removing its file', async () => {
    await vscode.commands.executeCommand('convai.takeServiceVersion', { folder, segment: 'intents', id: appearedId });
    assert.equal(readJson(path.join(folder, 'intents', 'appeared.json')).id, appearedId);
    await vscode.commands.executeCommand('convai.takeServiceVersion', { folder, segment: 'intents', id: doomedId });
    assert.ok(!fs.existsSync(path.join(folder, 'intents', 'doomed.json')), "the deleted intent's file is gone");

    assert.deepEqual((await drift(folder)).drifted, []);
    const checked = await vscode.commands.executeCommand<CheckResult>('convai.refreshTenantChanges', { folder });
    assert.deepEqual(
      { changes: checked.changes, conflicts: checked.conflicts, drifted: checked.drifted },
      { changes: 1, conflicts: 0, drifted: 0 },
    );
    assert.match(checked.status, /^\$\(check\) 1 change$/);
  });

  it('names a conflict in the status once the service changed a resource the folder changed too', async () => {
    await admin.update(kind('ai_prompts'), steadyId, { description: "a colleague's" }, tenantId);
    const checked = await vscode.commands.executeCommand<CheckResult>('convai.refreshTenantChanges', { folder });
    assert.equal(checked.conflicts, 1);
    assert.match(checked.status, /^\$\(warning\) 1 conflict · 1 changed on the service$/);
  });

  it('refuses a target that is no resource, naming the field', async () => {
    await assert.rejects(
      Promise.resolve(
        vscode.commands.executeCommand('convai.takeServiceVersion', { folder, segment: 'prompts', id: driftingId }),
      ),
      /segment must be one of tenants, /,
    );
    await assert.rejects(
      Promise.resolve(
        vscode.commands.executeCommand('convai.takeServiceVersion', { folder, segment: 'ai_prompts', id: 'x' }),
      ),
      /id must be/,
    );
  });

  it('keeps one plan preview per folder and plans it again after a push', async () => {
    const other = path.join(temp, 'previewed');
    await vscode.commands.executeCommand('convai.pullTenant', { connection: CONNECTION, tenantId, folder: other });
    const steadyFile = path.join(other, 'ai_prompts', 'steady-prompt.json');
    writeJson(steadyFile, { ...readJson(steadyFile), description: 'previewed' });

    await vscode.commands.executeCommand('convai.planPush', vscode.Uri.file(other));
    await vscode.commands.executeCommand('convai.planPush', vscode.Uri.file(other));
    assert.equal(
      planTabs('previewed').length,
      1,
      `Plan Push again shows the same preview: ${vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label)).join(', ')}`,
    );

    const document = await vscode.workspace.openTextDocument(
      vscode.Uri.from({ scheme: 'convai-plan', path: '/Plan of previewed.md', query: other }),
    );
    assert.match(document.getText(), /1 change, sent in this order/);
    await vscode.commands.executeCommand('convai.push', { folder: other, confirm: false });
    await documentText(document, (text) => !/1 change/.test(text), 'the preview planned again after the push');
    assert.match(document.getText(), /^# Push plan: tenant /);
    assert.equal(planTabs('previewed').length, 1);
  });
});
