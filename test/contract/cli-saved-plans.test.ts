/**
 * Saved plans through the command-line tool, as CI uses them: `plan --out` on the reviewed pull request, `push
 * --plan` at the merge, which sends exactly what was reviewed or nothing.
 */
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { kindById } from '../../src/core/resources';
import type { RecordedRequest } from '../service/request-log';
import { runCli, type Run } from './cli-process';
import { freshTenant, useContract, type ContractContext } from './setup';

const SECRET = 'saved-plan-crm-secret-51d0';

describe('contract: saved plans (CLI)', function () {
  let ctx: ContractContext;
  let work: string;
  let folder: string;
  let tenantId: number;
  let greeting: number;
  let closing: number;
  const prompts = kindById('prompt');

  const run = (...args: string[]): Promise<Run> => runCli(args, work, { CONVAI_TOKEN: ctx.service.adminToken });
  const at = (file: string): string => path.join(folder, ...file.split('/'));
  const writes = (): Array<Pick<RecordedRequest, 'method' | 'path' | 'fields'>> =>
    ctx.service.requests
      .list()
      .filter((r) => r.method !== 'GET')
      .map(({ method, path: requestPath, fields }) => ({ method, path: requestPath, ...(fields ? { fields } : {}) }));

  useContract((started) => {
    ctx = started;
  });
  beforeEach(async () => {
    tenantId = await freshTenant(ctx, 'Saved Plans');
    greeting = (await ctx.admin.create(prompts, { name: 'Greeting', system: 'Say hello.' }, tenantId)).id as number;
    closing = (await ctx.admin.create(prompts, { name: 'Closing', system: 'Say goodbye.' }, tenantId)).id as number;
    await ctx.admin.create(
      kindById('integration'),
      { name: 'CRM', system: 'http_api', technical_id: 'crm', tec_params: { api_key: SECRET } },
      tenantId,
    );
    work = await mkdtemp(path.join(tmpdir(), 'convai-saved-plans-'));
    folder = path.join(work, 'folder');
    const pulled = await run('pull', '--url', ctx.service.url, '--tenant', String(tenantId), 'folder');
    assert.equal(pulled.code, 0, pulled.stderr);
    // Reviewed: Greeting's text changed, Closing removed, a new prompt.
    await writeFile(at('ai_prompts/greeting.system.md'), 'Say hello warmly.');
    await rm(at('ai_prompts/closing.json'));
    await rm(at('ai_prompts/closing.system.md'));
    await writeFile(at('ai_prompts/farewell.json'), JSON.stringify({ name: 'Farewell', system: 'Bye.' }));
  });
  afterEach(async () => {
    await rm(work, { recursive: true, force: true });
  });

  async function savedPlan(): Promise<string> {
    const planned = await run('plan', '--out', 'plan.json', 'folder');
    assert.equal(planned.code, 0, planned.stderr);
    assert.match(planned.stdout, /3 changes/, 'the plan is printed as without --out');
    assert.match(planned.stderr, /Saved the plan to .*plan\.json; push exactly it with .* push --plan /);
    ctx.service.requests.clear();
    return readFile(path.join(work, 'plan.json'), 'utf8');
  }

  it('pushes a saved plan unchanged: the service receives exactly its writes, in its order', async () => {
    const text = await savedPlan();
    const saved = JSON.parse(text) as { changes: Array<{ action: string; file: string }> };
    assert.deepEqual(
      saved.changes.map((c) => [c.action, c.file]),
      [
        ['create', 'ai_prompts/farewell.json'],
        ['update', 'ai_prompts/greeting.json'],
        ['delete', 'ai_prompts/closing.json'],
      ],
    );
    const pushed = await run('push', '--plan', 'plan.json', 'folder');
    assert.equal(pushed.code, 0, pushed.stderr);
    assert.deepEqual(writes(), [
      { method: 'POST', path: '/api/v1/ai_prompts', fields: ['name', 'system'] },
      { method: 'PUT', path: `/api/v1/ai_prompts/${greeting}`, fields: ['system'] },
      { method: 'DELETE', path: `/api/v1/ai_prompts/${closing}` },
    ]);
    assert.equal((await ctx.admin.get(prompts, greeting, tenantId)).system, 'Say hello warmly.');
  });

  it('holds no token and no credential', async () => {
    const text = await savedPlan();
    for (const value of [ctx.service.adminToken, SECRET, 'Say hello warmly.'])
      assert.ok(!text.includes(value), `${value} is in the saved plan`);
  });

  it('sends nothing after a file was edited since, naming it (exit 1)', async () => {
    await savedPlan();
    await writeFile(at('ai_prompts/greeting.system.md'), 'Say hello coldly.');
    const pushed = await run('push', '--plan', 'plan.json', 'folder');
    assert.equal(pushed.code, 1);
    assert.match(
      pushed.stderr,
      /Nothing was sent: the folder changed since .*plan\.json was made \(ai_prompts\/greeting\.system\.md edited\)/,
    );
    assert.deepEqual(writes(), []);
    assert.deepEqual(ctx.service.requests.list(), [], 'the files are compared before any request');
  });

  it('sends nothing after the service changed a resource in the plan, naming it; a change to one not in it is fine', async () => {
    await savedPlan();
    const other = (await ctx.admin.create(prompts, { name: 'Elsewhere' }, tenantId)).id as number;
    await ctx.admin.update(kindById('tenant'), tenantId, { name: 'Renamed on the service' });
    await ctx.admin.update(prompts, greeting, { description: 'a colleague was here' }, tenantId);
    ctx.service.requests.clear();
    const refused = await run('push', '--plan', 'plan.json', 'folder');
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /Nothing was sent: the service changed since .*plan\.json was made \(ai_prompts\/greeting\.json \(ai_prompts \d+ "Greeting"\): changed on the service since the pull \(description\)\)/,
    );
    assert.ok(!refused.stderr.includes('Elsewhere') && !refused.stderr.includes('tenant.json'), refused.stderr);
    assert.deepEqual(writes(), []);

    await ctx.admin.update(prompts, greeting, { description: null }, tenantId);
    await ctx.admin.update(prompts, other, { description: 'changed, not in the plan' }, tenantId);
    ctx.service.requests.clear();
    const pushed = await run('push', '--plan', 'plan.json', 'folder');
    assert.equal(pushed.code, 0, pushed.stderr);
    assert.deepEqual(
      writes().map((w) => w.method),
      ['POST', 'PUT', 'DELETE'],
    );
  });

  it('writes no plan a push would refuse, nor one inside the folder or where it cannot be written', async () => {
    await ctx.admin.update(prompts, greeting, { system: 'Theirs.' }, tenantId);
    const conflict = await run('plan', '--out', 'plan.json', 'folder');
    assert.equal(conflict.code, 1);
    assert.match(conflict.stderr, /No plan was written to .*plan\.json: The plan holds 1 conflict/);
    assert.ok(!existsSync(path.join(work, 'plan.json')));

    ctx.service.requests.clear();
    const inside = await run('plan', '--out', 'folder/plan.json', 'folder');
    assert.equal(inside.code, 2);
    assert.match(
      inside.stderr,
      /--out: .*plan\.json is inside the folder, where any other file is a problem of the plan: write it outside the folder .* or as a dotfile in it/,
    );
    const missing = await run('plan', '--out', 'no-such-folder/plan.json', 'folder');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--out: .*no-such-folder does not exist/);
    assert.deepEqual(ctx.service.requests.list(), [], 'refused before any request');
  });

  /** A saved plan's file as a hand edits it: parsed, changed, written back as plan --out lays it out. */
  type PlanFile = Record<string, unknown> & { changes: Array<Record<string, unknown>> };
  const byHand =
    (edit: (plan: PlanFile) => void) =>
    (text: string): string => {
      const plan = JSON.parse(text) as PlanFile;
      edit(plan);
      return `${JSON.stringify(plan, null, 2)}\n`;
    };
  const handEdits: Array<[string, (text: string) => string, RegExp]> = [
    [
      'a change listed twice',
      byHand((plan) => plan.changes.push(plan.changes[1] as Record<string, unknown>)),
      /changes\[3\] lists ai_prompts\/greeting\.json again, as changes\[1\] does/,
    ],
    [
      'a name edited',
      byHand((plan) => Object.assign(plan.changes[1] as object, { name: 'Greeting (approved)' })),
      /its content does not match its "digest"/,
    ],
    [
      'an unknown key added',
      byHand((plan) => Object.assign(plan, { approvedBy: 'reviewer' })),
      /it holds "approvedBy", which a saved plan does not/,
    ],
    ['the digest removed', byHand((plan) => delete plan.digest), /it has no "digest"/],
    // A hex digit of the hash of a file that is still as it was: the plan's file changed, not the folder.
    [
      'one byte changed',
      (text) =>
        text.replace(
          /("ai_prompts\/greeting\.system\.md": ")(.)/,
          (_, key: string, digit: string) => `${key}${digit === '0' ? '1' : '0'}`,
        ),
      /its content does not match its "digest"/,
    ],
  ];
  for (const [what, edit, reason] of handEdits) {
    it(`refuses a saved plan with ${what} as altered, naming its file, before any request (exit 1)`, async () => {
      const text = await savedPlan();
      const edited = edit(text);
      assert.notEqual(edited, text);
      await writeFile(path.join(work, 'plan.json'), edited);
      const refused = await run('push', '--plan', 'plan.json', 'folder');
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(refused.stderr, /Nothing was sent: .*plan\.json was altered after it was saved \(/);
      assert.match(refused.stderr, reason);
      assert.doesNotMatch(refused.stderr, /the (service|folder) changed/);
      assert.deepEqual(ctx.service.requests.list(), [], 'nothing sent, not even a read');

      // The plan as saved still pushes: the refusal was the edit's.
      await writeFile(path.join(work, 'plan.json'), text);
      const pushed = await run('push', '--plan', 'plan.json', 'folder');
      assert.equal(pushed.code, 0, pushed.stderr);
      assert.deepEqual(
        writes().map((w) => w.method),
        ['POST', 'PUT', 'DELETE'],
      );
    });
  }

  it('pushes a saved plan with a byte-order mark, as an editor on Windows may save it', async () => {
    const text = await savedPlan();
    await writeFile(path.join(work, 'plan.json'), `\uFEFF${text.replace(/\n/g, '\r\n')}`);
    const pushed = await run('push', '--plan', 'plan.json', 'folder');
    assert.equal(pushed.code, 0, pushed.stderr);
    assert.deepEqual(
      writes().map((w) => w.method),
      ['POST', 'PUT', 'DELETE'],
    );
    assert.equal((await ctx.admin.get(prompts, greeting, tenantId)).system, 'Say hello warmly.');
  });

  it('refuses a plan saved by the earlier version, which has no digest, asking to save it again (exit 2)', async () => {
    const text = await savedPlan();
    await writeFile(
      path.join(work, 'plan.json'),
      byHand((plan) => {
        plan.convaiSavedPlan = 1;
        delete plan.digest;
      })(text),
    );
    const refused = await run('push', '--plan', 'plan.json', 'folder');
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      /--plan: .*plan\.json was saved by an earlier version, without the digest .*; save the plan again with this version \(plan --out\)/,
    );
    assert.deepEqual(ctx.service.requests.list(), []);
  });

  it('never writes over the push journal, a manifest, a suite or through a link: exit 2, the file intact', async () => {
    // A journal of one step, as a push stopped midway leaves it: overwritten, every command on the folder would fail.
    await writeFile(at('.convai-tenant.journal'), '{"pending":[]}\n');
    await mkdir(path.join(work, 'other'));
    await writeFile(path.join(work, 'other/convai-tenant.json'), '{"connection":"cli"}\n');
    await writeFile(path.join(work, 'greeting.prompttest.json'), '{"prompt":"Greeting","cases":[]}\n');
    await writeFile(path.join(work, 'notes.txt'), 'my notes\n');
    await symlink(path.join(work, 'notes.txt'), path.join(work, 'linked-plan.json'));
    const refusals: Array<[string, RegExp]> = [
      [
        'folder/.convai-tenant.journal',
        /is named as a tenant folder's push journal \(\.convai-tenant\.journal\), a file this tool reads/,
      ],
      ['folder/convai-tenant.json', /is named as a tenant folder's manifest \(convai-tenant\.json\)/],
      ['other/convai-tenant.json', /is named as a tenant folder's manifest \(convai-tenant\.json\)/],
      ['greeting.prompttest.json', /is named as a prompt test suite \(\*\.prompttest\.json\)/],
      ['linked-plan.json', /is a symbolic link \(to .*notes\.txt\): the plan would replace the file it points to/],
    ];
    ctx.service.requests.clear();
    for (const [out, says] of refusals) {
      const file = path.join(work, out);
      const before = await readFile(file);
      const refused = await run('plan', '--out', out, 'folder');
      assert.equal(refused.code, 2, `${out}: ${refused.stderr}`);
      assert.match(refused.stderr, says, out);
      assert.match(
        refused.stderr,
        new RegExp(
          `^--out ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} .*; nothing was sent: give --out a file of its own, e\\.g\\. --out plan\\.json\\.$`,
          'm',
        ),
        out,
      );
      assert.deepEqual(await readFile(file), before, `${out} is left as it was`);
    }
    assert.deepEqual(ctx.service.requests.list(), [], 'refused before any request');
    assert.equal(await readFile(path.join(work, 'notes.txt'), 'utf8'), 'my notes\n');
    // The folder's commands still work, and an ordinary file is written.
    const ok = await run('plan', '--out', 'plan.json', 'folder');
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(await readFile(path.join(work, 'plan.json'), 'utf8'), /convaiSavedPlan/);
  });

  it('refuses a file that is no saved plan, naming it (exit 2)', async () => {
    await writeFile(path.join(work, 'other.json'), '{"changes": []}');
    const pushed = await run('push', '--plan', 'other.json', 'folder');
    assert.equal(pushed.code, 2);
    assert.match(pushed.stderr, /--plan: .*other\.json is not a saved plan \(it has no "convaiSavedPlan"\)/);
  });
});
