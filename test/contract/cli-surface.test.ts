/**
 * The command-line tool's surface, run as CI runs it (a child process against
 * the local service): help, the flags every command reads the same way, and a
 * token that never shows in what the tool prints, whatever it is.
 */
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import module from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { kindById } from '../../src/core/resources';
import { startService, type RunningService } from '../service/server';
import { startContract, type ContractContext } from './setup';
import { runCli, type Run } from './cli-process';

interface JsonReport {
  passed: number;
  failed: number;
  suites: Array<{
    file: string;
    cases: Array<{
      name: string;
      passed: boolean;
      runs: number;
      passes: number;
      passRate: number;
      interval: number[];
      messages: string[];
    }>;
  }>;
}

const echoes = (name: string, text: string): object => ({
  name,
  prompt_text: text,
  expect: { response: { contains: text } },
});
const expectsOther = (name: string, text: string): object => ({
  name,
  prompt_text: text,
  expect: { response: { contains: 'gpt-5' } },
});

describe("contract: the command-line tool's surface", function () {
  let ctx: ContractContext;
  let work: string;
  const run = (args: string[], token = ctx.service.adminToken): Promise<Run> =>
    runCli(args, work, { CONVAI_TOKEN: token });

  before(async () => {
    ctx = await startContract();
    work = await mkdtemp(path.join(tmpdir(), 'convai-cli-surface-'));
    await writeFile(
      path.join(work, 'triage.prompttest.json'),
      JSON.stringify({ target: { tenantId: 1 }, prompt: 'Order Triage', cases: [echoes('echoes', 'hello')] }),
    );
  });
  after(async () => {
    await ctx.close();
    await rm(work, { recursive: true, force: true });
  });

  it("help <command> prints the command's help, as <command> --help does; help of no command is a usage error naming the commands", async () => {
    const help = await run(['help', 'test']);
    assert.equal(help.code, 0, help.stderr);
    assert.equal(help.stdout, (await run(['test', '--help'])).stdout);
    assert.match(help.stdout, /^Usage: node dist\/cli\.js test \[--url <base URL>\]/);
    assert.match(help.stdout, /exits 130/, "Ctrl+C's exit code");
    const unknown = await run(['help', 'tset']);
    assert.equal(unknown.code, 2);
    assert.equal(unknown.stdout, '');
    assert.match(
      unknown.stderr,
      /^"tset" is not a command; use one of pull, plan, push, drift, map, test, trials \(node dist\/cli\.js --help\)\.$/m,
    );
    const tool = await run(['help']);
    assert.equal(tool.code, 0);
    assert.match(tool.stdout, /^Exit codes: 0 success; .*; 130 stopped by Ctrl\+C\.$/m);
    assert.match(tool.stdout, /node dist\/cli\.js help <command>/);
  });

  it("keeps no compiled code in its cache folder: node's compile cache holds it, where node has one", async () => {
    const cache = path.join(work, 'cache');
    const compiled = path.join(work, 'compile-cache');
    for (let i = 0; i < 2; i++) {
      const version = await runCli(['--version'], work, { CONVAI_CACHE_DIR: cache, NODE_COMPILE_CACHE: compiled });
      assert.equal(version.code, 0, version.stderr);
      assert.match(version.stdout, /^\d+\.\d+\.\d+/);
    }
    assert.equal(existsSync(cache), false, 'the tool wrote into its cache folder');
    const hasCompileCache = 'enableCompileCache' in module;
    assert.equal(existsSync(compiled), hasCompileCache, "node's compile cache is used exactly where node has one");
  });

  it("reads a negative number as the flag's value and says what the flag takes, however it is written", async () => {
    const tenant =
      /^--tenant "-1" is not a tenant id: a tenant id is a whole number, 0 or more; give the tenant's, e.g\. --tenant 1\.$/m;
    const cases: Array<[string[], RegExp]> = [
      [['test', '--url', ctx.service.url, '--tenant', '-1', 'triage.prompttest.json'], tenant],
      [['test', '--url', ctx.service.url, '--tenant=-1', 'triage.prompttest.json'], tenant],
      [['pull', '--url', ctx.service.url, '--tenant', '-1', 'folder'], tenant],
      [
        ['test', '--url', ctx.service.url, '--concurrency', '-4', 'triage.prompttest.json'],
        /^--concurrency "-4" is not a number of requests at once: give a whole number from 1 to 16/m,
      ],
      [
        ['test', '--url', ctx.service.url, '--shard', '-1/2', 'triage.prompttest.json'],
        /^--shard "-1\/2" is not a part of the run: give i\/n/m,
      ],
    ];
    for (const [args, says] of cases) {
      const result = await run(args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, says);
      assert.doesNotMatch(result.stderr, /ambiguous/);
    }
  });

  it('refuses a single-valued flag given twice with different values, for every command', async () => {
    const shard = await run([
      'test',
      '--url',
      ctx.service.url,
      '--shard',
      '1/2',
      '--shard',
      '2/2',
      'triage.prompttest.json',
    ]);
    assert.equal(shard.code, 2);
    assert.match(shard.stderr, /^test: --shard is given twice, as "1\/2" and "2\/2"; give it once\.$/m);
    const pull = await run(['pull', '--url', ctx.service.url, '--tenant', '1', '--tenant=2', 'folder']);
    assert.equal(pull.code, 2);
    assert.match(pull.stderr, /^pull: --tenant is given twice, as "1" and "2"; give it once\.$/m);
    const same = await run([
      'test',
      '--url',
      ctx.service.url,
      '--tenant',
      '1',
      '--tenant',
      '1',
      'triage.prompttest.json',
    ]);
    assert.equal(same.code, 0, same.stderr);
  });

  describe('the token', () => {
    let short: RunningService;
    before(async () => {
      short = await startService({ port: 0, adminToken: '1', testMode: true });
    });
    after(() => short.close());

    it('a short one (1), no secret to hide, leaves names, ids and numbers as they are, and --json valid', async () => {
      await writeFile(
        path.join(work, 'short.prompttest.json'),
        JSON.stringify({
          target: { tenantId: 1 },
          prompt: 'Order Triage',
          cases: [
            echoes('says 1', '1'),
            echoes('passes', 'ok'),
            expectsOther('fails once', '1.5 and 11'),
            { ...echoes('thrice', 'again'), repeat: 3 },
          ],
        }),
      );
      const result = await runCli(['test', '--url', short.url, '--json', 'short.prompttest.json'], work, {
        CONVAI_TOKEN: '1',
      });
      assert.equal(result.code, 1, result.stderr);
      const report = JSON.parse(result.stdout) as JsonReport;
      assert.equal(report.passed, 3);
      assert.equal(report.failed, 1);
      const cases = report.suites[0]?.cases ?? [];
      assert.deepEqual(
        cases.map((c) => [c.name, c.passed, c.runs, c.passes, c.passRate]),
        [
          ['says 1', true, 1, 1, 1],
          ['passes', true, 1, 1, 1],
          ['fails once', false, 1, 0, 0],
          ['thrice', true, 3, 3, 1],
        ],
      );
      assert.equal(
        cases[2]?.messages[0],
        'response: does not contain "gpt-5"; it is "Echo (gpt-4o-mini): 1.5 and 11"',
        'a number holding the token is no token',
      );
      const text = await runCli(['test', '--url', short.url, 'short.prompttest.json'], work, { CONVAI_TOKEN: '1' });
      assert.equal(text.code, 1, text.stderr);
      assert.match(text.stdout, /^ {2}says 1 +/m);
      assert.doesNotMatch(text.stdout + text.stderr, /redacted/);
    });

    it('a realistic one never shows, even where the service echoes it, in tables, --json, errors and the JUnit file', async () => {
      const tenantId = (
        await ctx.admin.create(kindById('tenant'), { name: 'Echoes Tokens', email: 'a@echoes.example' })
      ).id as number;
      const token = (await ctx.admin.get(kindById('tenant'), tenantId)).auth_token as string;
      assert.match(token, /^[0-9a-f]{48}$/);
      await ctx.admin.create(kindById('prompt'), { name: 'Echo' }, tenantId);
      await writeFile(
        path.join(work, 'echo.prompttest.json'),
        JSON.stringify({
          target: { tenantId },
          prompt: 'Echo',
          cases: [
            echoes('echoes it', `token ${token}`),
            expectsOther('shows it in a failure', `Bearer ${token}.`),
            expectsOther('glued to a newline', `line\n${token}`),
          ],
        }),
      );
      const outputs: Run[] = [];
      for (const extra of [['--junit', 'echo.xml'], ['--json']])
        outputs.push(await run(['test', '--url', ctx.service.url, ...extra, 'echo.prompttest.json'], token));
      outputs.push(await run(['test', '--url', ctx.service.url, '--tenant', '999999', 'echo.prompttest.json'], token));
      const [table, json, refused] = outputs;
      assert.equal(table?.code, 1, table?.stderr);
      assert.match(table?.stdout ?? '', /it is "Echo \(default model\): Bearer \[redacted\]\."$/m);
      assert.match(
        table?.stdout ?? '',
        /it is "Echo \(default model\): line\\n\[redacted\]"$/m,
        'glued to an escaped line break',
      );
      assert.equal(json?.code, 1, json?.stderr);
      const messages = (JSON.parse(json?.stdout ?? '') as JsonReport).suites[0]?.cases.flatMap((c) => c.messages);
      assert.deepEqual(messages, [
        'response: does not contain "gpt-5"; it is "Echo (default model): Bearer [redacted]."',
        'response: does not contain "gpt-5"; it is "Echo (default model): line\\n[redacted]"',
      ]);
      assert.equal(refused?.code, 2);
      for (const { stdout, stderr } of outputs) assert.ok(!`${stdout}${stderr}`.includes(token), `${stdout}${stderr}`);
      const junit = await readFile(path.join(work, 'echo.xml'), 'utf8');
      assert.match(junit, /Bearer \[redacted\]\./);
      assert.ok(!junit.includes(token), junit);
    });
  });
});
