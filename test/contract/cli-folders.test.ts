/**
 * Hostile and careless tenant folders through the command-line tool, as CI
 * runs it on a pull request: what a folder may hold, what it may not name,
 * and a push that is never sent twice.
 */
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import type { JsonObject } from '../../src/core/json';
import { kindById } from '../../src/core/resources';
import { runCli, type Run } from './cli-process';
import { freshTenant, useContract, type ContractContext } from './setup';

interface ManifestFile {
  baseUrl: string;
  resources: Array<{ segment: string; id: number; file: string; name: string }>;
  pending?: unknown[];
}

describe('contract: what a tenant folder may hold and name (CLI)', function () {
  let ctx: ContractContext;
  let work: string;
  let folder: string;
  let tenantId: number;
  const prompts = kindById('prompt');

  const run = (...args: string[]): Promise<Run> => runCli(args, work, { CONVAI_TOKEN: ctx.service.adminToken });
  const plan = async (): Promise<{
    result: Run;
    changes: Array<{ action: string; name: string }>;
    problems: string[];
  }> => {
    const result = await run('plan', '--json', 'folder');
    const parsed = JSON.parse(result.stdout) as {
      changes: Array<{ action: string; name: string }>;
      problems: string[];
    };
    return { result, ...parsed };
  };
  const at = (file: string): string => path.join(folder, ...file.split('/'));
  const manifest = async (): Promise<ManifestFile> =>
    JSON.parse(await readFile(at('convai-tenant.json'), 'utf8')) as ManifestFile;
  const saveManifest = async (value: ManifestFile): Promise<void> =>
    writeFile(at('convai-tenant.json'), JSON.stringify(value, null, 2));

  useContract((started) => {
    ctx = started;
  });
  beforeEach(async () => {
    tenantId = await freshTenant(ctx, 'Folders');
    await ctx.admin.create(prompts, { name: 'Greeting', system: 'Say hello.', user_prompt: 'Hi {{name}}' }, tenantId);
    await ctx.admin.create(prompts, { name: 'Closing', system: 'Say goodbye.' }, tenantId);
    work = await mkdtemp(path.join(tmpdir(), 'convai-folders-'));
    folder = path.join(work, 'folder');
    const pulled = await run('pull', '--url', ctx.service.url, '--tenant', String(tenantId), 'folder');
    assert.equal(pulled.code, 0, pulled.stderr);
  });
  afterEach(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('refuses a manifest entry that leads outside the folder: nothing is read or written there (exit 1)', async () => {
    const value = await manifest();
    const greeting = value.resources.find((r) => r.name === 'Greeting');
    assert.ok(greeting);
    greeting.file = '../outside/evil.json';
    await saveManifest(value);
    const planned = await plan();
    assert.equal(planned.result.code, 1);
    assert.match(
      planned.problems.join('\n'),
      /^convai-tenant\.json:\d+:\d+: resources\[\d\]\.file: "\.\.\/outside\/evil\.json" leads outside the folder/m,
    );
    assert.ok(!planned.changes.some((c) => c.action === 'delete'), 'an entry it may not follow is never a delete');
    const pulled = await run('pull', '--url', ctx.service.url, '--tenant', String(tenantId), 'folder');
    assert.equal(pulled.code, 1);
    assert.match(pulled.stderr, /Nothing was pulled: convai-tenant\.json:\d+:\d+: resources\[\d\]\.file/);
    assert.ok(!existsSync(path.join(work, 'outside')), 'nothing written outside');
    const pushed = await run('push', 'folder');
    assert.equal(pushed.code, 1);
    assert.ok(!existsSync(path.join(work, 'outside')));
  });

  it('refuses absolute paths and device names in the manifest', async () => {
    const value = await manifest();
    const [first, second] = value.resources.filter((r) => r.segment === 'ai_prompts');
    assert.ok(first && second);
    first.file = path.join(work, 'abs.json');
    second.file = 'ai_prompts/CON.json';
    await saveManifest(value);
    const { result, problems } = await plan();
    assert.equal(result.code, 1);
    assert.match(problems.join('\n'), /absolute/);
    assert.match(problems.join('\n'), /device/);
  });

  it('never follows a symbolic link out of the folder, for a file or a kind folder', async () => {
    const outside = path.join(work, 'outside');
    await mkdir(outside);
    await writeFile(path.join(outside, 'secret.json'), JSON.stringify({ name: 'outside-secret-text' }));
    await symlink(path.join(outside, 'secret.json'), at('ai_prompts/linked.json'));
    await symlink(outside, at('intents'));
    const { result, problems } = await plan();
    assert.equal(result.code, 1);
    assert.match(problems.join('\n'), /^ai_prompts\/linked\.json: .*symbolic link/m);
    assert.match(problems.join('\n'), /^intents\/?: .*symbolic link/m);
    assert.ok(
      !result.stdout.includes('outside-secret-text') && !result.stderr.includes('outside-secret-text'),
      'nothing read through a link',
    );
    const pulled = await run('pull', '--url', ctx.service.url, '--tenant', String(tenantId), 'folder');
    assert.equal(pulled.code, 1);
    assert.match(pulled.stderr, /Nothing was pulled/);
    assert.deepEqual(
      await readFile(path.join(outside, 'secret.json'), 'utf8'),
      JSON.stringify({ name: 'outside-secret-text' }),
    );
  });

  it('reports what it does not understand with the nearest valid name, and allows READMEs and dotfiles', async () => {
    await mkdir(at('intent'));
    await writeFile(at('intent/refund.json'), JSON.stringify({ name: 'refund', intent_type: 1 }));
    await writeFile(at('ai_prompts/extra.JSON'), JSON.stringify({ name: 'Extra' }));
    await writeFile(at('ai_prompts/notes.txt'), 'notes');
    await writeFile(at('README.md'), '# Our tenant');
    await writeFile(at('.gitignore'), '*.log');
    await mkdir(at('.git'));
    await writeFile(at('.git/HEAD'), 'ref: refs/heads/main');
    const { result, problems, changes } = await plan();
    assert.equal(result.code, 1);
    assert.deepEqual(changes, [], 'nothing in those files becomes a change');
    const text = problems.join('\n');
    assert.match(text, /intent\/.*did you mean .*intents\//);
    assert.match(text, /ai_prompts\/extra\.JSON.*did you mean .*extra\.json/);
    assert.match(text, /ai_prompts\/notes\.txt/);
    assert.ok(
      problems.every((p) => !/^(README\.md|\.gitignore|\.git\/)/.test(p)),
      'READMEs, dotfiles and dot-folders are allowed',
    );
    const table = await run('plan', 'folder');
    assert.equal(table.code, 1);
    assert.match(table.stdout, /Problems \(a push sends nothing until they are fixed\)/);
  });

  it('reports a deleted text part of a pulled prompt with both ways out, and pull restores it', async () => {
    const greeting = (await manifest()).resources.find((r) => r.name === 'Greeting');
    assert.ok(greeting);
    const part = greeting.file.replace(/\.json$/, '.system.md');
    await rm(at(part));
    const { result, problems, changes } = await plan();
    assert.equal(result.code, 1);
    assert.deepEqual(changes, []);
    assert.deepEqual(problems, [
      `${part}: system: this text part of ${greeting.file} is missing; restore it with pull, or write an empty file to clear the field`,
    ]);
    assert.equal((await run('pull', '--url', ctx.service.url, '--tenant', String(tenantId), 'folder')).code, 0);
    assert.equal(await readFile(at(part), 'utf8'), 'Say hello.\n');
    await writeFile(at(part), '');
    const cleared = await plan();
    assert.deepEqual(
      cleared.changes.map((c) => c.action),
      ['update'],
    );
  });

  it("keeps a text file's final newline out of the text: echo >> pushes the line apart, an editor's newline nothing, a text ending in one round-trips", async () => {
    const part = 'ai_prompts/greeting.system.md';
    const greeting = (await ctx.admin.list(prompts, tenantId)).find((p) => p.name === 'Greeting')?.id as number;
    assert.equal(await readFile(at(part), 'utf8'), 'Say hello.\n', 'the text and one newline');
    await writeFile(at(part), 'Say hello.\n', { flag: 'w' });
    assert.deepEqual((await plan()).changes, [], 'an editor keeping the final newline changes nothing');
    await writeFile(at(part), 'Be brief.\n', { flag: 'a' });
    assert.equal((await run('push', 'folder')).code, 0);
    assert.equal(
      (await ctx.admin.get(prompts, greeting, tenantId)).system,
      'Say hello.\nBe brief.',
      'echo >> adds a line of its own',
    );
    assert.deepEqual((await plan()).changes, []);
    await ctx.admin.update(prompts, greeting, { system: 'Ends in a newline.\n' }, tenantId);
    assert.equal((await run('pull', 'folder')).code, 0);
    assert.equal(await readFile(at(part), 'utf8'), 'Ends in a newline.\n\n');
    assert.deepEqual((await plan()).changes, [], "the text's own newline survives the round trip");
    await writeFile(at(part), 'Edited, and ends in a newline.\n\n');
    assert.equal((await run('push', 'folder')).code, 0);
    assert.equal((await ctx.admin.get(prompts, greeting, tenantId)).system, 'Edited, and ends in a newline.\n');
  });

  it("pulls after a refused push keeping only the fields and text files the user edited: a colleague's edit arrives, and the plan holds only the user's change", async () => {
    const onService = await ctx.admin.list(prompts, tenantId);
    const idOf = (name: string): number => onService.find((p) => p.name === name)?.id as number;
    const greeting = idOf('Greeting');
    const closing = idOf('Closing');
    const greetingJson = await readFile(at('ai_prompts/greeting.json'), 'utf8');
    await writeFile(at('ai_prompts/greeting.system.md'), 'Say hello, briefly.\n');
    // Only formatting: no change, neither kept nor planned.
    await writeFile(
      at('ai_prompts/closing.json'),
      JSON.stringify(JSON.parse(await readFile(at('ai_prompts/closing.json'), 'utf8'))),
    );
    await ctx.admin.update(
      prompts,
      greeting,
      { system: 'Say hello, theirs.', description: 'from a colleague' },
      tenantId,
    );
    await ctx.admin.update(prompts, closing, { description: 'closing, from a colleague' }, tenantId);
    const refused = await run('push', 'folder');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /Nothing was sent: 1 resource changed both here and on the service/);

    const pulled = await run('pull', 'folder');
    assert.equal(pulled.code, 0, pulled.stderr);
    assert.match(pulled.stdout, /: 3 resources; 2 files written, 1 file kept with your changes, 0 files removed\.\n/);
    assert.deepEqual(pulled.stdout.split('\n').slice(1).filter(Boolean), [
      'kept ai_prompts/greeting.system.md (your change: system)',
    ]);
    assert.equal(
      await readFile(at('ai_prompts/greeting.system.md'), 'utf8'),
      'Say hello, briefly.\n',
      'the edited text is kept',
    );
    assert.notEqual(await readFile(at('ai_prompts/greeting.json'), 'utf8'), greetingJson);
    assert.equal(
      (JSON.parse(await readFile(at('ai_prompts/greeting.json'), 'utf8')) as JsonObject).description,
      'from a colleague',
      "the colleague's description arrives",
    );
    assert.equal(
      (JSON.parse(await readFile(at('ai_prompts/closing.json'), 'utf8')) as JsonObject).description,
      'closing, from a colleague',
    );
    const listed = await run('pull', '--list-written', 'folder');
    assert.deepEqual(
      listed.stdout.split('\n').slice(1).filter(Boolean),
      ['kept ai_prompts/greeting.system.md (your change: system)'],
      'nothing left to write',
    );

    const planned = await run('plan', '--json', 'folder');
    assert.equal(planned.code, 0, planned.stderr);
    assert.deepEqual((JSON.parse(planned.stdout) as { changes: unknown[] }).changes, [
      { action: 'update', segment: 'ai_prompts', id: greeting, name: 'Greeting', fields: ['system'] },
    ]);
    assert.equal((await run('push', 'folder')).code, 0);
    const held = await ctx.admin.get(prompts, greeting, tenantId);
    assert.deepEqual([held.system, held.description], ['Say hello, briefly.', 'from a colleague']);
  });

  it('says of a plain plan with no change only what it checked: no change in the folder since the pull', async () => {
    await ctx.admin.update(
      prompts,
      (await ctx.admin.list(prompts, tenantId)).find((p) => p.name === 'Closing')?.id as number,
      { description: 'changed on the service' },
      tenantId,
    );
    const planned = await run('plan', 'folder');
    assert.equal(planned.code, 0, planned.stderr);
    assert.match(planned.stdout, /: no change in the folder since the pull\.\n$/);
    assert.doesNotMatch(planned.stdout + planned.stderr, /match/);
  });

  it('refuses two resources of one kind with one name, naming both files', async () => {
    await writeFile(at('ai_prompts/greeting-again.json'), JSON.stringify({ name: 'Greeting' }));
    const { result, problems } = await plan();
    assert.equal(result.code, 1);
    assert.match(
      problems.join('\n'),
      /ai_prompts\/greeting(-again)?\.json:\d+:\d+: name: "Greeting" is also the name of ai_prompts\/greeting(-again)?\.json/,
    );
  });

  it("creates exactly once when the create's answer is lost between two pushes", async () => {
    await writeFile(at('ai_prompts/welcome.json'), JSON.stringify({ name: 'Welcome', description: 'new' }));
    await request(`${ctx.service.url}/__test/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ queue: [{ match: 'POST /api/v1/ai_prompts', loseAnswer: true }] }),
    }).then((r) => r.body.text());
    const first = await run('push', 'folder');
    assert.equal(first.code, 1);
    const second = await run('push', 'folder');
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /note: ai_prompts\/welcome\.json: adopted AI Prompt "Welcome" \(id \d+\)/);
    const named = (await ctx.admin.list(prompts, tenantId)).filter((p) => p.name === 'Welcome');
    assert.equal(named.length, 1, 'one Welcome on the service');
    assert.equal((JSON.parse(await readFile(at('ai_prompts/welcome.json'), 'utf8')) as JsonObject).id, named[0]?.id);
    assert.deepEqual((await plan()).changes, []);
  });

  it('sends nothing to a host a changed manifest names when CONVAI_URL names the service (exit 2), and plans when both agree', async () => {
    const seen: string[] = [];
    const elsewhere = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res.end('[]');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    try {
      const value = await manifest();
      const other = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
      await saveManifest({ ...value, baseUrl: other });
      for (const command of ['plan', 'push', 'pull']) {
        const refused = await runCli([command, 'folder'], work, {
          CONVAI_TOKEN: ctx.service.adminToken,
          CONVAI_URL: ctx.service.url,
        });
        assert.equal(refused.code, 2, refused.stderr);
        assert.match(
          refused.stderr,
          new RegExp(`names the service ${other}, but CONVAI_URL is ${ctx.service.url}: nothing was sent`),
        );
        assert.doesNotMatch(refused.stderr + refused.stdout, new RegExp(ctx.service.adminToken));
      }
      assert.deepEqual(seen, [], 'the other host got no request, so no token');
      await saveManifest(value);
      const agreed = await runCli(['plan', 'folder'], work, {
        CONVAI_TOKEN: ctx.service.adminToken,
        CONVAI_URL: `${ctx.service.url}/`,
      });
      assert.equal(agreed.code, 0, agreed.stderr);
    } finally {
      await new Promise((resolve) => elsewhere.close(resolve));
    }
  });

  it('gives no editor advice in a terminal', async () => {
    const runs = [
      await run('plan', 'folder'),
      await runCli(['plan', 'folder'], work, { CONVAI_TOKEN: 'not-the-token' }),
    ];
    for (const { stdout, stderr } of runs) {
      assert.doesNotMatch(`${stdout}${stderr}`, /convai\.[a-zA-Z]+|ConvAI: |http\.proxy/);
    }
  });
});
