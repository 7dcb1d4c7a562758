// A tenant as a folder of files: pull, edit, plan, push, inside a real VS Code against the local service. The edits
// go to a tenant of the test's own, so the sample data other tests read stays as it is.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { JsonObject } from '../../src/core/json';
import {
  addConnection,
  admin,
  clearRequests,
  diagnosticsWhen,
  injectFaults,
  kind,
  receivedRequests,
  rejection,
  removeConnection,
} from './support';
import type { PublicChange } from '../../src/core/tenant/plan-text';

const CONNECTION = 'folders';
const SECRET = 'folder-secret-sentinel-3f9a';

/** Every file below a folder, relative, with `/`. */
function filesIn(root: string): string[] {
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

function readJson(file: string): JsonObject {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as JsonObject;
}

function writeJson(file: string, value: JsonObject): void {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

describe('tenant folders: pull, plan, push', () => {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-folders-'));
  let tenantId = 0;
  let tenantToken = '';
  let promptId = 0;
  let actionId = 0;

  before(async () => {
    await addConnection(CONNECTION);
    const tenant = await admin.create(kind('tenants'), {
      name: 'Folder Tenant',
      email: 'ops@folder.example',
      package: 'voice',
    });
    tenantId = tenant.id as number;
    tenantToken = String(tenant.auth_token);
    const integration = await admin.create(
      kind('integrations'),
      {
        name: 'Folder CRM',
        system: 'http_api',
        technical_id: 'folder-crm',
        tec_params: { api_key: SECRET, model: 'crm-1' },
      },
      tenantId,
    );
    promptId = (
      await admin.create(
        kind('ai_prompts'),
        {
          name: 'Folder Prompt',
          description: 'before',
          system: 'You are the folder assistant.\n\n## Rules\n- Be brief.\n',
          settings: '{"language": "en"}',
          function_defs: '[]',
        },
        tenantId,
      )
    ).id as number;
    actionId = (
      await admin.create(
        kind('ai_actions'),
        { name: 'Folder Action', action_type: 3, integration_id: integration.id as number },
        tenantId,
      )
    ).id as number;
    await admin.create(
      kind('intents'),
      { name: 'folder_intent', display_name: 'Folder intent', intent_type: 1, ai_prompt_id: promptId },
      tenantId,
    );
  });
  after(async () => {
    await admin.delete(kind('tenants'), tenantId);
    await removeConnection(CONNECTION);
    fs.rmSync(temp, { recursive: true, force: true });
  });

  it("pulls a sample tenant without writing any credential's value", async () => {
    const folder = path.join(temp, 'acme');
    const result = await vscode.commands.executeCommand<{ folder: string; resources: number }>('convai.pullTenant', {
      connection: CONNECTION,
      tenantId: 1,
      folder,
    });
    assert.equal(result.folder, folder);
    assert.ok(result.resources > 20, `the sample tenant has many resources; pulled ${result.resources}`);
    const files = filesIn(folder);
    assert.ok(
      files.includes('convai-tenant.json') &&
        files.includes('tenant.json') &&
        files.includes('ai_prompts/order-triage.json') &&
        files.includes('ai_prompts/order-triage.system.md'),
      files.join('\n'),
    );
    const sentinels = [
      'sk-acme-sample-not-a-real-key',
      'sample-twilio-auth-token',
      'dg-acme-sample-key',
      'acme-orders-sample-key',
      'acme-tenant-token',
      'sample-acme-mcp-token',
    ];
    for (const file of files) {
      const text = fs.readFileSync(path.join(folder, file), 'utf8');
      for (const sentinel of sentinels) assert.ok(!text.includes(sentinel), `${sentinel} is in ${file}`);
    }
    const plan = await vscode.commands.executeCommand<{ changes: PublicChange[] }>('convai.planPush', { folder });
    assert.deepEqual(plan.changes, [], 'an unedited pull plans nothing');
  });

  it('shows a plan rendered and read-only, never as an untitled document that asks to be saved', async () => {
    const folder = path.join(temp, 'acme');
    const untitled = (): number => vscode.workspace.textDocuments.filter((d) => d.isUntitled).length;
    const before = untitled();
    await vscode.commands.executeCommand('convai.planPush', vscode.Uri.file(folder));
    assert.equal(untitled(), before, 'no untitled document was opened');
    const shown = await vscode.workspace.openTextDocument(
      vscode.Uri.from({ scheme: 'convai-plan', path: '/Plan of acme.md', query: folder }),
    );
    assert.match(shown.getText(), /^# Push plan: tenant 1 on /);
    assert.match(shown.getText(), /No change in the folder since the pull\./);
    assert.equal(shown.isDirty, false);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('gives the pulled files the resource schemas: squiggles while editing, a parsed settings object accepted', async () => {
    const file = vscode.Uri.file(path.join(temp, 'acme', 'ai_prompts', 'order-triage.json'));
    const document = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(document);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(
      file,
      new vscode.Range(0, 0, document.lineCount, 0),
      `${JSON.stringify({ ...(JSON.parse(document.getText()) as JsonObject), mode: 7 }, null, 2)}\n`,
    );
    assert.ok(await vscode.workspace.applyEdit(edit));
    const squiggles = await diagnosticsWhen(
      file,
      (d) => d.source !== 'ConvAI',
      (all) => all.some((d) => document.getText(d.range) === '7'),
      'a squiggle on the bad mode',
    );
    assert.ok(
      !squiggles.some((d) => /settings|function_defs/.test(document.getText(d.range))),
      `settings and function_defs hold parsed JSON in a folder: ${squiggles.map((d) => d.message).join('; ')}`,
    );
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('plans exactly an update, a create and a delete, pushes them in dependency order, then plans nothing', async () => {
    const folder = path.join(temp, 'folder-tenant');
    await vscode.commands.executeCommand('convai.pullTenant', { connection: CONNECTION, tenantId, folder });
    for (const file of filesIn(folder))
      assert.ok(
        !fs.readFileSync(path.join(folder, file), 'utf8').includes(SECRET) &&
          !fs.readFileSync(path.join(folder, file), 'utf8').includes(tenantToken),
        file,
      );

    const promptFile = path.join(folder, 'ai_prompts', 'folder-prompt.json');
    writeJson(promptFile, { ...readJson(promptFile), description: 'after' });
    fs.appendFileSync(path.join(folder, 'ai_prompts', 'folder-prompt.system.md'), '- Never promise refunds.\n');
    writeJson(path.join(folder, 'intents', 'refunds.json'), {
      name: 'refunds',
      display_name: 'Refunds',
      intent_type: 1,
      ai_prompt_id: promptId,
    });
    fs.rmSync(path.join(folder, 'ai_actions', 'folder-action.json'));

    const plan = await vscode.commands.executeCommand<{ changes: PublicChange[] }>('convai.planPush', { folder });
    assert.deepEqual(plan.changes, [
      {
        action: 'update',
        segment: 'ai_prompts',
        id: promptId,
        name: 'Folder Prompt',
        fields: ['description', 'system'],
      },
      {
        action: 'create',
        segment: 'intents',
        name: 'refunds',
        fields: ['name', 'display_name', 'intent_type', 'ai_prompt_id'],
      },
      { action: 'delete', segment: 'ai_actions', id: actionId, name: 'Folder Action', fields: [] },
    ]);

    await clearRequests();
    const pushed = await vscode.commands.executeCommand<{ applied: PublicChange[] }>('convai.push', {
      folder,
      confirm: false,
    });
    assert.deepEqual(
      pushed.applied.map((c) => c.action),
      ['update', 'create', 'delete'],
    );
    const writes = (await receivedRequests()).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(writes, [
      `PUT /api/v1/ai_prompts/${promptId}`,
      'POST /api/v1/intents',
      `DELETE /api/v1/ai_actions/${actionId}`,
    ]);

    const prompt = await admin.get(kind('ai_prompts'), promptId, tenantId);
    assert.equal(prompt.description, 'after');
    // The pulled file held the text (ending in a newline) and one newline more, so the appended line follows a blank one.
    assert.equal(prompt.system, 'You are the folder assistant.\n\n## Rules\n- Be brief.\n\n- Never promise refunds.');
    const intents = await admin.list(kind('intents'), tenantId);
    const created = intents.find((i) => i.name === 'refunds');
    assert.equal(created?.ai_prompt_id, promptId);
    assert.equal(readJson(path.join(folder, 'intents', 'refunds.json')).id, created?.id, 'the folder holds the new id');
    await assert.rejects(admin.get(kind('ai_actions'), actionId, tenantId), /404/);

    const again = await vscode.commands.executeCommand<{ changes: PublicChange[] }>('convai.planPush', { folder });
    assert.deepEqual(again.changes, []);
  });

  it('refuses to push through a read-only connection, sending nothing', async () => {
    await addConnection('folders-ro', { readOnly: true });
    try {
      const folder = path.join(temp, 'read-only');
      await vscode.commands.executeCommand('convai.pullTenant', { connection: 'folders-ro', tenantId, folder });
      const promptFile = path.join(folder, 'ai_prompts', 'folder-prompt.json');
      writeJson(promptFile, { ...readJson(promptFile), description: 'not sent' });
      await clearRequests();
      const error = await rejection(vscode.commands.executeCommand('convai.push', { folder, confirm: false }));
      assert.match(error.message, /read-only/);
      assert.deepEqual(
        (await receivedRequests()).filter((r) => r.method !== 'GET'),
        [],
      );
    } finally {
      await removeConnection('folders-ro');
    }
  });

  it('shows a conflict when the service changed a resource also changed in the folder, and push sends nothing', async () => {
    const folder = path.join(temp, 'conflict');
    await vscode.commands.executeCommand('convai.pullTenant', { connection: CONNECTION, tenantId, folder });
    const promptFile = path.join(folder, 'ai_prompts', 'folder-prompt.json');
    writeJson(promptFile, { ...readJson(promptFile), description: 'mine' });
    await admin.update(kind('ai_prompts'), promptId, { description: 'theirs' }, tenantId);

    const plan = await vscode.commands.executeCommand<{ changes: PublicChange[] }>('convai.planPush', { folder });
    assert.deepEqual(
      plan.changes.map((c) => [c.action, c.name]),
      [['conflict', 'Folder Prompt']],
    );
    await clearRequests();
    const error = await rejection(vscode.commands.executeCommand('convai.push', { folder, confirm: false }));
    assert.match(
      error.message,
      /Nothing was sent: 1 resource changed both here and on the service since the pull: ai_prompts\/folder-prompt\.json/,
    );
    assert.deepEqual(
      (await receivedRequests()).filter((r) => r.method !== 'GET'),
      [],
    );
    assert.equal((await admin.get(kind('ai_prompts'), promptId, tenantId)).description, 'theirs');
  });

  it("after a push refused for a conflict, a pull keeps only what the user edited: the colleague's changes arrive and the plan holds only the user's", async () => {
    const greeting = (
      await admin.create(
        kind('ai_prompts'),
        { name: 'Support Greeting', description: 'pulled', system: 'Greet the caller.' },
        tenantId,
      )
    ).id as number;
    const folder = path.join(temp, 'refused');
    await vscode.commands.executeCommand('convai.pullTenant', { connection: CONNECTION, tenantId, folder });
    const text = path.join(folder, 'ai_prompts', 'support-greeting.system.md');
    fs.writeFileSync(text, 'Greet the caller by name.\n');
    // A colleague, in the service's web form: the same prompt's description, and another prompt's.
    await admin.update(kind('ai_prompts'), greeting, { description: 'from a colleague' }, tenantId);
    await admin.update(kind('ai_prompts'), promptId, { description: 'also from a colleague' }, tenantId);
    const refused = await rejection(vscode.commands.executeCommand('convai.push', { folder, confirm: false }));
    assert.match(
      refused.message,
      /Nothing was sent: 1 resource changed both here and on the service since the pull: ai_prompts\/support-greeting\.json: changed on the service since the pull \(description\)/,
    );

    await vscode.commands.executeCommand('convai.pullTenant', { connection: CONNECTION, tenantId, folder });
    assert.equal(fs.readFileSync(text, 'utf8'), 'Greet the caller by name.\n', 'the edited text is kept');
    assert.equal(
      readJson(path.join(folder, 'ai_prompts', 'support-greeting.json')).description,
      'from a colleague',
      "the untouched file takes the service's version",
    );
    assert.equal(readJson(path.join(folder, 'ai_prompts', 'folder-prompt.json')).description, 'also from a colleague');
    const plan = await vscode.commands.executeCommand<{ changes: PublicChange[] }>('convai.planPush', { folder });
    assert.deepEqual(
      plan.changes,
      [{ action: 'update', segment: 'ai_prompts', id: greeting, name: 'Support Greeting', fields: ['system'] }],
      "nothing undoes the colleague's edits",
    );
    await vscode.commands.executeCommand('convai.push', { folder, confirm: false });
    const held = await admin.get(kind('ai_prompts'), greeting, tenantId);
    assert.deepEqual([held.system, held.description], ['Greet the caller by name.', 'from a colleague']);
    await admin.delete(kind('ai_prompts'), greeting, tenantId);
  });

  it('refuses a manifest entry that leads outside the folder: pull writes nothing, plan names it, push sends nothing', async () => {
    const folder = path.join(temp, 'hostile');
    await vscode.commands.executeCommand('convai.pullTenant', { connection: CONNECTION, tenantId, folder });
    const manifestFile = path.join(folder, 'convai-tenant.json');
    const manifest = readJson(manifestFile) as { resources: Array<{ file: string; name: string }> };
    const entry = manifest.resources.find((r) => r.name === 'Folder Prompt');
    assert.ok(entry);
    entry.file = '../outside/evil.json';
    writeJson(manifestFile, manifest as unknown as JsonObject);
    const pulled = await rejection(
      vscode.commands.executeCommand('convai.pullTenant', { connection: CONNECTION, tenantId, folder }),
    );
    assert.match(
      pulled.message,
      /Nothing was pulled: convai-tenant\.json:\d+:\d+: resources\[\d+\]\.file: "\.\.\/outside\/evil\.json" leads outside the folder/,
    );
    assert.ok(!fs.existsSync(path.join(temp, 'outside')), 'nothing written outside the folder');
    const plan = await vscode.commands.executeCommand<{ changes: PublicChange[]; problems?: string[] }>(
      'convai.planPush',
      { folder },
    );
    assert.match(
      (plan.problems ?? []).join('\n'),
      /resources\[\d+\]\.file: "\.\.\/outside\/evil\.json" leads outside the folder/,
    );
    assert.ok(!plan.changes.some((c) => c.action === 'delete'));
    await clearRequests();
    const pushed = await rejection(vscode.commands.executeCommand('convai.push', { folder, confirm: false }));
    assert.match(pushed.message, /Nothing was sent/);
    assert.deepEqual(
      (await receivedRequests()).filter((r) => r.method !== 'GET'),
      [],
    );
  });

  it('names what a folder holds that is no resource, with the nearest valid name', async () => {
    const folder = path.join(temp, 'careless');
    await vscode.commands.executeCommand('convai.pullTenant', { connection: CONNECTION, tenantId, folder });
    fs.mkdirSync(path.join(folder, 'intent'));
    writeJson(path.join(folder, 'intent', 'refund.json'), { name: 'refund', intent_type: 1 });
    fs.writeFileSync(path.join(folder, 'README.md'), '# kept beside the resources on purpose\n');
    const plan = await vscode.commands.executeCommand<{ changes: PublicChange[]; problems?: string[] }>(
      'convai.planPush',
      { folder },
    );
    assert.deepEqual(plan.changes, []);
    assert.deepEqual(plan.problems?.length, 1, (plan.problems ?? []).join('\n'));
    assert.match(plan.problems?.[0] ?? '', /^intent\/: .*did you mean "intents\/"\?/);
  });

  it('creates once when a push lost the answer to its create: the next push adopts the resource', async () => {
    const folder = path.join(temp, 'lost-answer');
    await vscode.commands.executeCommand('convai.pullTenant', { connection: CONNECTION, tenantId, folder });
    writeJson(path.join(folder, 'ai_prompts', 'lost-answer.json'), {
      name: 'Lost Answer',
      description: 'created once',
    });
    await injectFaults({ match: 'POST /api/v1/ai_prompts', loseAnswer: true });
    await rejection(vscode.commands.executeCommand('convai.push', { folder, confirm: false }));
    const pushed = await vscode.commands.executeCommand<{ applied: PublicChange[] }>('convai.push', {
      folder,
      confirm: false,
    });
    assert.deepEqual(pushed.applied, []);
    const named = (await admin.list(kind('ai_prompts'), tenantId)).filter((p) => p.name === 'Lost Answer');
    assert.equal(named.length, 1);
    assert.equal(readJson(path.join(folder, 'ai_prompts', 'lost-answer.json')).id, named[0]?.id);
  });
});
