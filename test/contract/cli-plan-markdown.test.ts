/**
 * `plan --format markdown` as CI runs it for a pull request's comment: the
 * CLI as a child process against the local service, on a pulled folder with
 * edits, printing a diff of the text and nothing secret, the same bytes each run.
 */
import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import type { JsonObject } from '../../src/core/json';
import { kindById } from '../../src/core/resources';
import { runCli, type Run } from './cli-process';
import { freshTenant, useContract, type ContractContext } from './setup';

describe('contract: plan --format markdown (CLI)', function () {
  let ctx: ContractContext;
  let work: string;
  const credential = 'sk-live-markdown-credential';
  const urlPassword = 'markdown-url-password';

  const run = (...args: string[]): Promise<Run> =>
    runCli(args, work, { CONVAI_TOKEN: ctx.service.adminToken, CONVAI_URL: ctx.service.url });
  const at = (file: string): string => path.join(work, 'folder', ...file.split('/'));
  const editJson = async (file: string, change: (value: JsonObject) => JsonObject): Promise<void> => {
    await writeFile(
      at(file),
      JSON.stringify(change(JSON.parse(await readFile(at(file), 'utf8')) as JsonObject), null, 2),
    );
  };
  const requests = async (): Promise<number> =>
    (JSON.parse(await request(`${ctx.service.url}/__test/requests`).then((r) => r.body.text())) as unknown[]).length;

  useContract((started) => {
    ctx = started;
  });
  beforeEach(async () => {
    const tenantId = await freshTenant(ctx, 'Review');
    await ctx.admin.create(
      kindById('prompt'),
      { name: 'Greeting', system: 'Say hello.\nBe brief.\nEnd politely.', temparature: 0.2 },
      tenantId,
    );
    await ctx.admin.create(
      kindById('integration'),
      {
        name: 'CRM',
        system: 'http_api',
        technical_id: 'crm',
        url: `https://crm:${urlPassword}@crm.example/api`,
        tec_params: { api_key: credential, model: 'm1' },
      },
      tenantId,
    );
    work = await mkdtemp(path.join(tmpdir(), 'convai-plan-markdown-'));
    const pulled = await run('pull', '--url', ctx.service.url, '--tenant', String(tenantId), 'folder');
    assert.equal(pulled.code, 0, pulled.stderr);
  });
  afterEach(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it("prints the text's diff and old → new, never the token or a credential, the same bytes on two runs", async () => {
    const system = await readFile(at('ai_prompts/greeting.system.md'), 'utf8');
    await writeFile(at('ai_prompts/greeting.system.md'), system.replace('Say hello.', 'Say hello warmly.'));
    await editJson('ai_prompts/greeting.json', (v) => ({ ...v, temparature: 0.7 }));
    await editJson('integrations/crm.json', (v) => ({
      ...v,
      url: String(v.url).replace('/api', '/v2'),
      tec_params: { ...(v.tec_params as JsonObject), model: 'm2' },
    }));
    const first = await run('plan', '--format', 'markdown', 'folder');
    assert.equal(first.code, 0, first.stderr);
    assert.ok(first.stdout.startsWith('<!-- convai-plan -->\n'), first.stdout);
    assert.match(first.stdout, /^\*\*2 changes:\*\* 0 creates, 2 updates, 0 deletes, 0 conflicts\.$/m);
    assert.ok(
      first.stdout.includes(
        '```diff\n@@ -1,3 +1,3 @@\n-Say hello.\n+Say hello warmly.\n Be brief.\n End politely.\n```',
      ),
      first.stdout,
    );
    assert.ok(first.stdout.includes('- `temparature`: `0.2` → `0.7`'), first.stdout);
    assert.match(
      first.stdout,
      /<details><summary>update Integration <code>CRM<\/code> \(id \d+\) in <code>integrations\/crm\.json<\/code><\/summary>/,
    );
    for (const secret of [ctx.service.adminToken, credential, urlPassword]) {
      assert.ok(!first.stdout.includes(secret) && !first.stderr.includes(secret), `${secret} is not printed`);
    }
    const second = await run('plan', '--format', 'markdown', 'folder');
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout, first.stdout, 'byte for byte');
  });

  it('exits 1 with the problem first when a push would send nothing, as a plain plan does', async () => {
    await editJson('ai_prompts/greeting.json', (v) => ({ ...v, max_tokens: 'many' }));
    const result = await run('plan', '--format', 'markdown', 'folder');
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stdout,
      /#### Problems \(a push sends nothing until they are fixed\)\n\n- `ai_prompts\/greeting\.json:\d+:\d+: max_tokens: /,
    );
    assert.match(result.stderr, /The plan holds 1 problem/);
  });

  it('refuses an unknown format or two formats at once before anything is sent (exit 2), naming the allowed ones', async () => {
    const before = await requests();
    const unknown = await run('plan', '--format', 'html', 'folder');
    assert.equal(unknown.code, 2);
    assert.equal(unknown.stdout, '');
    assert.match(
      unknown.stderr,
      /^--format "html" is not a format of plan: give one of text, markdown \(or --json for JSON\)\.$/m,
    );
    const both = await run('plan', '--json', '--format', 'markdown', 'folder');
    assert.equal(both.code, 2);
    assert.match(both.stderr, /give --json or --format markdown, not both/);
    assert.equal(await requests(), before, 'nothing was sent');
  });
});
