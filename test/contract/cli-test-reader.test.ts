/**
 * `dist/cli.js test` on suites CI can trust, against the local service: a pattern that would make a backtracking
 * engine run for years is matched in linear time (so Ctrl+C still stops the run), typos are refused before anything
 * is sent, and a suite saved with a byte-order mark runs.
 *
 * The local service's test_prompt answers `Echo (<ai_model>): <prompt_text>`.
 */
import * as assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { raw } from './fixtures';
import { startContract, type ContractContext } from './setup';
import { runCli, startCli, type Run, type StartedCli } from './cli-process';

/** Forty a's and a "!": `(a+)+$` tries some 2^40 ways to match it before it gives up, if it backtracks. */
const CATASTROPHIC_TEXT = `${'a'.repeat(40)}!`;

/** An assertion misspelt on next_prompt_id, which can never equal an object: written by hand, so the place is known. */
const NEXT_ID_TYPO = `{
  "target": { "tenantId": 1 },
  "prompt": "Order Triage",
  "cases": [
    { "name": "routes on", "prompt_text": "x",
      "expect": { "next_prompt_id": { "equal": 3 } } }
  ]
}
`;

/** An unknown flag, on the first line of a file saved with a byte-order mark. */
const BAD_FLAG =
  '\uFEFF{ "target": { "tenantId": 1 }, "prompt": "Order Triage", "cases": [{ "name": "flags", "prompt_text": "x", "expect": { "response": { "matches": "/^echo/x" } } }] }\n';

const isTestPrompt = (entry: { path: string }): boolean => entry.path.endsWith('/test_prompt');

describe('contract: the command-line tool (test) on suites CI can trust', function () {
  let ctx: ContractContext;
  let work: string;
  const env = (): Record<string, string> => ({ CONVAI_TOKEN: ctx.service.adminToken });
  const run = (...args: string[]): Promise<Run> => runCli(['test', '--url', ctx.service.url, ...args], work, env());
  const write = async (file: string, text: string): Promise<void> => {
    await mkdir(path.dirname(path.join(work, file)), { recursive: true });
    await writeFile(path.join(work, file), text);
  };
  /**
   * Starts the CLI with a watchdog, not a wait: a CLI stuck in a check (a backtracking engine on a catastrophic pattern)
   * ignores Ctrl+C, and must not outlive the test; `done` then resolves with no exit code.
   */
  const startWatched = (...args: string[]): StartedCli & { stopWatching(): void } => {
    const started = startCli(['test', '--url', ctx.service.url, ...args], work, env());
    const watchdog = setTimeout(() => started.child.kill('SIGKILL'), 20_000);
    return { ...started, stopWatching: () => clearTimeout(watchdog) };
  };
  const suite = (cases: unknown[]): string =>
    JSON.stringify({ target: { tenantId: 1 }, prompt: 'Order Triage', cases }, null, 2);

  before(async () => {
    ctx = await startContract();
    work = await mkdtemp(path.join(tmpdir(), 'convai-cli-reader-'));
    await write(
      'catastrophic/long.prompttest.json',
      suite([
        {
          name: 'never backtracks',
          prompt_text: CATASTROPHIC_TEXT,
          repeat: 100,
          expect: { response: { matches: '(a+)+$' } },
        },
      ]),
    );
    await write(
      'catastrophic-short/short.prompttest.json',
      suite([
        { name: 'ends in a', prompt_text: CATASTROPHIC_TEXT, repeat: 3, expect: { response: { matches: '(a+)+$' } } },
        {
          name: 'ends in !',
          prompt_text: CATASTROPHIC_TEXT,
          repeat: 3,
          expect: { response: { matches: '/^echo .*(a+)+!$/i' } },
        },
      ]),
    );
    await write('typos/next-id.prompttest.json', NEXT_ID_TYPO);
    await write('typos/flag.prompttest.json', BAD_FLAG);
    await write(
      'bom/triage.prompttest.json',
      `\uFEFF${suite([{ name: 'echoes', prompt_text: 'hello', expect: { response: { contains: 'hello' } } }])}`,
    );
  });
  after(async () => {
    await ctx.close();
    await rm(work, { recursive: true, force: true });
  });

  it('a catastrophic pattern checks in linear time: Ctrl+C after the first checked answer exits 130 within a second, JUnit written', async function () {
    this.timeout(30_000);
    // Each answer slowed by the service, one request at a time: the hundred runs would take 20 s, so Ctrl+C lands mid-run.
    await raw(`${ctx.service.url}/__test/faults`, 'POST', ctx.service.adminToken, JSON.stringify({ latencyMs: 200 }));
    // With one request at a time the second is sent only once the first answer was checked; a backtracking check never ends.
    const checkedOne = ctx.service.requests.arrivals(2, isTestPrompt);
    const started = startWatched('--concurrency', '1', '--junit', 'interrupted.xml', 'catastrophic');
    try {
      await Promise.race([
        checkedOne,
        started.done.then((ended) =>
          assert.fail(
            `the CLI ended (exit code ${String(ended.code)}) before it sent a second request: it never finished checking the first answer`,
          ),
        ),
      ]);
      const signalled = performance.now();
      started.child.kill('SIGINT');
      const result = await started.done;
      const ms = performance.now() - signalled;
      assert.equal(result.code, 130, result.stderr);
      assert.ok(ms < 1_000, `exited ${ms.toFixed(0)} ms after Ctrl+C`);
      const xml = await readFile(path.join(work, 'interrupted.xml'), 'utf8');
      assert.match(xml, /<testcase [^>]*name="never backtracks"/);
    } finally {
      started.stopWatching();
      await raw(`${ctx.service.url}/__test/faults`, 'POST', ctx.service.adminToken, JSON.stringify({ latencyMs: 0 }));
    }
  });

  it('a catastrophic pattern without Ctrl+C: the run ends with the right verdicts', async () => {
    const started = startWatched('--json', 'catastrophic-short');
    const result = await started.done.finally(started.stopWatching);
    assert.equal(result.code, 1, `exit code ${String(result.code)} (none: stopped after 20 s) ${result.stderr}`);
    const report = JSON.parse(result.stdout) as {
      suites: Array<{ cases: Array<{ name: string; verdict: string; runs: number; messages: string[] }> }>;
    };
    assert.deepEqual(
      report.suites[0]?.cases.map((c) => [c.name, c.verdict, c.runs]),
      [
        ['ends in a', 'fail', 3],
        ['ends in !', 'pass', 3],
      ],
    );
    assert.equal(
      report.suites[0]?.cases[0]?.messages[0],
      `response: does not match /(a+)+$/; it is "Echo (gpt-4o-mini): ${CATASTROPHIC_TEXT}"`,
    );
  });

  it('refuses typos before sending anything (exit 2): an assertion misspelt on next_prompt_id, a flag, each at file:line:column with the fix', async () => {
    ctx.service.requests.clear();
    const result = await run('typos');
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stdout, '');
    // Its index counts the mark, which is no column: the same number as its column, counted from 1 without the mark.
    const flagColumn = BAD_FLAG.indexOf('"/^echo/x"');
    assert.match(
      result.stderr,
      new RegExp(
        `^typos/flag\\.prompttest\\.json:1:${flagColumn} response: the pattern "/\\^echo/x" has "x", which is no flag here; use i \\(ignore case\\), m`,
        'm',
      ),
    );
    const typoColumn = (NEXT_ID_TYPO.split('\n')[5] ?? '').indexOf('"equal"') + 1;
    assert.match(
      result.stderr,
      new RegExp(
        `^typos/next-id\\.prompttest\\.json:6:${typoColumn} next_prompt_id: "equal" is no assertion; use one of equals, .* \\(did you mean "equals"\\?\\)$`,
        'm',
      ),
    );
    assert.deepEqual(ctx.service.requests.list().filter(isTestPrompt), [], 'no test_prompt was sent');
  });

  it('runs a suite saved with a byte-order mark', async () => {
    const result = await run('bom');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^ {2}echoes +PASS /m);
  });
});
