// Run Affected Tests in the real VS Code against the local service: of the workspace's suites, exactly those whose
// prompt a pulled folder's planned push changes, or whose prompt hands on to a changed one, run.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { addConnection, admin, kind, removeConnection } from './support';

const CONNECTION = 'affected';

interface Answer {
  suites: Array<{ uri: string; passed: number; failed: number; cases: Array<{ name: string; passed: boolean }> }>;
}

describe('Run Affected Tests', () => {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-affected-'));
  const folder = path.join(temp, 'tenant');
  const suites: vscode.Uri[] = [];
  let tenantId = 0;

  const writeSuite = async (name: string, prompt: string, target: object): Promise<vscode.Uri> => {
    const workspace = vscode.workspace.workspaceFolders?.[0];
    assert.ok(workspace, 'the tests run in a workspace');
    const uri = vscode.Uri.joinPath(workspace.uri, `affected-${name}.prompttest.json`);
    const cases = [{ name: 'echoes', prompt_text: 'hello', expect: { response: { contains: 'hello' } } }];
    await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify({ target, prompt, cases }, null, 2)));
    suites.push(uri);
    return uri;
  };

  before(async () => {
    await addConnection(CONNECTION);
    tenantId = (await admin.create(kind('tenants'), { name: 'Affected Tenant', email: 'ops@affected.example' }))
      .id as number;
    const billing = (
      await admin.create(kind('ai_prompts'), { name: 'Billing', description: 'Takes payments' }, tenantId)
    ).id as number;
    await admin.create(kind('ai_prompts'), { name: 'Greeting', next_prompt_id: billing }, tenantId);
    await admin.create(kind('ai_prompts'), { name: 'Closing' }, tenantId);
  });
  after(async () => {
    for (const uri of suites) await vscode.workspace.fs.delete(uri);
    await admin.delete(kind('tenants'), tenantId);
    await removeConnection(CONNECTION);
    fs.rmSync(temp, { recursive: true, force: true });
  });

  it("runs exactly the suites of a changed prompt and of a prompt linking to it, of the folder's tenant", async () => {
    const target = { connection: CONNECTION, tenantId };
    const billing = await writeSuite('billing', 'Billing', target);
    const greeting = await writeSuite('greeting', 'Greeting', target);
    await writeSuite('closing', 'Closing', target);
    // Same name, another tenant: another prompt.
    await writeSuite('elsewhere', 'Billing', { connection: CONNECTION, tenantId: 1 });
    await vscode.commands.executeCommand('convai.pullTenant', { connection: CONNECTION, tenantId, folder });
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'convai-tenant.json'), 'utf8')) as {
      resources: Array<{ name: string; file: string }>;
    };
    const file = path.join(folder, manifest.resources.find((r) => r.name === 'Billing')?.file ?? 'missing');
    fs.writeFileSync(
      file,
      JSON.stringify(
        { ...(JSON.parse(fs.readFileSync(file, 'utf8')) as object), description: 'Takes payments and refunds' },
        null,
        2,
      ),
    );

    const answer = await vscode.commands.executeCommand<Answer>('convai.runAffectedTests', {
      folder: vscode.Uri.file(folder).toString(),
    });
    assert.deepEqual(
      answer.suites.map((s) => [s.uri, s.passed, s.failed]),
      [
        [billing.toString(), 1, 0],
        [greeting.toString(), 1, 0],
      ],
    );
  });

  it('names the fix for a folder no tenant was pulled into', async () => {
    await assert.rejects(
      Promise.resolve(
        vscode.commands.executeCommand('convai.runAffectedTests', { folder: vscode.Uri.file(temp).toString() }),
      ),
      /holds no pulled tenant \(no convai-tenant\.json\): pull a tenant into it first/,
    );
  });
});
