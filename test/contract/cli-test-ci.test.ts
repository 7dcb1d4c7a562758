/**
 * `dist/cli.js test` as CI pipelines use it beyond one plain run, against the
 * local service: a baseline to catch regressions, shards for parallel jobs,
 * only the suites a tenant folder's planned push affects, and Ctrl+C.
 */
import * as assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { kindById } from '../../src/core/resources';
import { raw } from './fixtures';
import { startContract, type ContractContext } from './setup';
import { runCli, startCli, type Run } from './cli-process';

interface JsonReport {
  passed: number;
  failed: number;
  suites: Array<{
    file: string;
    cases: Array<{
      name: string;
      passed: boolean;
      passes: number;
      runs: number;
      regressed?: boolean;
      messages: string[];
    }>;
  }>;
}

const echoes = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name,
  prompt_text: name,
  expect: { response: { contains: name } },
  ...extra,
});

describe('contract: the command-line tool (test in CI)', function () {
  let ctx: ContractContext;
  let work: string;
  const env = (): Record<string, string> => ({ CONVAI_TOKEN: ctx.service.adminToken });
  const run = (...args: string[]): Promise<Run> => runCli(['test', '--url', ctx.service.url, ...args], work, env());
  const json = (result: Run): JsonReport => JSON.parse(result.stdout) as JsonReport;
  const suite = async (file: string, prompt: string | number, cases: unknown[], tenantId = 1): Promise<void> => {
    await mkdir(path.dirname(path.join(work, file)), { recursive: true });
    await writeFile(path.join(work, file), JSON.stringify({ target: { tenantId }, prompt, cases }));
  };

  before(async () => {
    ctx = await startContract();
    work = await mkdtemp(path.join(tmpdir(), 'convai-cli-ci-'));
    await suite('steady/triage.prompttest.json', 'Order Triage', [
      echoes('always'),
      // minPassRate 0 passes it whatever it answers: only a baseline can see it got worse.
      { name: 'decays', prompt_text: 'x', repeat: 20, minPassRate: 0, expect: { response: { contains: 'gpt-5' } } },
    ]);
    await suite(
      'many/triage.prompttest.json',
      'Order Triage',
      Array.from({ length: 12 }, (_, i) => echoes(`case ${i}`)),
    );
  });
  after(async () => {
    await ctx.close();
    await rm(work, { recursive: true, force: true });
  });

  it('--baseline: a case whose passes dropped significantly is regressed and fails (exit 1); the same run against itself passes', async () => {
    const first = await run('--json', 'steady');
    assert.equal(first.code, 0, first.stderr);
    await writeFile(path.join(work, 'same.json'), first.stdout);
    const same = await run('--baseline', 'same.json', 'steady');
    assert.equal(same.code, 0, same.stderr);

    const better = json(first);
    const decays = better.suites[0]?.cases.find((c) => c.name === 'decays');
    assert.ok(decays);
    decays.passes = 20;
    await writeFile(path.join(work, 'better.json'), JSON.stringify(better));
    const result = await run('--json', '--junit', 'baseline.xml', '--baseline', 'better.json', 'steady');
    assert.equal(result.code, 1, result.stderr);
    const cases = json(result).suites[0]?.cases ?? [];
    assert.deepEqual(
      cases.map((c) => [c.name, c.passed, c.regressed]),
      [
        ['always', true, undefined],
        ['decays', false, true],
      ],
    );
    assert.equal(cases[1]?.messages[0], 'regressed: 0/20 passed, against 20/20 in the baseline (p < 0.001)');
    assert.match(
      await readFile(path.join(work, 'baseline.xml'), 'utf8'),
      /name="decays"[^\n]*<property name="regressed" value="true"\/><\/properties><failure message="regressed: 0\/20 passed/,
    );
  });

  it('--baseline that cannot be read or is no report is a usage error (exit 2) naming the file and the fix', async () => {
    await writeFile(path.join(work, 'not-a-report.json'), '{"cases": []}');
    for (const [file, says] of [
      ['missing.json', /could not be read/],
      ['not-a-report.json', /is not a test --json report: it has no "suites" list/],
    ] as const) {
      const result = await run('--baseline', file, 'steady');
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, says);
      assert.ok(result.stderr.includes(path.join(work, file)), result.stderr);
      assert.match(result.stderr, /give --baseline a file that .* test --json wrote/);
    }
  });

  it('--shard i/n: the shards run every case exactly once between them', async () => {
    const names: string[] = [];
    for (const shard of ['1/3', '2/3', '3/3']) {
      const result = await run('--json', '--shard', shard, 'many');
      assert.equal(result.code, 0, result.stderr);
      names.push(...json(result).suites.flatMap((s) => s.cases.map((c) => c.name)));
    }
    assert.deepEqual([...names].sort(), Array.from({ length: 12 }, (_, i) => `case ${i}`).sort());
    for (const bad of ['0/3', '4/3', 'two']) {
      const result = await run('--shard', bad, 'many');
      assert.equal(result.code, 2);
      assert.match(result.stderr, new RegExp(`--shard "${bad}" is not a part of the run: .* e\\.g\\. --shard 2/4`));
    }
  });

  it('--affected-by: runs only the suites of changed prompts and of prompts whose links reach one', async () => {
    const prompts = kindById('prompt');
    const tenantId = (await ctx.admin.create(kindById('tenant'), { name: 'Affected', email: 'a@affected.example' }))
      .id as number;
    const billing = (await ctx.admin.create(prompts, { name: 'Billing', description: 'Takes payments' }, tenantId))
      .id as number;
    await ctx.admin.create(prompts, { name: 'Greeting', next_prompt_id: billing }, tenantId);
    await ctx.admin.create(prompts, { name: 'Closing' }, tenantId);
    for (const name of ['Billing', 'Greeting', 'Closing'])
      await suite(`affected/${name}.prompttest.json`, name, [echoes('hello')], tenantId);
    const pulled = await runCli(
      ['pull', '--url', ctx.service.url, '--tenant', String(tenantId), 'folder'],
      work,
      env(),
    );
    assert.equal(pulled.code, 0, pulled.stderr);
    const manifest = JSON.parse(await readFile(path.join(work, 'folder/convai-tenant.json'), 'utf8')) as {
      resources: Array<{ name: string; file: string }>;
    };
    const file = path.join(work, 'folder', manifest.resources.find((r) => r.name === 'Billing')?.file ?? '');
    await writeFile(
      file,
      JSON.stringify(
        { ...(JSON.parse(await readFile(file, 'utf8')) as object), description: 'Takes payments and refunds' },
        null,
        2,
      ),
    );

    const result = await run('--json', '--affected-by', 'folder', 'affected');
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      json(result).suites.map((s) => s.file),
      ['affected/Billing.prompttest.json', 'affected/Greeting.prompttest.json'],
    );
    assert.match(result.stderr, /^--affected-by folder: 1 planned change; 2 of 3 suites affected\.$/m);
  });

  it('Ctrl+C stops sending, reports what ran, writes JUnit with the cases not run as skipped, and exits 130', async () => {
    await suite('interrupted/1-first.prompttest.json', 'Order Triage', [echoes('first')]);
    // Fifty runs one at a time, each slowed by the service: Ctrl+C lands while they are being sent.
    await suite('interrupted/2-long.prompttest.json', 'Order Triage', [
      echoes('long', { repeat: 50 }),
      echoes('after'),
    ]);
    await raw(`${ctx.service.url}/__test/faults`, 'POST', ctx.service.adminToken, JSON.stringify({ latencyMs: 200 }));
    try {
      const started = startCli(
        ['test', '--url', ctx.service.url, '--concurrency', '1', '--junit', 'interrupted.xml', 'interrupted'],
        work,
        env(),
      );
      // The first suite's table shows its case has run and the second suite is being sent.
      await new Promise<void>((resolve) => {
        let seen = '';
        started.child.stdout.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          if (seen.includes('interrupted/1-first.prompttest.json')) resolve();
        });
      });
      started.child.kill('SIGINT');
      const result = await started.done;
      assert.equal(result.code, 130, result.stderr);
      assert.match(result.stdout, /^ {2}first +PASS /m);
      // Its first run may have ended before the signal: then it is stopped with that run, else not run at all.
      assert.match(result.stdout, /^ {2}long +SKIPPED /m);
      assert.match(result.stdout, /^Prompt tests: 1 passed, 0 failed, 2 skipped \(2 suites\)$/m);
      assert.match(
        result.stderr,
        /^Stopped by Ctrl\+C: nothing more was sent; 2 cases did not finish and are reported skipped, with the runs that ended\.$/m,
      );
      const xml = await readFile(path.join(work, 'interrupted.xml'), 'utf8');
      assert.match(xml, /<testsuites tests="3" failures="0" errors="0" skipped="2">/);
      assert.deepEqual(
        [...xml.matchAll(/ name="([^"]*)"[^\n]*<skipped /g)].map((m) => m[1]),
        ['long', 'after'],
      );
    } finally {
      await raw(`${ctx.service.url}/__test/faults`, 'POST', ctx.service.adminToken, JSON.stringify({ latencyMs: 0 }));
    }
  });
});
