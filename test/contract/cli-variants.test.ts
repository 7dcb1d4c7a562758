/**
 * `dist/cli.js test` on suites with variants, against the local service (whose simulated AI says what a prompt's
 * system text dictates with "Say exactly: …", so versions that differ only in text answer differently): every case on
 * the base and on each variant's copy, figures that mean something, and nothing live written or left behind.
 */
import * as assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { JsonObject } from '../../src/core/json';
import { kindById } from '../../src/core/resources';
import type { VariantReport } from '../../src/core/variants/variant-report';
import { request } from 'undici';
import { runCli, signalledWhileTesting, type Run } from './cli-process';
import { startContract, type ContractContext } from './setup';

const PROMPT = kindById('prompt');
const TRIAGE = 2;
const SAYS = 'Say exactly: Your order is on its way.';

interface Report {
  passed: number;
  failed: number;
  suites: Array<{ cases: Array<JsonObject & { name: string; passes: number }>; variants?: VariantReport[] }>;
}

describe('contract: the command-line tool (variants)', function () {
  this.timeout(60_000);
  let ctx: ContractContext;
  let work: string;
  const env = (): Record<string, string> => ({
    CONVAI_TOKEN: ctx.service.adminToken,
    CONVAI_CACHE_DIR: path.join(work, 'cache'),
  });
  const test = (...args: string[]): Promise<Run> => runCli(['test', '--url', ctx.service.url, ...args], work, env());
  const report = (run: Run): Report => JSON.parse(run.stdout) as Report;
  const suite = async (variants: unknown, repeat = 6): Promise<void> => {
    await writeFile(
      path.join(work, 'triage.prompttest.json'),
      JSON.stringify({
        target: { tenantId: 1 },
        prompt: 'Order Triage',
        variants,
        cases: [
          {
            name: 'on its way',
            prompt_text: 'Where is my order?',
            expect: { response: { contains: 'on its way' } },
            repeat,
          },
          { name: 'answers', prompt_text: 'Hello', expect: { response: { matches: '.' } }, repeat },
        ],
      }),
    );
  };
  const writes = (): string[] =>
    ctx.service.requests
      .list()
      .filter((r) => r.method !== 'GET' && !r.path.endsWith('/test_prompt'))
      .map((r) => `${r.method} ${r.path}`);
  const copiesLeft = async (): Promise<string[]> =>
    (await ctx.admin.list(PROMPT, 1, { trialCopies: true }))
      .map((p) => String(p.name))
      .filter((name) => name.startsWith('[trial '));

  beforeEach(async () => {
    ctx = await startContract();
    work = await mkdtemp(path.join(tmpdir(), 'convai-cli-variants-'));
  });
  afterEach(async () => {
    await ctx.close();
    await rm(work, { recursive: true, force: true });
  });

  it('runs every case on the base and on each variant: a better variant, a same one, the base deciding the exit code', async () => {
    const live = await ctx.admin.get(PROMPT, TRIAGE, 1);
    await suite([
      { name: 'says', fields: { system: SAYS } },
      { name: 'cooler', fields: { temparature: 0.9 } },
    ]);
    const run = await test('--json', 'triage.prompttest.json');
    assert.equal(run.code, 1, 'the base fails a case, so the run fails\n' + run.stderr);
    const [only] = report(run).suites;
    assert.deepEqual(
      only?.cases.map((c) => [c.name, c.passes]),
      [
        ['on its way', 0],
        ['answers', 6],
      ],
      "the suite's cases are the base's",
    );
    const [base, says, cooler] = only?.variants ?? [];
    assert.deepEqual(
      [base, says, cooler].map((c) => [c?.name, c?.runs, c?.passes, c?.errors]),
      [
        ['base', 12, 6, 0],
        ['says', 12, 12, 0],
        ['cooler', 12, 6, 0],
      ],
    );
    assert.equal(base?.vsBase, undefined);
    assert.equal(says?.vsBase?.change, 'better');
    assert.ok((says?.vsBase?.p ?? 1) < 0.05);
    assert.deepEqual(cooler?.vsBase, { change: 'same', p: 1 });
    assert.deepEqual(
      says?.cases.map((c) => [c.name, c.runs, c.passes, c.verdict]),
      [
        ['on its way', 6, 6, 'pass'],
        ['answers', 6, 6, 'pass'],
      ],
    );
    assert.deepEqual(base?.cases[0]?.interval, [0, base?.cases[0]?.interval[1]]);
    assert.ok(typeof says?.latency?.p50 === 'number' && typeof says.latency.p95 === 'number');
    assert.equal(says?.passRate, 1);

    const made = writes();
    assert.equal(made.filter((w) => w === 'POST /api/v1/ai_prompts').length, 2, made.join('\n'));
    assert.equal(made.filter((w) => w.startsWith('DELETE /api/v1/ai_prompts/')).length, 2, made.join('\n'));
    assert.equal(made.length, 4, `only the copies were written: ${made.join(', ')}`);
    assert.deepEqual(await copiesLeft(), []);
    assert.deepEqual(await ctx.admin.get(PROMPT, TRIAGE, 1), live, 'the live prompt is as it was');
  });

  it('shows the columns in the terminal and in JUnit properties', async () => {
    await suite([{ name: 'says', fields: { system: SAYS } }]);
    const run = await test('--junit', 'report.xml', 'triage.prompttest.json');
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /^ {2}Variants \(every case on each/m);
    assert.match(run.stdout, /^ {4}variant +pass rate +95% interval +p50 +p95 +vs base$/m);
    assert.match(run.stdout, /^ {4}base +6\/12 50% +\d+–\d+% +\d+ ms +\d+ ms *$/m);
    assert.match(run.stdout, /^ {4}says +12\/12 100% +\d+–100% +\d+ ms +\d+ ms +better, p = 0\.0\d+$/m);
    assert.match(run.stdout, /^Prompt tests: 1 passed, 1 failed \(1 suite\)$/m, "the totals are the base's");
    const xml = await readFile(path.join(work, 'report.xml'), 'utf8');
    assert.match(xml, /<property name="variant: base" value="6\/12"\/>/);
    assert.match(xml, /<property name="variant: says" value="12\/12; vs base better, p=0\.0\d+"\/>/);
    assert.match(
      xml,
      /<testcase [^>]*name="on its way"[^>]*><properties>.*<property name="variant: says" value="6\/6"\/>/,
    );
  });

  it('reads a variant from a file beside the suite, one final newline taken off', async () => {
    await mkdir(path.join(work, 'variants'));
    await writeFile(path.join(work, 'variants', 'triage-b.md'), `${SAYS}\n`);
    await suite([{ name: 'from file', file: 'variants/triage-b.md', field: 'system' }], 2);
    const run = await test('--json', 'triage.prompttest.json');
    const [, fromFile] = report(run).suites[0]?.variants ?? [];
    assert.equal(fromFile?.name, 'from file');
    assert.equal(fromFile?.passes, 4, run.stderr);
    assert.deepEqual(await copiesLeft(), []);
  });

  it("starts a variant from a trial's version of the prompt, and writes only copies", async () => {
    const pulled = await runCli(['pull', '--url', ctx.service.url, '--tenant', '1', 'tenant'], work, env());
    assert.equal(pulled.code, 0, pulled.stderr);
    const file = path.join(work, 'tenant', 'ai_prompts', 'order-triage.json');
    const values = JSON.parse(await readFile(file, 'utf8')) as JsonObject;
    await writeFile(file, JSON.stringify({ ...values, ai_model: 'trial-model' }, null, 2));
    await writeFile(
      path.join(work, 'triage.prompttest.json'),
      JSON.stringify({
        target: { tenantId: 1 },
        prompt: 'Order Triage',
        variants: [{ name: 'cooler', fields: { temparature: 0.9 } }],
        cases: [{ name: 'model', prompt_text: 'hi', expect: { response: { contains: 'Echo (trial-model)' } } }],
      }),
    );
    ctx.service.requests.clear();
    const run = await test('--trial', 'tenant', '--json', 'triage.prompttest.json');
    assert.equal(run.code, 0, run.stderr + run.stdout);
    const [base, cooler] = report(run).suites[0]?.variants ?? [];
    assert.deepEqual(
      [base, cooler].map((c) => [c?.name, c?.passes, c?.runs]),
      [
        ['base', 1, 1],
        ['cooler', 1, 1],
      ],
      "both answer with the trial's model",
    );
    assert.equal(
      writes().filter((w) => w === 'POST /api/v1/ai_prompts').length,
      2,
      "the trial's copy and the variant's",
    );
    assert.deepEqual(await copiesLeft(), []);
  });

  for (const [what, variants, message] of [
    ['an unknown field', [{ name: 'typo', fields: { sytem: SAYS } }], /sytem: unknown field; did you mean "system"\?/],
    [
      'a wrong type',
      [{ name: 'warm', fields: { temparature: 'hot' } }],
      /temparature: must be a number or null, not a string/,
    ],
    [
      'a missing file',
      [{ name: 'gone', file: 'variants/none.md', field: 'system' }],
      /variant "gone": the file "variants\/none\.md" could not be read/,
    ],
  ] as const)
    it(`refuses ${what} with exit 2, naming its place, before anything is sent`, async () => {
      await suite(variants, 1);
      const run = await test('triage.prompttest.json');
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /^triage\.prompttest\.json:1:\d+ /m);
      assert.match(run.stderr, message);
      assert.deepEqual(ctx.service.requests.list(), [], 'nothing was sent');
    });

  it('Ctrl+C deletes the copies and exits 130; the next run deletes what a killed run left', async () => {
    await request(`${ctx.service.url}/__test/faults`, { method: 'POST', body: JSON.stringify({ latencyMs: 50 }) }).then(
      (r) => r.body.text(),
    );
    await suite([{ name: 'says', fields: { system: SAYS } }], 50);
    const args = ['test', '--url', ctx.service.url, '--concurrency', '1', 'triage.prompttest.json'];
    const tested = (): Promise<void> => ctx.service.requests.arrivals(1, (r) => r.path.endsWith('/test_prompt'));
    const stopped = await signalledWhileTesting(tested, 'SIGINT', args, work, env());
    assert.equal(stopped.code, 130, stopped.stderr);
    assert.deepEqual(await copiesLeft(), [], 'Ctrl+C deletes the copies');

    await signalledWhileTesting(tested, 'SIGKILL', args, work, env());
    const [left] = await copiesLeft();
    assert.match(left ?? '', /^\[trial [0-9a-f]{8}\] Order Triage$/, 'a killed run cannot delete');
    await suite([{ name: 'says', fields: { system: SAYS } }], 1);
    const next = await test('triage.prompttest.json');
    assert.equal(next.code, 1, next.stderr);
    assert.ok(next.stderr.includes(`Deleted 1 trial copy an earlier run left: "${left}"`), next.stderr);
    assert.deepEqual(await copiesLeft(), []);
  });

  it("--max-requests holds every variant's runs and its copy: at the bound it runs, one below it sends nothing", async () => {
    await suite(
      [
        { name: 'says', fields: { system: SAYS } },
        { name: 'cooler', fields: { temparature: 0.9 } },
      ],
      1,
    );
    // 2 cases on the base and on 2 variants, and each variant's copy created and deleted: 2 · 3 + 2 · 2.
    const refused = await test('--max-requests', '9', 'triage.prompttest.json');
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /could send up to 10 requests, more than --max-requests 9/);
    assert.deepEqual(writes(), []);
    const allowed = await test('--max-requests', '10', 'triage.prompttest.json');
    assert.equal(allowed.code, 1, allowed.stderr);
    assert.match(allowed.stdout, /^\d+ requests sent: 10 that ran a test \(its cases could send at most 10/m);
    assert.deepEqual(await copiesLeft(), []);
  });
});
