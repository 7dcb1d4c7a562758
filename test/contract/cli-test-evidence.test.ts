/**
 * `dist/cli.js test` keeps what it knows apart from what it could not learn,
 * against the local service: a failed request is an error, not a failed run
 * of the prompt; Ctrl+C keeps the runs that ended; a Retry-After wait is not
 * the prompt's time; a baseline that matches nothing says so; a turn naming
 * no prompt of the tenant stops the run before anything is sent.
 */
import * as assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { raw } from './fixtures';
import { startContract, type ContractContext } from './setup';
import { runCli, startCli, type Run } from './cli-process';

interface CaseReport {
  name: string;
  passed: boolean;
  verdict: string;
  runs: number;
  passes: number;
  errors: number;
  passRate: number;
  interval: number[];
  regressed?: boolean;
  messages: string[];
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

describe('contract: the command-line tool (test: errors apart from evidence)', function () {
  let ctx: ContractContext;
  let work: string;
  const env = (): Record<string, string> => ({ CONVAI_TOKEN: ctx.service.adminToken });
  const run = (args: string[], cwd = work): Promise<Run> =>
    runCli(['test', '--url', ctx.service.url, ...args], cwd, env());
  const json = (result: Run): JsonReport => JSON.parse(result.stdout) as JsonReport;
  const suite = async (file: string, cases: unknown[], prompt: string | number = 'Order Triage'): Promise<void> => {
    await mkdir(path.dirname(path.join(work, file)), { recursive: true });
    await writeFile(path.join(work, file), JSON.stringify({ target: { tenantId: 1 }, prompt, cases }, null, 2));
  };
  const faults = (body: unknown): Promise<unknown> =>
    raw(`${ctx.service.url}/__test/faults`, 'POST', ctx.service.adminToken, JSON.stringify(body));
  const testPrompts = async (): Promise<number> => {
    const { json: requests } = await raw(`${ctx.service.url}/__test/requests`, 'GET', ctx.service.adminToken);
    return (requests as Array<{ method: string; path: string }>).filter(
      (r) => r.method === 'POST' && r.path.endsWith('/test_prompt'),
    ).length;
  };

  before(async () => {
    ctx = await startContract();
    work = await mkdtemp(path.join(tmpdir(), 'convai-cli-evidence-'));
  });
  afterEach(() => faults({ latencyMs: 0, queue: [] }));
  after(async () => {
    await ctx.close();
    await rm(work, { recursive: true, force: true });
  });

  it('reports runs whose request failed (HTTP 500) as errors apart from the rate, and never passes their case', async () => {
    await suite('errors/triage.prompttest.json', [echoes('steady', { repeat: 10, minPassRate: 0.5 })]);
    await faults({ queue: [{ match: 'test_prompt', status: 500, body: '{"error":"model overloaded"}', count: 3 }] });
    const result = await run(['--json', '--concurrency', '1', '--junit', 'errors.xml', 'errors']);
    assert.equal(result.code, 1, result.stderr);
    const [steady] = json(result).suites[0]?.cases ?? [];
    assert.deepEqual(
      [steady?.runs, steady?.passes, steady?.errors, steady?.passRate, steady?.verdict, steady?.passed],
      [7, 7, 3, 1, 'error', false],
    );
    assert.ok((steady?.interval[0] ?? 0) > 0.6, 'the interval is of the 7 answered runs alone');
    assert.match(
      steady?.messages[0] ?? '',
      /^3 of 10 runs errored \(so they are not counted\): .*500.*model overloaded/,
    );
    const xml = await readFile(path.join(work, 'errors.xml'), 'utf8');
    assert.match(xml, /<testsuites tests="1" failures="0" errors="1" skipped="0">/);
    assert.match(
      xml,
      /<property name="runs" value="7"\/><property name="passes" value="7"\/><property name="errors" value="3"\/>.*<error message="3 of 10 runs errored/,
    );

    const table = await run(['errors']);
    assert.equal(table.code, 0, 'the service answers again');
    await faults({ queue: [{ match: 'test_prompt', status: 500, count: 1 }] });
    const text = await run(['--concurrency', '1', 'errors']);
    assert.match(text.stdout, /^ {2}steady +ERROR +9\/9 passed, 95% interval \d+–100%; 1 error /m);
  });

  it('Ctrl+C reports the runs that ended: their tally, the case stopped, not run', async () => {
    await suite('stopped/triage.prompttest.json', [echoes('long', { repeat: 50 }), echoes('after')]);
    await faults({ latencyMs: 100 });
    const earlier = await testPrompts();
    const started = startCli(
      ['test', '--url', ctx.service.url, '--json', '--concurrency', '1', '--junit', 'stopped.xml', 'stopped'],
      work,
      env(),
    );
    // Awaits the service having answered some runs: the request log is the event, polled as the CLI prints nothing yet.
    while ((await testPrompts()) < earlier + 6) await new Promise((resolve) => setTimeout(resolve, 50));
    const before = (await testPrompts()) - earlier;
    started.child.kill('SIGINT');
    const result = await started.done;
    assert.equal(result.code, 130, result.stderr);
    const [long, after] = json(result).suites[0]?.cases ?? [];
    assert.ok(
      (long?.runs ?? 0) >= before - 1 && (long?.runs ?? 0) < 50,
      `${long?.runs} runs of the ${before} sent were reported`,
    );
    assert.deepEqual([long?.passes, long?.errors, long?.passed], [long?.runs, 0, false]);
    assert.match(
      long?.messages.join('\n') ?? '',
      new RegExp(`stopped: the run was cancelled after ${long?.runs} of 50 runs`),
    );
    assert.deepEqual([after?.runs, after?.messages], [0, ['not run: the run was cancelled']]);
    assert.deepEqual([json(result).passed, json(result).failed, json(result).skipped], [0, 0, 2]);
    const xml = await readFile(path.join(work, 'stopped.xml'), 'utf8');
    assert.match(
      xml,
      new RegExp(
        `name="long"[^\\n]*<property name="runs" value="${long?.runs}"/>[^\\n]*<skipped message="stopped: the run was cancelled after`,
      ),
    );
  });

  it('leaves a wait for Retry-After out of maxMs', async () => {
    await suite('waits/triage.prompttest.json', [echoes('quick', { maxMs: 700 })]);
    await faults({ queue: [{ match: 'test_prompt', status: 429, retryAfter: '1', count: 1 }] });
    const sent = await testPrompts();
    const result = await run(['--json', 'waits']);
    assert.equal(result.code, 0, result.stdout);
    assert.equal(await testPrompts(), sent + 2, 'refused once, then answered after the wait');
  });

  it('says when a baseline matches no case of the run, and matches the same report from another folder', async () => {
    await suite('base/triage.prompttest.json', [echoes('first', { repeat: 20, minPassRate: 0 })]);
    await suite('other/triage-other.prompttest.json', [echoes('unrelated')]);
    const first = await run(['--json', 'base']);
    assert.equal(first.code, 0, first.stderr);
    const report = json(first);
    await writeFile(path.join(work, 'base.json'), first.stdout);

    const unrelated = await run(['--baseline', 'base.json', 'other']);
    assert.equal(unrelated.code, 0);
    assert.match(unrelated.stderr, /--baseline base\.json: no case of this run is in it, so nothing was compared/);

    // The same suite from its own folder: the report's path is base/triage.prompttest.json, the run's triage.prompttest.json.
    const worse = structuredClone(report);
    const [c] = worse.suites[0]?.cases ?? [];
    assert.ok(c);
    c.passes = 20;
    c.runs = 20;
    await writeFile(path.join(work, 'better.json'), JSON.stringify(worse));
    await faults({
      queue: [
        {
          match: 'test_prompt',
          status: 200,
          body: '{"response":"wrong","altered_prompt":"","next_prompt_id":null,"next_prompt_params":{}}',
          count: 20,
        },
      ],
    });
    const fromInside = await run(['--json', '--baseline', '../better.json', '.'], path.join(work, 'base'));
    assert.equal(fromInside.code, 1, fromInside.stderr);
    assert.equal(json(fromInside).suites[0]?.cases[0]?.regressed, true, fromInside.stdout);
    assert.doesNotMatch(fromInside.stderr, /--baseline/);

    await suite('base/more.prompttest.json', [echoes('new one')]);
    const partial = await run(['--baseline', 'base.json', 'base']);
    assert.match(
      partial.stderr,
      /^--baseline base\.json: compared 0 of 1 case of base\/more\.prompttest\.json; the others are not in it\.$/m,
    );
  });

  it('refuses a turn whose expect.prompt names no prompt of the tenant before sending anything (exit 2)', async () => {
    await mkdir(path.join(work, 'typo'), { recursive: true });
    await writeFile(
      path.join(work, 'typo', 'talk.prompttest.json'),
      JSON.stringify(
        {
          target: { tenantId: 1 },
          prompt: 'Order Triage',
          cases: [
            {
              name: 'hands over',
              turns: [
                { prompt_text: 'hi', expect: { prompt: 'Order Triag' } },
                { prompt_text: 'bye', expect: { prompt: 999 } },
              ],
            },
          ],
        },
        null,
        2,
      ),
    );
    const sent = await testPrompts();
    const result = await run(['typo']);
    assert.equal(result.code, 2, result.stdout);
    assert.match(
      result.stderr,
      /^typo\/talk\.prompttest\.json:\d+:\d+ case "hands over", turn 1: expect\.prompt "Order Triag" names no prompt of tenant 1; did you mean "Order Triage"\?/m,
    );
    assert.match(
      result.stderr,
      /turn 2: expect\.prompt 999 names no prompt of tenant 1; give the name or id of one of its prompts/,
    );
    assert.equal(await testPrompts(), sent, 'nothing was sent');
  });
});
