/**
 * `dist/cli.js test --trial <folder>` and `trials clean` against the local service: a folder's planned prompts tested
 * through trial copies, never writing a live prompt, and every copy gone however the run ends.
 */
import * as assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import type { JsonObject } from '../../src/core/json';
import { kindById } from '../../src/core/resources';
import type { RecordedRequest } from '../service/request-log';
import { runCli, signalledWhileTesting, type Run } from './cli-process';
import { startContract, type ContractContext } from './setup';

const PROMPT = kindById('prompt');
const TRIAGE = 2;
const HANDOFF = 4;

interface Report {
  passed: number;
  failed: number;
  suites: Array<{ cases: Array<JsonObject & { name: string }> }>;
  trial?: { tag: string; folder: string; copies: Array<{ id?: number; copy: number; name: string }>; deleted: boolean };
}

describe('contract: the command-line tool (trials)', function () {
  this.timeout(60_000);
  let ctx: ContractContext;
  let work: string;
  let cache: string;
  const env = (): Record<string, string> => ({ CONVAI_TOKEN: ctx.service.adminToken, CONVAI_CACHE_DIR: cache });
  const cli = (...args: string[]): Promise<Run> => runCli(args, work, env());
  const test = (...args: string[]): Promise<Run> => cli('test', '--url', ctx.service.url, ...args);
  const report = (run: Run): Report => JSON.parse(run.stdout) as Report;
  const copiesLeft = async (): Promise<string[]> =>
    (await ctx.admin.list(PROMPT, 1, { trialCopies: true }))
      .map((p) => String(p.name))
      .filter((name) => name.startsWith('[trial '));
  const writes = (): RecordedRequest[] =>
    ctx.service.requests.list().filter((r) => r.method !== 'GET' && !r.path.endsWith('/test_prompt'));
  const suite = async (file: string, body: JsonObject): Promise<void> => {
    await mkdir(path.dirname(path.join(work, file)), { recursive: true });
    await writeFile(path.join(work, file), JSON.stringify({ target: { tenantId: 1 }, ...body }));
  };
  /** The folder pulled fresh, with `model` as the planned ai_model of each prompt file named. */
  const folderWith = async (models: Record<string, string>): Promise<void> => {
    await rm(path.join(work, 'tenant'), { recursive: true, force: true });
    const pulled = await cli('pull', '--url', ctx.service.url, '--tenant', '1', 'tenant');
    assert.equal(pulled.code, 0, pulled.stderr);
    for (const [stem, model] of Object.entries(models)) {
      const file = path.join(work, 'tenant', 'ai_prompts', `${stem}.json`);
      const values = JSON.parse(await readFile(file, 'utf8')) as JsonObject;
      await writeFile(file, JSON.stringify({ ...values, ai_model: model }, null, 2));
    }
    ctx.service.requests.clear();
  };

  beforeEach(async () => {
    ctx = await startContract();
    work = await mkdtemp(path.join(tmpdir(), 'convai-cli-trials-'));
    cache = path.join(work, 'cache');
  });
  afterEach(async () => {
    await ctx.close();
    await rm(work, { recursive: true, force: true });
  });

  it('answers a changed prompt through its copy and an unchanged one live, writing no live prompt', async () => {
    await folderWith({ 'order-triage': 'trial-model' });
    await suite('suites/triage.prompttest.json', {
      prompt: 'Order Triage',
      cases: [{ name: 'new model', prompt_text: 'hi', expect: { response: { contains: 'Echo (trial-model)' } } }],
    });
    await suite('suites/greeting.prompttest.json', {
      prompt: 'Support Greeting',
      cases: [{ name: 'live model', prompt_text: 'hi', expect: { response: { contains: 'Echo (gpt-4o)' } } }],
    });
    const run = await test('--trial', 'tenant', '--json', 'suites');
    assert.equal(run.code, 0, run.stderr + run.stdout);
    const { trial, passed } = report(run);
    assert.equal(passed, 2);
    assert.equal(trial?.folder, 'tenant');
    assert.match(trial?.tag ?? '', /^[0-9a-f]{8}$/);
    assert.deepEqual(
      trial?.copies.map((c) => [c.id, c.name]),
      [[TRIAGE, 'Order Triage']],
    );
    assert.equal(trial?.deleted, true);
    const copy = trial?.copies[0]?.copy;
    const logged = ctx.service.requests.list();
    assert.deepEqual(
      writes().map((r) => `${r.method} ${r.path}`),
      ['POST /api/v1/ai_prompts', `DELETE /api/v1/ai_prompts/${copy}`],
      'the copy made and deleted, nothing live written',
    );
    assert.ok(logged.some((r) => r.path === `/api/v1/ai_prompts/${copy}/test_prompt`));
    assert.ok(
      logged.some((r) => r.path === '/api/v1/ai_prompts/1/test_prompt'),
      'the unchanged prompt answers live',
    );
    assert.ok(!logged.some((r) => r.path === `/api/v1/ai_prompts/${TRIAGE}/test_prompt`));
    assert.deepEqual(await copiesLeft(), []);
    assert.equal((await ctx.admin.get(PROMPT, TRIAGE, 1)).ai_model, 'gpt-4o-mini');
    const text = await test('--trial', 'tenant', 'suites');
    assert.match(
      text.stdout,
      /Trial of tenant: ran its version of 1 prompt \("Order Triage"\) through copies named "\[trial [0-9a-f]{8}\] …", all deleted since; no live prompt was written\./,
    );
  });

  it('hands a conversation over to a changed prompt through its copy, reported as the live prompt', async () => {
    await folderWith({ 'order-triage': 'trial-triage', 'human-handoff': 'trial-handoff' });
    await suite('suites/refund.prompttest.json', {
      prompt: 'Order Triage',
      cases: [
        {
          name: 'refund',
          turns: [
            { prompt_text: 'I want a refund', expect: { prompt: 'Order Triage', next_prompt_id: HANDOFF } },
            {
              prompt_text: 'Thanks',
              expect: { prompt: 'Human Handoff', response: { contains: 'Echo (trial-handoff)' } },
            },
          ],
        },
      ],
    });
    const run = await test('--trial', 'tenant', '--json', 'suites');
    assert.equal(run.code, 0, run.stderr + run.stdout);
    const { trial, suites } = report(run);
    const turns = suites[0]?.cases[0]?.turns as Array<{ promptId: number; promptName: string }>;
    assert.deepEqual(
      turns.map((t) => [t.promptId, t.promptName]),
      [
        [TRIAGE, 'Order Triage'],
        [HANDOFF, 'Human Handoff'],
      ],
    );
    const handoffCopy = trial?.copies.find((c) => c.id === HANDOFF)?.copy;
    assert.ok(ctx.service.requests.list().some((r) => r.path === `/api/v1/ai_prompts/${handoffCopy}/test_prompt`));
    assert.deepEqual(await copiesLeft(), []);
  });

  /** A folder whose Order Triage answers with another model, and a suite of one case each way, named `better`. */
  async function compareCase(better: string): Promise<void> {
    await folderWith({ 'order-triage': 'trial-model' });
    const repeated = { prompt_text: 'hi', repeat: 5 };
    await suite('suites/compare.prompttest.json', {
      prompt: 'Order Triage',
      cases: [
        { name: 'keeps the live model', ...repeated, expect: { response: { contains: 'gpt-4o-mini' } } },
        { name: better, ...repeated, expect: { response: { contains: 'trial-model' } } },
        { name: 'either', ...repeated, expect: { response: { contains: 'Echo' } } },
      ],
    });
  }

  it('--compare marks a case the trial made worse regressed (exit 1) and one it made better improved', async () => {
    await compareCase('takes the new model');
    const run = await test('--trial', 'tenant', '--compare', '--json', 'suites');
    assert.equal(run.code, 1, run.stderr);
    const cases = report(run).suites[0]?.cases ?? [];
    assert.deepEqual(
      cases.map((c) => [c.name, c.passed, c.regressed, c.improved]),
      [
        ['keeps the live model', false, true, undefined],
        ['takes the new model', true, undefined, true],
        ['either', true, undefined, undefined],
      ],
    );
    assert.deepEqual(cases[0]?.live, {
      runs: 5,
      passes: 5,
      errors: 0,
      passRate: 1,
      interval: cases[2]?.interval,
      verdict: 'pass',
    });
    const text = await test('--trial', 'tenant', '--compare', 'suites');
    assert.match(text.stdout, /keeps the live model: live 5\/5 → trial 0\/5, regressed/);
    assert.match(text.stdout, /takes the new model: live 0\/5 → trial 5\/5, improved/);
    assert.deepEqual(await copiesLeft(), []);
  });

  it("plan --tests adds the Behaviour section after the summary, from a trial's reports, one per shard", async () => {
    await compareCase('takes the new | model');
    const shards: string[] = [];
    for (const shard of ['1/2', '2/2']) {
      const run = await test('--trial', 'tenant', '--compare', '--json', '--shard', shard, 'suites');
      assert.ok(run.code === 0 || run.code === 1, run.stderr);
      const file = `report-${shard.replace('/', 'of')}.json`;
      await writeFile(path.join(work, file), run.stdout);
      shards.push('--tests', file);
    }
    const plan = await cli('plan', '--format', 'markdown', ...shards, 'tenant');
    assert.equal(plan.code, 0, plan.stderr);
    const lines = plan.stdout.split('\n');
    const summary = lines.findIndex((l) => l.startsWith('**1 change:**'));
    assert.equal(lines[summary + 2], '#### Behaviour', plan.stdout);
    const rows = lines.filter((l) => l.startsWith('| `'));
    assert.deepEqual(rows, [
      '| `suites/compare.prompttest.json` | `keeps the live model` | 5/5 | 0/5 | **regressed** |',
      '| `suites/compare.prompttest.json` | `takes the new \\| model` | 0/5 | 5/5 | **improved** |',
      '| `suites/compare.prompttest.json` | `either` | 5/5 | 5/5 | same |',
    ]);
    const twice = await cli('plan', '--format', 'markdown', ...shards, '--tests', shards[1] ?? '', 'tenant');
    assert.equal(twice.code, 2);
    assert.match(twice.stderr, /is in both report-.* and report-/);
    const text = await cli('plan', '--tests', shards[1] ?? '', 'tenant');
    assert.equal(text.code, 2);
    assert.match(text.stderr, /give --format markdown with it/);
  });

  it('Ctrl+C deletes the copies and exits 130; a killed run leaves them for the next run or trials clean', async () => {
    await folderWith({ 'order-triage': 'trial-model' });
    await request(`${ctx.service.url}/__test/faults`, { method: 'POST', body: JSON.stringify({ latencyMs: 50 }) }).then(
      (r) => r.body.text(),
    );
    await suite('suites/long.prompttest.json', {
      prompt: 'Order Triage',
      cases: [{ name: 'long', prompt_text: 'hi', repeat: 100, expect: { response: { contains: 'Echo' } } }],
    });
    const args = ['test', '--url', ctx.service.url, '--concurrency', '1', '--trial', 'tenant', 'suites'];
    const tested = (): Promise<void> => ctx.service.requests.arrivals(1, (r) => r.path.endsWith('/test_prompt'));
    const stopped = await signalledWhileTesting(tested, 'SIGINT', args, work, env());
    assert.equal(stopped.code, 130, stopped.stderr);
    assert.deepEqual(await copiesLeft(), [], 'Ctrl+C deletes the copies');

    await signalledWhileTesting(tested, 'SIGKILL', args, work, env());
    const [left] = await copiesLeft();
    assert.match(left ?? '', /^\[trial [0-9a-f]{8}\] Order Triage$/, 'a killed run cannot delete');
    assert.equal((await readdir(path.join(cache, 'trials'))).length, 1, 'its journal names the copy');
    const clean = await cli('trials', 'clean', '--url', ctx.service.url, '--tenant', '1');
    assert.equal(clean.code, 0, clean.stderr);
    assert.ok(clean.stdout.includes(`Deleted "${left}"`), clean.stdout);
    assert.deepEqual(await copiesLeft(), []);
    assert.deepEqual(await readdir(path.join(cache, 'trials')), []);
  });

  it('the next trial run deletes what a killed run left, and trials clean --all what another machine left', async () => {
    await folderWith({ 'order-triage': 'trial-model' });
    await ctx.admin.create(PROMPT, { name: '[trial 0badc0de] Order Triage', system: 'x' }, 1);
    await suite('suites/one.prompttest.json', {
      prompt: 'Order Triage',
      cases: [{ name: 'one', prompt_text: 'hi', expect: { response: { contains: 'Echo' } } }],
    });
    const ran = await test('--trial', 'tenant', 'suites');
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual(await copiesLeft(), ['[trial 0badc0de] Order Triage'], 'no journal here names it');
    const clean = await cli('trials', 'clean', '--url', ctx.service.url, '--tenant', '1', '--all');
    assert.equal(clean.code, 0, clean.stderr);
    assert.deepEqual(await copiesLeft(), []);
    const usage = await cli('trials', 'clean', '--url', ctx.service.url, '--all');
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--all deletes every copy in one tenant: give it with --tenant <id>/);
  });

  it('pull, plan and drift never show, write or delete a copy on the service', async () => {
    await ctx.admin.create(PROMPT, { name: '[trial 0badc0de] Order Triage', system: 'x' }, 1);
    const pulled = await cli('pull', '--url', ctx.service.url, '--tenant', '1', 'tenant');
    assert.equal(pulled.code, 0, pulled.stderr);
    const files = await readdir(path.join(work, 'tenant', 'ai_prompts'));
    assert.ok(!files.some((f) => f.includes('trial')), files.join(', '));
    await ctx.admin.create(PROMPT, { name: '[trial 12345678] Later', system: 'x' }, 1);
    const plan = await cli('plan', 'tenant');
    assert.equal(plan.code, 0, plan.stdout + plan.stderr);
    assert.match(plan.stdout, /no change/);
    const drift = await cli('drift', 'tenant');
    assert.equal(drift.code, 0, drift.stdout + drift.stderr);
    assert.equal((await copiesLeft()).length, 2);
  });

  it('refuses a folder it cannot try (a conflict, another tenant, a suite naming a deleted prompt), writing nothing', async () => {
    await folderWith({ 'order-triage': 'trial-model' });
    await suite('suites/triage.prompttest.json', {
      prompt: 'Order Triage',
      cases: [{ name: 'one', prompt_text: 'hi', expect: { response: { contains: 'Echo' } } }],
    });
    await ctx.admin.update(PROMPT, TRIAGE, { ai_model: 'changed-on-service' }, 1);
    ctx.service.requests.clear();
    const conflict = await test('--trial', 'tenant', 'suites');
    assert.equal(conflict.code, 2, conflict.stderr);
    assert.match(conflict.stderr, /--trial tenant: .*order-triage\.json/);
    assert.match(conflict.stderr, /No prompt test ran and nothing was written/);

    await folderWith({ 'order-triage': 'trial-model' });
    const tenant = await test('--trial', 'tenant', '--tenant', '2', 'suites');
    assert.equal(tenant.code, 2, tenant.stderr);
    assert.match(tenant.stderr, /the folder holds tenant 1, but .* runs in tenant 2/);

    for (const file of await readdir(path.join(work, 'tenant', 'ai_prompts')))
      if (file.startsWith('order-triage.')) await rm(path.join(work, 'tenant', 'ai_prompts', file));
    const deleted = await test('--trial', 'tenant', 'suites');
    assert.equal(deleted.code, 2, deleted.stderr);
    assert.match(deleted.stderr, /names "Order Triage" \(2\), which the folder deletes/);
    assert.deepEqual(writes(), [], 'nothing was written by any of them');
    assert.deepEqual(await copiesLeft(), []);
  });

  it('counts the copies in the request bound: a create and a delete each', async () => {
    await folderWith({ 'order-triage': 'trial-model' });
    await suite('suites/one.prompttest.json', {
      prompt: 'Order Triage',
      cases: [{ name: 'one', prompt_text: 'hi', expect: { response: { contains: 'Echo' } } }],
    });
    const refused = await test('--trial', 'tenant', '--max-requests', '2', 'suites');
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /could send up to 3 requests, more than --max-requests 2/);
    assert.deepEqual(writes(), []);
    const allowed = await test('--trial', 'tenant', '--max-requests', '3', 'suites');
    assert.equal(allowed.code, 0, allowed.stderr);
  });
});
