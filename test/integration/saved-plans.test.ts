// Saved plans in a real VS Code against the local service: Plan Push writes one, Push sends exactly it, or nothing
// when the folder moved since. The edits go to a tenant of the test's own.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PublicChange } from '../../src/core/tenant/plan-text';
import {
  addConnection,
  admin,
  adminToken,
  clearRequests,
  kind,
  receivedRequests,
  rejection,
  removeConnection,
} from './support';

const CONNECTION = 'saved-plans';

describe('saved plans: convai.planPush { out } and convai.push { plan }', () => {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-saved-plans-'));
  let tenantId = 0;
  let promptId = 0;

  before(async () => {
    await addConnection(CONNECTION);
    tenantId = (await admin.create(kind('tenants'), { name: 'Saved Plan Tenant', email: 'ops@saved.example' }))
      .id as number;
    promptId = (
      await admin.create(
        kind('ai_prompts'),
        { name: 'Reviewed Prompt', description: 'before', system: 'Be brief.' },
        tenantId,
      )
    ).id as number;
  });
  after(async () => {
    await admin.delete(kind('tenants'), tenantId);
    await removeConnection(CONNECTION);
    fs.rmSync(temp, { recursive: true, force: true });
  });

  /** A fresh pull with the prompt's description edited, and its plan saved beside the folder. */
  async function savedPlanOf(name: string): Promise<{ folder: string; out: string }> {
    const folder = path.join(temp, name);
    await vscode.commands.executeCommand('convai.pullTenant', { connection: CONNECTION, tenantId, folder });
    const file = path.join(folder, 'ai_prompts', 'reviewed-prompt.json');
    fs.writeFileSync(
      file,
      `${JSON.stringify({ ...(JSON.parse(fs.readFileSync(file, 'utf8')) as object), description: `reviewed in ${name}` }, null, 2)}\n`,
    );
    const out = path.join(temp, `${name}.plan.json`);
    const planned = await vscode.commands.executeCommand<{ changes: PublicChange[]; problems: string[] }>(
      'convai.planPush',
      { folder, out },
    );
    assert.deepEqual(planned, {
      changes: [
        { action: 'update', segment: 'ai_prompts', id: promptId, name: 'Reviewed Prompt', fields: ['description'] },
      ],
      problems: [],
    });
    return { folder, out };
  }

  it('writes a saved plan without a credential, and pushes exactly it', async () => {
    const { folder, out } = await savedPlanOf('pushed');
    const text = fs.readFileSync(out, 'utf8');
    assert.ok(
      !text.includes(adminToken) && !text.includes('reviewed in pushed'),
      'no token and no value in the saved plan',
    );
    await clearRequests();
    const pushed = await vscode.commands.executeCommand<{ applied: PublicChange[] }>('convai.push', {
      folder,
      confirm: false,
      plan: out,
    });
    assert.deepEqual(
      pushed.applied.map((c) => [c.action, c.name, c.fields]),
      [['update', 'Reviewed Prompt', ['description']]],
    );
    const writes = (await receivedRequests()).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(writes, [`PUT /api/v1/ai_prompts/${promptId}`]);
    assert.equal((await admin.get(kind('ai_prompts'), promptId, tenantId)).description, 'reviewed in pushed');
  });

  it('sends nothing when a file was edited after the plan was saved, naming it', async () => {
    const { folder, out } = await savedPlanOf('edited');
    fs.writeFileSync(path.join(folder, 'ai_prompts', 'reviewed-prompt.system.md'), 'Be long-winded.');
    await clearRequests();
    const error = await rejection(vscode.commands.executeCommand('convai.push', { folder, confirm: false, plan: out }));
    assert.match(
      error.message,
      /Nothing was sent: the folder changed since .*edited\.plan\.json was made \(ai_prompts\/reviewed-prompt\.system\.md edited\)/,
    );
    assert.deepEqual(await receivedRequests(), [], 'no request at all');
    assert.equal((await admin.get(kind('ai_prompts'), promptId, tenantId)).system, 'Be brief.');
  });

  it('sends nothing when the saved plan itself was edited by hand, naming it as altered', async () => {
    const { folder, out } = await savedPlanOf('altered');
    fs.writeFileSync(
      out,
      fs.readFileSync(out, 'utf8').replace('"name": "Reviewed Prompt"', '"name": "Approved Prompt"'),
    );
    await clearRequests();
    const error = await rejection(vscode.commands.executeCommand('convai.push', { folder, confirm: false, plan: out }));
    assert.match(
      error.message,
      /Nothing was sent: .*altered\.plan\.json was altered after it was saved \(its content does not match its "digest"/,
    );
    assert.deepEqual(await receivedRequests(), [], 'no request at all');
    assert.notEqual((await admin.get(kind('ai_prompts'), promptId, tenantId)).description, 'reviewed in altered');
  });

  it('refuses to save a plan inside the folder, where it would be a problem of the next plan', async () => {
    const folder = path.join(temp, 'pushed');
    const error = await rejection(
      vscode.commands.executeCommand('convai.planPush', { folder, out: path.join(folder, 'plan.json') }),
    );
    assert.match(error.message, /No plan was saved: .*plan\.json is inside the folder/);
    assert.ok(!fs.existsSync(path.join(folder, 'plan.json')));
  });
});
