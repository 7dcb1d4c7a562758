/**
 * `dist/cli.js test` against the local service, run as CI runs it: a separate
 * process, the base URL in --url or CONVAI_URL and the token in CONVAI_TOKEN.
 * The CLI comes from CONVAI_CLI when set, else from the repository's dist/cli.js.
 *
 * The local service's test_prompt answers `Echo (<ai_model>): <prompt_text>`
 * and execute_action answers `ping` with "pong": the suites below expect those.
 */
import * as assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TenantCoverage } from '../../src/core/flow-map/coverage';
import { wilsonInterval } from '../../src/core/prompt-tests/statistics';
import { kindById } from '../../src/core/resources';
import { raw } from './fixtures';
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
      verdict: string;
      runs: number;
      passes: number;
      passRate: number;
      interval: number[];
      messages: string[];
    }>;
  }>;
}

const cli = runCli;

const ECHO = /^Echo \(gpt-4o-mini\): /;

/** Suites for tenant 1, each a file of the temporary working folder. */
const SUITES = {
  'passing/triage.prompttest.json': {
    target: { tenantId: 1 },
    prompt: 'Order Triage',
    cases: [
      {
        name: 'echoes the text',
        prompt_text: 'Where is order A-1?',
        expect: { response: { contains: 'Where is order A-1?', matches: ECHO.source } },
      },
      {
        name: 'fills the placeholders',
        prompt_text: 'hi',
        prompt_params: { customer_name: 'Ada', order_id: 'A-1', message: 'hi' },
        expect: {
          altered_prompt: 'Classify this message from Ada about order A-1: hi',
          next_prompt_params: { customer_name: 'Ada', order_id: 'A-1', message: 'hi' },
        },
      },
    ],
  },
  'passing/orders-api.prompttest.json': {
    target: { tenantId: 1 },
    integration: 'Order Status API',
    cases: [{ name: 'answers ping', action: 'ping', expect: { result: 'pong', status: 'success' } }],
  },
  'failing/triage.prompttest.json': {
    target: { tenantId: 1 },
    prompt: 'Order Triage',
    cases: [
      { name: 'echoes the text', prompt_text: 'hello', expect: { response: { contains: 'hello' } } },
      { name: 'names another model', prompt_text: 'hello', expect: { response: { contains: 'gpt-5' } } },
      { name: 'expects another prompt', prompt_text: 'x', expect: { altered_prompt: 'nothing like it' } },
    ],
  },
  'repeat/all-pass.prompttest.json': {
    prompt: 'Order Triage',
    cases: [
      { name: 'steady', prompt_text: 'again', repeat: 3, minPassRate: 1, expect: { response: { contains: 'again' } } },
    ],
  },
  'repeat/none-needed.prompttest.json': {
    prompt: 'Order Triage',
    cases: [
      {
        name: 'never right',
        prompt_text: 'again',
        repeat: 3,
        minPassRate: 0,
        expect: { response: { contains: 'gpt-5' } },
      },
    ],
  },
  'repeat/half-needed.prompttest.json': {
    prompt: 'Order Triage',
    cases: [
      {
        name: 'never right',
        prompt_text: 'again',
        repeat: 3,
        minPassRate: 0.5,
        expect: { response: { contains: 'gpt-5' } },
      },
    ],
  },
  'broken/missing.prompttest.json': {
    target: { tenantId: 1 },
    prompt: 'No Such Prompt',
    cases: [{ name: 'any', prompt_text: 'x', expect: { response: 'x' } }],
  },
} as const;

/** An unknown assertion on line 6, column 31: written by hand so the place is known. */
const UNKNOWN_ASSERTION = `{
  "target": { "tenantId": 1 },
  "prompt": "Order Triage",
  "cases": [
    { "name": "typo", "prompt_text": "x",
      "expect": { "response": { "contians": "x" } } }
  ]
}
`;

describe('contract: the command-line tool (test)', function () {
  let ctx: ContractContext;
  let work: string;
  const runs: Run[] = [];
  const run = async (args: string[], env: Record<string, string | undefined> = {}): Promise<Run> => {
    const result = await cli(args, work, { CONVAI_TOKEN: ctx.service.adminToken, ...env });
    runs.push(result);
    return result;
  };
  const withUrl = (args: string[]): string[] => ['test', '--url', ctx.service.url, ...args];

  before(async () => {
    ctx = await startContract();
    work = await mkdtemp(path.join(tmpdir(), 'convai-cli-test-'));
    for (const [file, suite] of Object.entries(SUITES)) {
      await mkdir(path.dirname(path.join(work, file)), { recursive: true });
      await writeFile(path.join(work, file), JSON.stringify(suite, null, 2));
    }
    await mkdir(path.join(work, 'empty'));
    await mkdir(path.join(work, 'typo'));
    await writeFile(path.join(work, 'typo/unknown.prompttest.json'), UNKNOWN_ASSERTION);
    // Never searched: a dot-folder and node_modules.
    for (const skipped of ['passing/.cache', 'passing/node_modules']) {
      await mkdir(path.join(work, skipped));
      await writeFile(path.join(work, skipped, 'broken.prompttest.json'), UNKNOWN_ASSERTION);
    }
  });
  after(async () => {
    await ctx.close();
    await rm(work, { recursive: true, force: true });
  });

  it('passes a folder of suites (exit 0), with a table per suite in file order and a totals line', async () => {
    const result = await run(withUrl(['passing']));
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
    const lines = result.stdout.split('\n');
    const heads = lines.filter((line) => /^\S.*\.prompttest\.json: /.test(line));
    assert.deepEqual(
      heads.map((line) => line.split(':')[0]),
      ['passing/orders-api.prompttest.json', 'passing/triage.prompttest.json'],
    );
    assert.match(heads[0] ?? '', /Integration "Order Status API" \(id \d+\) in tenant 1; 1 of 1 case passed$/);
    assert.match(heads[1] ?? '', /AI Prompt "Order Triage" \(id \d+\) in tenant 1; 2 of 2 cases passed$/);
    assert.match(result.stdout, /^ {2}case +result +duration$/m, 'no pass rate column without a repeated case');
    assert.match(result.stdout, /^ {2}echoes the text +PASS +\d+(?:\.\d+)? m?s$/m);
    assert.match(result.stdout, /^ {2}answers ping +PASS +\d+(?:\.\d+)? m?s$/m);
    assert.equal(lines.filter((line) => line !== '').at(-1), 'Prompt tests: 3 passed, 0 failed (2 suites)');
    assert.ok(
      !lines.some((line) => /^\d+ passed, \d+ failed$/.test(line)),
      "no line a CI system takes for the project's own test summary",
    );
  });

  it('fails a suite with a failing case (exit 1), its messages under the case', async () => {
    const result = await run(withUrl(['failing/triage.prompttest.json']));
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /^ {2}echoes the text +PASS /m);
    assert.match(
      result.stdout,
      /^ {2}names another model +FAIL +\d+(?:\.\d+)? m?s\n {6}- response: does not contain "gpt-5"; it is "Echo \(gpt-4o-mini\): hello"$/m,
    );
    assert.match(
      result.stdout,
      /^ {2}expects another prompt +FAIL .*\n {6}- altered_prompt: is not equal to the expected value\n {8}expected: nothing like it\n {8}actual: +Classify this message from \{\{customer_name\}\}/m,
    );
    assert.match(result.stdout, /^Prompt tests: 1 passed, 2 failed \(1 suite\)$/m);
  });

  it('writes a JUnit report: one testcase per case, failures with their messages', async () => {
    const result = await run(
      withUrl(['--junit', 'reports/junit.xml', 'failing', 'passing/orders-api.prompttest.json']),
    );
    assert.equal(result.code, 1, result.stderr);
    const xml = await readFile(path.join(work, 'reports/junit.xml'), 'utf8');
    assert.match(xml, /^<\?xml version="1\.0" encoding="UTF-8"\?>/);
    assert.match(xml, /<testsuites tests="4" failures="2" errors="0" skipped="0">/);
    const suites = [...xml.matchAll(/<testsuite name="([^"]*)" tests="(\d+)" failures="(\d+)"/g)].map((m) => [
      m[1],
      m[2],
      m[3],
    ]);
    assert.deepEqual(suites, [
      ['failing/triage.prompttest.json', '3', '2'],
      ['passing/orders-api.prompttest.json', '1', '0'],
    ]);
    const cases = [...xml.matchAll(/<testcase classname="[^"]*" name="([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(cases, ['echoes the text', 'names another model', 'expects another prompt', 'answers ping']);
    assert.match(
      xml,
      /<testcase [^>]*name="names another model"[^>]*><properties><property name="runs" value="1"\/><property name="passes" value="0"\/><property name="errors" value="0"\/><property name="passRate" value="0"\/><property name="verdict" value="fail"\/><\/properties><failure message="response: does not contain &quot;gpt-5&quot;; it is &quot;Echo \(gpt-4o-mini\): hello&quot;">/,
    );
    assert.match(
      xml,
      /<failure message="altered_prompt: is not equal to the expected value: expected nothing like it, actual Classify this message from \{\{customer_name\}\}/,
    );
    assert.equal([...xml.matchAll(/<failure /g)].length, 2);
  });

  it("prints the contract's JSON with --json", async () => {
    const result = await run(withUrl(['--json', 'failing', 'passing/orders-api.prompttest.json']));
    assert.equal(result.code, 1, result.stderr);
    const { coverage, ...report } = JSON.parse(result.stdout) as JsonReport & { coverage: TenantCoverage[] };
    // The field's own test is cli-test-coverage.test.ts; here, that it is added beside the report's shape.
    assert.deepEqual(
      coverage.map((c) => [c.tenantId, c.nodes['ai_prompts/2'], c.nodes['integrations/4']]),
      [[1, 'failed', 'passed']],
    );
    // A case's latency is its runs' durations, which vary: its shape is checked, and the comparison below leaves it out.
    for (const cases of report.suites.map((s) => s.cases as Array<{ latency?: { p50: number; p95: number } }>))
      for (const c of cases) {
        assert.ok(c.latency && c.latency.p50 >= 0 && c.latency.p95 >= c.latency.p50, JSON.stringify(c.latency));
        delete c.latency;
      }
    const pass = {
      passed: true,
      verdict: 'pass',
      runs: 1,
      passes: 1,
      errors: 0,
      passRate: 1,
      interval: wilsonInterval({ passes: 1, runs: 1 }),
      messages: [],
    };
    const fail = {
      passed: false,
      verdict: 'fail',
      runs: 1,
      passes: 0,
      errors: 0,
      passRate: 0,
      interval: wilsonInterval({ passes: 0, runs: 1 }),
    };
    assert.deepEqual(report, {
      // Four runs, and the two listings that found the suites' prompt and integration.
      passed: 2,
      failed: 2,
      skipped: 0,
      requests: 4 + 2,
      suites: [
        {
          file: 'failing/triage.prompttest.json',
          cases: [
            { name: 'echoes the text', ...pass },
            {
              name: 'names another model',
              ...fail,
              messages: ['response: does not contain "gpt-5"; it is "Echo (gpt-4o-mini): hello"'],
            },
            { name: 'expects another prompt', ...fail, messages: [report.suites[0]?.cases[2]?.messages[0]] },
          ],
        },
        { file: 'passing/orders-api.prompttest.json', cases: [{ name: 'answers ping', ...pass }] },
      ],
    });
    assert.match(
      report.suites[0]?.cases[2]?.messages[0] ?? '',
      /, actual Classify this message from \{\{customer_name\}\}/,
    );
  });

  it('weighs repeated runs by minPassRate, shows the pass rate, and takes the base URL from CONVAI_URL', async () => {
    const env = { CONVAI_URL: ctx.service.url };
    const all = await run(['test', '--tenant', '1', 'repeat/all-pass.prompttest.json'], env);
    assert.equal(all.code, 0, all.stderr);
    assert.match(all.stdout, /^ {2}case +result +pass rate +duration$/m);
    assert.match(all.stdout, /^ {2}steady +PASS +3\/3 passed, 95% interval 43–100% +\d+(?:\.\d+)? m?s$/m);
    const none = await run(['test', '--tenant', '1', 'repeat/none-needed.prompttest.json'], env);
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stdout, /^ {2}never right +FLAKY +0\/3 passed, 95% interval 0–57% +\d+(?:\.\d+)? m?s$/m);
    const half = await run(['test', '--tenant', '1', '--concurrency', '1', 'repeat/half-needed.prompttest.json'], env);
    assert.equal(half.code, 1, half.stderr);
    assert.match(half.stdout, /^ {2}never right +FAIL +0\/3 passed, 95% interval 0–57% +\d+(?:\.\d+)? m?s$/m);
    assert.match(half.stdout, /^ {6}- passed 0 of 3 answered runs \(0%\); it needs 50%$/m);
  });

  it('is a resolution error (exit 2), running nothing, for a prompt the tenant does not hold', async () => {
    const result = await run(withUrl(['--junit', 'not-written.xml', 'broken/missing.prompttest.json', 'passing']));
    assert.equal(result.code, 2);
    assert.equal(result.stdout, '');
    assert.match(
      result.stderr,
      /^broken\/missing\.prompttest\.json: AI Prompt "No Such Prompt" is not in tenant 1 on http:\/\/127\.0\.0\.1:\d+.*"Order Triage"/m,
    );
    assert.match(result.stderr, /No prompt test ran: fix the 1 problem above/);
    await assert.rejects(readFile(path.join(work, 'not-written.xml')));
  });

  describe('a name two prompts share', () => {
    let tenantId = 0;
    const ids: number[] = [];
    let namedLikeAnId = 0;
    const suite = (prompt: string | number) => ({
      target: { tenantId },
      prompt,
      cases: [{ name: 'echoes', prompt_text: 'hi', expect: { response: { contains: 'hi' } } }],
    });
    /** The CLI's run, and how many test_prompt requests it sent. */
    const runCounting = async (args: string[]): Promise<{ result: Run; testPrompts: number }> => {
      const requests = `${ctx.service.url}/__test/requests`;
      await raw(requests, 'DELETE', ctx.service.adminToken);
      const result = await run(withUrl(args));
      const log = (await raw(requests, 'GET', ctx.service.adminToken)).json as { path: string }[];
      return { result, testPrompts: log.filter((entry) => entry.path.endsWith('/test_prompt')).length };
    };

    before(async () => {
      tenantId = (await ctx.admin.create(kindById('tenant'), { name: 'Shared Names', email: 'a@shared.example' }))
        .id as number;
      for (const text of ['Hello in English', 'Hallo auf Deutsch']) {
        ids.push(
          (await ctx.admin.create(kindById('prompt'), { name: 'Greeting', user_prompt: text }, tenantId)).id as number,
        );
      }
      // Its name is the other Greeting's id: the name still wins, as for any name.
      namedLikeAnId = (await ctx.admin.create(kindById('prompt'), { name: String(ids[0]) }, tenantId)).id as number;
      await mkdir(path.join(work, 'shared'));
      for (const [file, prompt] of [
        ['duplicate', 'Greeting'],
        ['by-id', ids[1] ?? 0],
        ['name-like-id', String(ids[0])],
      ] as const) {
        await writeFile(path.join(work, `shared/${file}.prompttest.json`), JSON.stringify(suite(prompt)));
      }
    });

    it('is a resolution error (exit 2) listing both ids, and nothing is sent to test_prompt', async () => {
      const { result, testPrompts } = await runCounting(['shared/duplicate.prompttest.json', 'passing']);
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stdout, '');
      const expected = `shared/duplicate.prompttest.json: AI Prompt "Greeting" names 2 prompts in tenant ${tenantId} on ${ctx.service.url} (ids ${ids.join(', ')}): give the id instead ("prompt": ${ids[0]}), or rename one`;
      assert.ok(result.stderr.startsWith(expected), result.stderr);
      assert.equal(testPrompts, 0);
    });

    it("runs the prompt an id names, and the one a name names when it is another prompt's id", async () => {
      const { result, testPrompts } = await runCounting([
        'shared/by-id.prompttest.json',
        'shared/name-like-id.prompttest.json',
      ]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(testPrompts, 2);
      const heads = result.stdout.split('\n').filter((line) => line.startsWith('shared/'));
      assert.deepEqual(heads, [
        `shared/by-id.prompttest.json: AI Prompt "Greeting" (id ${ids[1]}) in tenant ${tenantId}; 1 of 1 case passed`,
        `shared/name-like-id.prompttest.json: AI Prompt "${ids[0]}" (id ${namedLikeAnId}) in tenant ${tenantId}; 1 of 1 case passed`,
      ]);
    });
  });

  it('is a resolution error (exit 2) for a suite without a tenant, naming the file', async () => {
    const result = await run(withUrl(['repeat/all-pass.prompttest.json']));
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^repeat\/all-pass\.prompttest\.json: the suite names no tenant: pass --tenant <id>/m);
  });

  it('is a resolution error (exit 2) for an unknown assertion, naming file:line:column', async () => {
    const result = await run(withUrl(['typo']));
    assert.equal(result.code, 2);
    assert.equal(result.stdout, '');
    assert.match(
      result.stderr,
      /^typo\/unknown\.prompttest\.json:6:33 response: "contians" is no assertion; use one of equals, contains/m,
    );
  });

  it('answers usage errors with exit 2 and a message on stderr, never a stack trace', async () => {
    const cases: Array<{ args: string[]; env?: Record<string, string | undefined>; says: RegExp }> = [
      { args: ['test', 'passing'], says: /--url <base URL> or set the environment variable CONVAI_URL/ },
      { args: withUrl(['passing']), env: { CONVAI_TOKEN: undefined }, says: /CONVAI_TOKEN is not set/ },
      {
        args: withUrl(['passing']),
        env: { CONVAI_TOKEN: `${ctx.service.adminToken}\n${ctx.service.adminToken}` },
        says: /^CONVAI_TOKEN holds a space, a line break or a control character, which no token has: put the token alone in it/,
      },
      { args: withUrl([]), says: /test needs at least one suite file or folder/ },
      { args: withUrl(['nowhere']), says: /nowhere does not exist/ },
      {
        args: withUrl(['empty']),
        says: /No prompt test suite \(\*\.prompttest\.json\) or judge file \(\*\.judgetest\.json\) was found in empty/,
      },
      {
        args: withUrl(['--concurrency', '0', 'passing']),
        says: /--concurrency "0" is not a number of requests at once/,
      },
      { args: withUrl(['--tenant', 'one', 'passing']), says: /--tenant "one" is not a tenant id/ },
      { args: ['test', '--url', 'ftp://example.com', 'passing'], says: /^--url: / },
    ];
    for (const { args, env, says } of cases) {
      const result = await run(args, env ?? {});
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, says);
      assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
    }
    const help = await run(['test', '--help']);
    assert.equal(help.code, 0);
    assert.match(
      help.stdout,
      /^Usage: node dist\/cli\.js test \[--url <base URL>\] \[--tenant <id>\] \[--junit <file>\] \[--json\] \[--concurrency <n>\] \[--shard <i>\/<n>\] \[--baseline <file>\] \[--affected-by <folder>\] \[--trial <folder> \[--compare\]\] \[--max-requests <n>\] <file or folder>…$/m,
    );
  });

  it('never prints the token', () => {
    for (const { stdout, stderr } of runs) assert.ok(!`${stdout}${stderr}`.includes(ctx.service.adminToken));
  });
});
