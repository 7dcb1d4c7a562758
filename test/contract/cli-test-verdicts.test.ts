/**
 * `dist/cli.js test` says of a case or criterion that no run decided what
 * happened, against the local service: `error` when its runs errored (every
 * request failed, a judge answered without a verdict), `skipped` when Ctrl+C
 * cut it short; never `fail` with a tally of nothing, in the table, in --json
 * and in JUnit alike.
 */
import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { kindById } from '../../src/core/resources';
import { raw } from './fixtures';
import { startContract, type ContractContext } from './setup';
import { runCli, startCli, type Run } from './cli-process';

interface Criterion {
  name: string;
  verdict: string;
  reason?: string;
  runs: number;
  passes: number;
  errors: number;
}
interface CaseReport {
  name: string;
  passed: boolean;
  verdict: string;
  reason?: string;
  runs: number;
  errors: number;
  messages: string[];
  criteria?: Criterion[];
}
interface JsonReport {
  passed: number;
  failed: number;
  skipped: number;
  suites: Array<{ file: string; cases: CaseReport[] }>;
}

const echoes = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name,
  prompt_text: name,
  expect: { response: { contains: name } },
  ...extra,
});

describe('contract: the command-line tool (test: verdicts of what no run decided)', function () {
  let ctx: ContractContext;
  let work: string;
  const env = (): Record<string, string> => ({ CONVAI_TOKEN: ctx.service.adminToken });
  const run = (...args: string[]): Promise<Run> => runCli(['test', '--url', ctx.service.url, ...args], work, env());
  const json = (result: Run): JsonReport => JSON.parse(result.stdout) as JsonReport;
  const suite = (file: string, prompt: string, cases: unknown[]): Promise<void> =>
    writeFile(path.join(work, file), JSON.stringify({ target: { tenantId: 1 }, prompt, cases }, null, 2));
  const faults = (body: unknown): Promise<unknown> =>
    raw(`${ctx.service.url}/__test/faults`, 'POST', ctx.service.adminToken, JSON.stringify(body));
  const promptId = async (name: string): Promise<number> =>
    (await ctx.admin.list(kindById('prompt'), 1)).find((p) => p.name === name)?.id as number;

  before(async () => {
    ctx = await startContract();
    work = await mkdtemp(path.join(tmpdir(), 'convai-cli-verdicts-'));
  });
  afterEach(() => faults({ latencyMs: 0, queue: [] }));
  after(async () => {
    await ctx.close();
    await rm(work, { recursive: true, force: true });
  });

  it('a suite whose every run errored: verdict error with the reason, in the table, --json and JUnit, and no rate of nothing', async () => {
    await suite('down.prompttest.json', 'Order Triage', [echoes('down', { repeat: 2 })]);
    await faults({ queue: [{ match: 'test_prompt', status: 500, body: '{"error":"model overloaded"}', count: 2 }] });
    const result = await run('--json', '--junit', 'down.xml', 'down.prompttest.json');
    assert.equal(result.code, 1, result.stderr);
    const [down] = json(result).suites[0]?.cases ?? [];
    assert.deepEqual([down?.verdict, down?.passed, down?.runs, down?.errors], ['error', false, 0, 2]);
    assert.match(down?.reason ?? '', /^2 of 2 runs errored \(so they are not counted\): .*500.*model overloaded/);
    assert.ok(!down?.messages.some((m) => /passed 0 of 0|no answer/.test(m)), down?.messages.join('\n'));
    const xml = await readFile(path.join(work, 'down.xml'), 'utf8');
    assert.match(xml, /<testsuites tests="1" failures="0" errors="1" skipped="0">/);
    assert.match(
      xml,
      /name="down"[^\n]*<property name="verdict" value="error"\/><\/properties><error message="2 of 2 runs errored/,
    );

    await faults({ queue: [{ match: 'test_prompt', status: 500, body: '{"error":"model overloaded"}', count: 2 }] });
    const text = await run('down.prompttest.json');
    assert.match(text.stdout, /^ {2}down +ERROR +no answered run; 2 errors /m);
    assert.match(text.stdout, /^ {6}- 2 of 2 runs errored \(so they are not counted\): /m);
    assert.doesNotMatch(text.stdout, /FAIL|0\/0 passed|passed 0 of 0/);
  });

  it("maxP95Ms fails a case whose runs' 95th percentile is over it, saying both numbers; every case reports its latency", async () => {
    await suite('latency.prompttest.json', 'Order Triage', [
      echoes('slow', { repeat: 3, maxP95Ms: 100 }),
      echoes('relaxed', { repeat: 3, maxP95Ms: 60_000 }),
    ]);
    await faults({ latencyMs: 150 });
    const result = await run('--json', 'latency.prompttest.json');
    assert.equal(result.code, 1, result.stderr);
    const [slow, relaxed] = (json(result).suites[0]?.cases ?? []) as Array<
      CaseReport & { latency?: { p50: number; p95: number } }
    >;
    assert.equal(slow?.verdict, 'fail');
    assert.ok((slow?.latency?.p95 ?? 0) >= 150, JSON.stringify(slow?.latency));
    assert.ok((slow?.latency?.p50 ?? 0) >= 150 && (slow?.latency?.p50 ?? 0) <= (slow?.latency?.p95 ?? 0));
    assert.match(
      slow?.messages.join('\n') ?? '',
      /^latency: the 95th percentile of 3 runs is \d+ ms, more than maxP95Ms 100 \(median \d+ ms\)$/m,
    );
    assert.equal(relaxed?.verdict, 'pass');
    assert.ok((relaxed?.latency?.p95 ?? 0) >= 150);
  });

  it('a criterion whose judge always answers without a verdict: error, quoting the answer; the other criteria are still decided', async () => {
    const judge = await promptId('Call Judge');
    await suite('unjudged.prompttest.json', 'Support Greeting', [
      {
        name: 'refund call',
        prompt_params: { customer_name: 'Ada', order_id: 'A-1' },
        repeat: 2,
        simulate: {
          caller: 'Caller: Broken Kettle',
          persona: 'Your kettle broke after a week.',
          opening: 'Hello? I need to talk about my order.',
          maxTurns: 6,
        },
        criteria: [
          {
            name: 'says how long a refund takes',
            judge: 'Call Judge',
            rubric: 'The assistant tells the caller how many days a refund takes.',
          },
          { name: 'reaches triage', expect: { prompt: 'Order Triage' } },
        ],
      },
    ]);
    const unreadable = {
      match: `POST /api/v1/ai_prompts/${judge}/test_prompt`,
      status: 200,
      body: JSON.stringify({ response: 'Sounds good to me.' }),
      count: 2,
    };
    await faults({ queue: [unreadable] });
    const result = await run('--json', '--junit', 'unjudged.xml', 'unjudged.prompttest.json');
    assert.equal(result.code, 1, result.stderr);
    const [call] = json(result).suites[0]?.cases ?? [];
    assert.deepEqual([call?.verdict, call?.runs, call?.errors], ['error', 0, 2]);
    const [days, triage] = call?.criteria ?? [];
    assert.deepEqual([days?.verdict, days?.runs, days?.errors], ['error', 0, 2], 'not "fail, 0/0 passed"');
    assert.match(
      days?.reason ?? '',
      /^2 of 2 calls did not decide it \(so they are not counted\): judge "Call Judge" gave no verdict .*"Sounds good to me\."$/,
    );
    assert.deepEqual([triage?.verdict, triage?.runs, triage?.passes], ['pass', 2, 2]);
    assert.doesNotMatch(call?.reason ?? '', /no answer/);
    assert.match(
      await readFile(path.join(work, 'unjudged.xml'), 'utf8'),
      /<property name="verdict" value="error"\/>.*<\/properties><error message="2 of 2 runs errored \(so they are not counted\): criterion &quot;says how long a refund takes&quot;: judge &quot;Call Judge&quot;/,
    );

    await faults({ queue: [unreadable] });
    const text = await run('unjudged.prompttest.json');
    assert.match(
      text.stdout,
      /^ {6}criterion "says how long a refund takes": ERROR, 2 of 2 calls did not decide it \(so they are not counted\): judge "Call Judge" gave no verdict .*"Sounds good to me\."$/m,
    );
    assert.match(text.stdout, /^ {6}criterion "reaches triage": PASS, 2\/2 passed/m);
    assert.doesNotMatch(text.stdout, /FAIL, 0\/0 passed/);
  });

  it("Ctrl+C: the cases cut short are skipped, with the reason, in --json and in JUnit's verdict property", async () => {
    await suite('cut.prompttest.json', 'Order Triage', [echoes('long', { repeat: 50 }), echoes('after')]);
    await faults({ latencyMs: 100 });
    const answered = ctx.service.requests.arrivals(3, (r) => r.method === 'POST' && r.path.endsWith('/test_prompt'));
    const started = startCli(
      ['test', '--url', ctx.service.url, '--json', '--concurrency', '1', '--junit', 'cut.xml', 'cut.prompttest.json'],
      work,
      env(),
    );
    await answered;
    started.child.kill('SIGINT');
    const result = await started.done;
    assert.equal(result.code, 130, result.stderr);
    const [long, after] = json(result).suites[0]?.cases ?? [];
    assert.deepEqual(
      [long?.verdict, long?.passed, after?.verdict, after?.passed],
      ['skipped', false, 'skipped', false],
    );
    assert.match(
      long?.reason ?? '',
      /^(stopped: the run was cancelled after \d+ of 50 runs|not run: the run was cancelled)$/,
    );
    assert.equal(after?.reason, 'not run: the run was cancelled');
    assert.deepEqual([json(result).passed, json(result).failed, json(result).skipped], [0, 0, 2]);
    const xml = await readFile(path.join(work, 'cut.xml'), 'utf8');
    assert.deepEqual(
      [...xml.matchAll(/ name="([^"]*)"[^\n]*<property name="verdict" value="skipped"\/><\/properties><skipped /g)].map(
        (m) => m[1],
      ),
      ['long', 'after'],
    );
  });
});
