/**
 * `dist/cli.js test` calibrates a judge prompt against labelled calls, against
 * the local service: the judge's answers are scripted in order through its
 * fault injection (one label at a time with --concurrency 1), so each figure
 * is known beforehand.
 */
import * as assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { raw } from './fixtures';
import { startContract, type ContractContext } from './setup';
import { runCli, type Run } from './cli-process';

interface JudgeEntry {
  file: string;
  judge: string;
  labels: number;
  agreement: number | null;
  tpr: number | null;
  tnr: number | null;
  kappa: number | null;
  consistency: number | null;
  passed: boolean;
  messages: string[];
  cases: Array<{
    name: string;
    passed: boolean;
    verdict: string;
    runs: number;
    passes: number;
    errors: number;
    messages: string[];
  }>;
}

const answer = (
  verdict: string,
  reasoning = `The call ${verdict === 'pass' ? 'meets' : 'misses'} the rubric.`,
): string => JSON.stringify({ response: JSON.stringify({ reasoning, verdict }) });

describe('contract: the command-line tool (test: judge calibration)', function () {
  let ctx: ContractContext;
  let work: string;
  const env = (): Record<string, string> => ({ CONVAI_TOKEN: ctx.service.adminToken });
  const run = (args: string[]): Promise<Run> =>
    runCli(['test', '--url', ctx.service.url, '--concurrency', '1', ...args], work, env());
  const faults = (body: unknown): Promise<unknown> =>
    raw(`${ctx.service.url}/__test/faults`, 'POST', ctx.service.adminToken, JSON.stringify(body));
  /** The judge's answers, in the order it is asked. */
  const script = (...bodies: string[]): Promise<unknown> =>
    faults({ queue: bodies.map((body) => ({ match: 'test_prompt', status: 200, body, count: 1 })) });
  const judgeFile = async (
    file: string,
    expected: Array<'pass' | 'fail'>,
    extra: Record<string, unknown> = {},
  ): Promise<void> => {
    const labels = expected.map((verdict, index) => ({
      name: `call ${index + 1}`,
      rubric: 'The assistant says how many days a refund takes.',
      transcript: `caller: refund?\nassistant (Billing): call ${index + 1}`,
      expected: verdict,
    }));
    await mkdir(path.dirname(path.join(work, file)), { recursive: true });
    await writeFile(
      path.join(work, file),
      `\ufeff${JSON.stringify({ target: { tenantId: 1 }, judge: 'Order Triage', labels, ...extra }, null, 2)}`,
    );
  };
  const entry = (result: Run): JudgeEntry =>
    (JSON.parse(result.stdout) as { suites: JudgeEntry[] }).suites[0] as JudgeEntry;

  before(async () => {
    ctx = await startContract();
    work = await mkdtemp(path.join(tmpdir(), 'convai-cli-judges-'));
  });
  afterEach(() => faults({ queue: [] }));
  after(async () => {
    await ctx.close();
    await rm(work, { recursive: true, force: true });
  });

  it('passes a judge whose kappa meets minKappa, though it disagreed with a label, and reports its figures', async () => {
    await judgeFile('good/refunds.judgetest.json', ['pass', 'pass', 'fail', 'fail', 'fail'], { minKappa: 0.5 });
    // Judged pass, pass, fail, fail, pass: agreement 4/5, TPR 1, TNR 2/3; kappa = (0.8 − 12/25) / (1 − 12/25) = 0.32 / 0.52.
    await script(answer('pass'), answer('pass'), answer('fail'), answer('fail'), answer('pass', 'It names five days.'));
    const result = await run(['--json', '--junit', 'good.xml', 'good']);
    assert.equal(result.code, 0, result.stderr);
    const judge = entry(result);
    assert.deepEqual(
      [judge.file, judge.judge, judge.labels, judge.agreement, judge.tpr, judge.consistency, judge.passed],
      ['good/refunds.judgetest.json', 'Order Triage', 5, 0.8, 1, 1, true],
    );
    assert.ok(
      Math.abs((judge.tnr ?? 0) - 2 / 3) < 1e-9 && Math.abs((judge.kappa ?? 0) - 0.32 / 0.52) < 1e-9,
      JSON.stringify(judge),
    );
    assert.equal(
      (JSON.parse(result.stdout) as { requests: number }).requests,
      5 + 1,
      'a judgement a label, and the listing the judge was found in',
    );
    const fifth = judge.cases[4];
    assert.deepEqual([fifth?.name, fifth?.passed, fifth?.verdict], ['call 5', false, 'fail']);
    assert.match(fifth?.messages[0] ?? '', /^the judge said "pass", labelled "fail": It names five days\./);
    const xml = await readFile(path.join(work, 'good.xml'), 'utf8');
    assert.match(xml, /<testsuite name="good\/refunds.judgetest.json" tests="6" failures="1" errors="0" skipped="0"/);
    assert.match(
      xml,
      /<testcase classname="good\/refunds.judgetest.json" name="kappa meets minKappa" [^>]*><properties>.*<\/properties><\/testcase>/,
    );

    await script(answer('pass'), answer('pass'), answer('fail'), answer('fail'), answer('pass'));
    const text = await run(['good']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /^good\/refunds\.judgetest\.json: judge "Order Triage" \(id \d+\) in tenant 1; 4 of 5 labels agreed$/m,
    );
    assert.match(text.stdout, /^ {2}call 5 +fail +DISAGREED$/m);
    assert.match(
      text.stdout,
      /^ {2}agreement 80%, TPR 100%, TNR 67%, kappa 0\.62 \(needs 0\.50\), consistency 100%: PASSED$/m,
    );
  });

  it('fails (exit 1) a judge below minKappa, names an unreadable answer, and counts it against agreement', async () => {
    await judgeFile('weak/refunds.judgetest.json', ['pass', 'pass', 'fail', 'fail'], { repeat: 3 });
    await script(
      answer('pass'),
      answer('pass'),
      answer('pass'),
      answer('pass'),
      JSON.stringify({ response: 'Sounds good to me.' }),
      answer('fail'),
      answer('pass'),
      answer('fail'),
      answer('pass'),
      answer('pass'),
      answer('pass'),
    );
    const result = await run(['--json', 'weak']);
    assert.equal(result.code, 1, result.stderr);
    const judge = entry(result);
    // call 1 pass/pass (unanimous), call 2 unreadable, call 3 fail/fail (split), call 4 fail/pass (unanimous).
    // agreement 2/4, TPR 1/2, TNR 1/2, consistency 2/4; chance = (2·2 + 2·1) / 16 = 6/16, kappa = (0.5 − 0.375) / 0.625 = 0.2.
    assert.deepEqual(
      [judge.agreement, judge.tpr, judge.tnr, judge.consistency, judge.passed],
      [0.5, 0.5, 0.5, 0.5, false],
    );
    assert.ok(Math.abs((judge.kappa ?? 0) - 0.2) < 1e-9, String(judge.kappa));
    assert.match(
      judge.cases[1]?.messages[0] ?? '',
      /^judge "Order Triage" gave no verdict \(it is not one JSON object.*\): "Sounds good to me\."/,
    );
    assert.deepEqual(
      judge.cases.map((c) => [c.passed, c.verdict]),
      [
        [true, 'pass'],
        [false, 'fail'],
        [true, 'flaky'],
        [false, 'fail'],
      ],
    );
    assert.match(judge.messages[0] ?? '', /^kappa 0\.20 is below minKappa 0\.60/);
  });

  it('keeps a failed request out of the figures and fails the file with it', async () => {
    await judgeFile('lost/refunds.judgetest.json', ['pass', 'fail'], { minKappa: 0 });
    await faults({
      queue: [
        { match: 'test_prompt', status: 200, body: answer('pass'), count: 1 },
        { match: 'test_prompt', status: 500, body: '{"error":"model overloaded"}', count: 1 },
      ],
    });
    const result = await run(['--json', 'lost']);
    assert.equal(result.code, 1, result.stderr);
    const judge = entry(result);
    assert.deepEqual([judge.labels, judge.agreement, judge.cases[1]?.errors, judge.passed], [1, 1, 1, false]);
    assert.match(judge.messages.join('\n'), /1 of 2 labels could not be judged/);
  });

  it('advises about the failed requests, not about adding labels, when the pass labels were not judged', async () => {
    await judgeFile('unjudged/refunds.judgetest.json', ['pass', 'fail', 'fail'], { minKappa: 0 });
    await faults({
      queue: [
        { match: 'test_prompt', status: 500, body: '{"error":"model overloaded"}', count: 1 },
        { match: 'test_prompt', status: 200, body: answer('fail'), count: 2 },
      ],
    });
    const result = await run(['--json', 'unjudged']);
    assert.equal(result.code, 1, result.stderr);
    const judge = entry(result);
    assert.deepEqual([judge.labels, judge.kappa, judge.cases[0]?.errors, judge.passed], [2, null, 1, false]);
    const said = judge.messages.join('\n');
    assert.match(said, /1 of 3 labels could not be judged \(the request failed\)/);
    assert.match(
      said,
      /kappa cannot be computed: the file's 1 "pass" label was not judged \(a failed request or a cancelled run\), so every label weighed and every verdict is "fail"; run the file again once the judge answers/,
    );
    assert.doesNotMatch(said, /add labels/, 'the file has a pass label already');
  });

  it('refuses, sending nothing, a judge file with a problem or a judge the tenant lacks', async () => {
    await mkdir(path.join(work, 'broken'), { recursive: true });
    await writeFile(
      path.join(work, 'broken/a.judgetest.json'),
      '{ "judge": "Order Triage", "labels": [], "repeat": 2 }',
    );
    const broken = await run(['broken']);
    assert.equal(broken.code, 2);
    assert.match(
      broken.stderr,
      /^broken\/a\.judgetest\.json:1:\d+ repeat is how many times each label is judged: an odd whole number/m,
    );
    await judgeFile('missing/a.judgetest.json', ['pass'], { judge: 'Call Judje' });
    const missing = await run(['missing']);
    assert.equal(missing.code, 2);
    assert.match(
      missing.stderr,
      /missing\/a\.judgetest\.json: AI Prompt "Call Judje" is not in tenant 1 .*; correct the judge file's "judge" or its tenant\./,
    );
  });
});
