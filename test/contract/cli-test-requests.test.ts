/**
 * `dist/cli.js test` counts what it sends as the service receives it, against
 * the local service's request log: listings and the retries of a 429 included;
 * --max-requests holds retries too; and without it a run that could send more
 * than the default ceiling is refused before anything is sent.
 */
import * as assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { raw } from './fixtures';
import { startContract, type ContractContext } from './setup';
import { runCli, type Run } from './cli-process';

interface JsonReport {
  requests: number;
  suites: Array<{ cases: Array<{ name: string; verdict: string; passed: boolean; errors: number; reason?: string }> }>;
}

const echoes = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name,
  prompt_text: name,
  expect: { response: { contains: name } },
  ...extra,
});

describe('contract: the command-line tool (test: requests sent and their bound)', function () {
  let ctx: ContractContext;
  let work: string;
  const run = (...args: string[]): Promise<Run> =>
    runCli(['test', '--url', ctx.service.url, ...args], work, { CONVAI_TOKEN: ctx.service.adminToken });
  const suite = (file: string, cases: unknown[]): Promise<void> =>
    writeFile(
      path.join(work, file),
      JSON.stringify({ target: { tenantId: 1 }, prompt: 'Order Triage', cases }, null, 2),
    );
  const faults = (body: unknown): Promise<unknown> =>
    raw(`${ctx.service.url}/__test/faults`, 'POST', ctx.service.adminToken, JSON.stringify(body));
  const logged = async (): Promise<Array<{ method: string; path: string }>> =>
    (await raw(`${ctx.service.url}/__test/requests`, 'GET', ctx.service.adminToken)).json as Array<{
      method: string;
      path: string;
    }>;
  const clearLog = (): Promise<unknown> => raw(`${ctx.service.url}/__test/requests`, 'DELETE', ctx.service.adminToken);
  const testPrompts = (log: ReadonlyArray<{ method: string; path: string }>): number =>
    log.filter((r) => r.method === 'POST' && r.path.endsWith('/test_prompt')).length;
  const rateLimited = (count: number): unknown => ({
    queue: [{ match: 'test_prompt', status: 429, retryAfter: '0', body: '{"error":"slow down"}', count }],
  });

  before(async () => {
    ctx = await startContract();
    work = await mkdtemp(path.join(tmpdir(), 'convai-cli-requests-'));
    await suite('two.prompttest.json', [echoes('first'), echoes('second')]);
  });
  afterEach(() => faults({ latencyMs: 0, queue: [] }));
  after(async () => {
    await ctx.close();
    await rm(work, { recursive: true, force: true });
  });

  it("prints, and --json holds, the requests the service received: the suite's listing and each retry of a 429 included", async () => {
    await faults(rateLimited(1));
    await clearLog();
    const text = await run('--concurrency', '1', 'two.prompttest.json');
    assert.equal(text.code, 0, text.stdout);
    const log = await logged();
    assert.deepEqual([log.length, testPrompts(log)], [4, 3], 'one listing, two cases, one retry');
    assert.match(
      text.stdout,
      /^4 requests sent: 3 that ran a test \(its cases could send at most 2, retries within 1000\), 1 read$/m,
    );

    await faults(rateLimited(1));
    await clearLog();
    const json = await run('--json', '--concurrency', '1', 'two.prompttest.json');
    assert.equal(json.code, 0, json.stderr);
    assert.equal((JSON.parse(json.stdout) as JsonReport).requests, (await logged()).length);
  });

  it('--max-requests 1 holds the retries of a 429: the test_prompt is sent once, and the case is an error, not a pass', async () => {
    await suite('one.prompttest.json', [echoes('only')]);
    await faults(rateLimited(3));
    await clearLog();
    const result = await run('--json', '--max-requests', '1', 'one.prompttest.json');
    assert.equal(result.code, 1, result.stderr);
    assert.equal(testPrompts(await logged()), 1);
    const [only] = (JSON.parse(result.stdout) as JsonReport).suites[0]?.cases ?? [];
    assert.deepEqual([only?.verdict, only?.passed, only?.errors], ['error', false, 1]);
    assert.match(
      only?.reason ?? '',
      /429 Too Many Requests: slow down\. .*It was not sent again: the run has sent as many requests that run a test or write as its limit allows \(1, each retry counted\)/,
    );
    assert.equal((JSON.parse(result.stdout) as JsonReport).requests, (await logged()).length);
  });

  it('without --max-requests, refuses a run that could send more than 1000 requests: exit 2, nothing sent, the bound and how to allow it said', async () => {
    await suite(
      'many.prompttest.json',
      Array.from({ length: 11 }, (_, i) => echoes(`case ${i}`, { repeat: 100 })),
    );
    await clearLog();
    const result = await run('many.prompttest.json');
    assert.equal(result.code, 2, result.stdout);
    assert.match(
      result.stderr,
      /^This run could send up to 1100 requests, more than the 1000 that test sends without --max-requests, so nothing was sent\. .*allow it with --max-requests 1100\.$/m,
    );
    assert.equal(testPrompts(await logged()), 0, 'nothing was sent');
  });
});
