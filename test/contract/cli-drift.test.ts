/**
 * Drift through the command-line tool against the local service: what
 * changed, appeared or disappeared there since the pull, `plan --drift`'s
 * notes of it, a plain plan that asks nothing, and a rejected token that
 * fails every command that asks.
 */
import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { kindById } from '../../src/core/resources';
import { runCli, type Run } from './cli-process';
import { freshTenant, useContract, type ContractContext } from './setup';

interface Entry {
  segment: string;
  id: number;
  file: string;
  name: string;
}
interface DriftJson {
  drifted: Array<{ segment: string; id: number; name: string; change: string; fields: string[] }>;
}
interface PlanJson {
  changes: Array<{ action: string; name: string }>;
  problems: string[];
  drift?: DriftJson['drifted'];
}
interface Logged {
  method: string;
  path: string;
}

describe('contract: drift (CLI)', function () {
  let ctx: ContractContext;
  let work: string;
  let tenantId: number;
  const prompts = kindById('prompt');

  const run = (...args: string[]): Promise<Run> => runCli(args, work, { CONVAI_TOKEN: ctx.service.adminToken });
  const entries = async (): Promise<Entry[]> =>
    (JSON.parse(await readFile(path.join(work, 'folder', 'convai-tenant.json'), 'utf8')) as { resources: Entry[] })
      .resources;
  const entry = async (name: string): Promise<Entry> => {
    const found = (await entries()).find((e) => e.segment === 'ai_prompts' && e.name === name);
    assert.ok(found, `${name} was pulled`);
    return found;
  };
  const logged = async (): Promise<Logged[]> =>
    (await (await request(`${ctx.service.url}/__test/requests`)).body.json()) as Logged[];
  const clearLog = (): Promise<string> =>
    request(`${ctx.service.url}/__test/requests`, { method: 'DELETE' }).then((r) => r.body.text());

  useContract((started) => {
    ctx = started;
  });
  beforeEach(async () => {
    tenantId = await freshTenant(ctx, 'Drift');
    await ctx.admin.create(prompts, { name: 'Greeting', system: 'Say hello.', description: 'Greets' }, tenantId);
    await ctx.admin.create(prompts, { name: 'Closing', system: 'Say goodbye.' }, tenantId);
    await ctx.admin.create(prompts, { name: 'Untouched', system: 'Stay.' }, tenantId);
    work = await mkdtemp(path.join(tmpdir(), 'convai-drift-'));
    const pulled = await run('pull', '--url', ctx.service.url, '--tenant', String(tenantId), 'folder');
    assert.equal(pulled.code, 0, pulled.stderr);
  });
  afterEach(async () => {
    await rm(work, { recursive: true, force: true });
  });

  /** Another client changes the service over its HTTP API: a field of Greeting, a new prompt, Closing deleted. */
  async function driftOnService(): Promise<{ greeting: Entry; closing: Entry; madeId: number }> {
    const greeting = await entry('Greeting');
    const closing = await entry('Closing');
    await ctx.admin.update(prompts, greeting.id, { description: 'Changed in the web form' }, tenantId);
    await ctx.admin.delete(prompts, closing.id, tenantId);
    const made = await ctx.admin.create(prompts, { name: 'Made Elsewhere', system: 'New.' }, tenantId);
    return { greeting, closing, madeId: made.id as number };
  }

  it('finds no drift in a folder just pulled (exit 0)', async () => {
    const plain = await run('drift', 'folder');
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stdout, /nothing changed on the service since the pull\./);
    const json = await run('drift', '--json', 'folder');
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), { drifted: [] });
  });

  it('lists a changed field, a created and a deleted resource, in --json too (exit 1)', async () => {
    const { greeting, closing, madeId } = await driftOnService();
    const json = await run('drift', '--json', 'folder');
    assert.equal(json.code, 1, json.stderr);
    assert.deepEqual((JSON.parse(json.stdout) as DriftJson).drifted, [
      { segment: 'ai_prompts', id: closing.id, name: 'Closing', change: 'deleted', fields: [] },
      { segment: 'ai_prompts', id: greeting.id, name: 'Greeting', change: 'changed', fields: ['description'] },
      { segment: 'ai_prompts', id: madeId, name: 'Made Elsewhere', change: 'created', fields: [] },
    ]);
    const table = await run('drift', 'folder');
    assert.equal(table.code, 1);
    assert.match(table.stdout, /3 resources changed, created or deleted on the service since the pull\./);
    assert.match(
      table.stdout,
      new RegExp(`^changed +ai_prompts +${greeting.id} +Greeting +${greeting.file} +description$`, 'm'),
    );
    assert.match(table.stdout, /^created +ai_prompts +\d+ +Made Elsewhere +- +-$/m);
    assert.match(table.stdout, new RegExp(`^deleted +ai_prompts +${closing.id} +Closing +${closing.file} +-$`, 'm'));
  });

  it('notes with plan --drift the drift the folder does not change, never as a conflict or problem (exit 0)', async () => {
    const { greeting, closing } = await driftOnService();
    const untouched = await entry('Untouched');
    const file = path.join(work, 'folder', ...untouched.file.replace(/\.json$/, '.system.md').split('/'));
    await writeFile(file, 'Stay here.');
    const json = await run('plan', '--drift', '--json', 'folder');
    assert.equal(json.code, 0, json.stderr);
    const planned = JSON.parse(json.stdout) as PlanJson;
    assert.deepEqual(
      planned.changes.map((c) => [c.action, c.name]),
      [['update', 'Untouched']],
    );
    assert.deepEqual(planned.problems, []);
    assert.deepEqual(
      planned.drift?.map((d) => [d.change, d.name]),
      [
        ['deleted', 'Closing'],
        ['changed', 'Greeting'],
        ['created', 'Made Elsewhere'],
      ],
    );
    const text = await run('plan', '--drift', 'folder');
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      new RegExp(
        `^note: ${greeting.file}: changed on the service since the pull \\(description\\); the folder does not change it, so a push leaves it as the service holds it\\.$`,
        'm',
      ),
    );
    assert.match(text.stdout, new RegExp(`^note: ${closing.file}: deleted on the service since the pull;`, 'm'));
    assert.match(
      text.stdout,
      /^note: ai_prompts "Made Elsewhere" \(id \d+\): created on the service since the pull; pull to get it;/m,
    );
    assert.doesNotMatch(text.stdout, /conflict|Problems/);
  });

  it('leaves drift the folder changes to the plan (a conflict), and says when there is none', async () => {
    const greeting = await entry('Greeting');
    await ctx.admin.update(prompts, greeting.id, { description: 'Changed in the web form' }, tenantId);
    const part = path.join(work, 'folder', ...greeting.file.replace(/\.json$/, '.system.md').split('/'));
    await writeFile(part, 'Say hello warmly.');
    const json = await run('plan', '--drift', '--json', 'folder');
    assert.equal(json.code, 1, 'the conflict fails the plan');
    const planned = JSON.parse(json.stdout) as PlanJson;
    assert.deepEqual(
      planned.changes.map((c) => [c.action, c.name]),
      [['conflict', 'Greeting']],
    );
    assert.deepEqual(planned.drift, [], 'the conflict is not noted twice');
    const text = await run('plan', '--drift', 'folder');
    assert.match(
      text.stdout,
      /^No drift: the service holds what was pulled of every resource the folder does not change\.$/m,
    );
  });

  it('sends no request for a plain plan of an unchanged folder, whatever drifted, and says nothing of drift', async () => {
    await driftOnService();
    await clearLog();
    const plain = await run('plan', 'folder');
    assert.equal(plain.code, 0, plain.stderr);
    assert.deepEqual(await logged(), [], 'a plain plan reads only the folder');
    assert.doesNotMatch(plain.stdout + plain.stderr, /note:|No drift/);
    const json = await run('plan', '--json', 'folder');
    assert.deepEqual(Object.keys(JSON.parse(json.stdout) as PlanJson), ['changes', 'problems']);
  });

  it('fails (exit 1) with a token the service rejects for drift, plan --drift and push of an unchanged folder, never showing it', async () => {
    const token = 'rejected-token-5d1e';
    for (const args of [
      ['drift', 'folder'],
      ['plan', '--drift', 'folder'],
      ['push', 'folder'],
    ]) {
      const result = await runCli(args, work, { CONVAI_TOKEN: token });
      assert.equal(result.code, 1, `${args.join(' ')}: ${result.stdout}${result.stderr}`);
      assert.match(
        result.stderr,
        /401 Unauthorized.*Set the environment variable CONVAI_TOKEN to a valid token for this service\./,
        args.join(' '),
      );
      assert.doesNotMatch(result.stdout + result.stderr, new RegExp(token));
      assert.doesNotMatch(result.stdout, /Nothing to push/);
    }
  });

  it('pushes an unchanged folder after asking the service once, and says what it checked', async () => {
    await clearLog();
    const pushed = await run('push', 'folder');
    assert.equal(pushed.code, 0, pushed.stderr);
    assert.equal(pushed.stdout.trim(), 'Nothing to push: no change in the folder since the pull.');
    assert.deepEqual(
      (await logged()).map((l) => [l.method, l.path]),
      [['GET', `/api/v1/tenants/${tenantId}`]],
    );
  });
});
