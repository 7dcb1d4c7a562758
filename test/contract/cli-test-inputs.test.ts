/**
 * What `dist/cli.js test` reads before it sends anything, against the local
 * service: a --junit path that is one of the run's inputs or cannot be
 * written, and the plan of an --affected-by folder (a renamed prompt, a plan
 * with problems). Each refusal is checked in the service's request log.
 */
import * as assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { kindById } from '../../src/core/resources';
import { raw } from './fixtures';
import { startContract, type ContractContext } from './setup';
import { runCli, type Run } from './cli-process';

interface JsonReport {
  suites: Array<{ file: string; cases: Array<{ name: string; passed: boolean }> }>;
}

const cases = [{ name: 'echoes', prompt_text: 'hello', expect: { response: { contains: 'hello' } } }];

describe("contract: the command-line tool (test's inputs)", function () {
  let ctx: ContractContext;
  let work: string;
  const env = (): Record<string, string> => ({ CONVAI_TOKEN: ctx.service.adminToken });
  const requests = (): string => `${ctx.service.url}/__test/requests`;
  /** The run, and the API requests it sent. */
  const run = async (...args: string[]): Promise<{ result: Run; sent: string[] }> => {
    await raw(requests(), 'DELETE', ctx.service.adminToken);
    const result = await runCli(['test', '--url', ctx.service.url, ...args], work, env());
    const log = (await raw(requests(), 'GET', ctx.service.adminToken)).json as Array<{ method: string; path: string }>;
    return { result, sent: log.map((entry) => `${entry.method} ${entry.path}`) };
  };
  const suite = async (file: string, prompt: string, tenantId = 1): Promise<void> => {
    await mkdir(path.dirname(path.join(work, file)), { recursive: true });
    await writeFile(path.join(work, file), `${JSON.stringify({ target: { tenantId }, prompt, cases }, null, 2)}\n`);
  };

  before(async () => {
    ctx = await startContract();
    work = await mkdtemp(path.join(tmpdir(), 'convai-cli-inputs-'));
    await suite('victim.prompttest.json', 'Order Triage');
    await suite('suites/triage.prompttest.json', 'Order Triage');
    await writeFile(path.join(work, 'a-file'), 'not a folder');
  });
  after(async () => {
    await ctx.close();
    await rm(work, { recursive: true, force: true });
  });

  describe('--junit', () => {
    it("refuses a report path that is one of the run's inputs (exit 2): the input is left byte for byte, nothing is sent", async () => {
      const victim = await readFile(path.join(work, 'victim.prompttest.json'));
      const baseline = await run('--json', 'suites');
      assert.equal(baseline.result.code, 0, baseline.result.stderr);
      await writeFile(path.join(work, 'baseline.json'), baseline.result.stdout);
      const refusals: Array<[string[], RegExp]> = [
        [
          ['--junit', 'victim.prompttest.json', 'victim.prompttest.json'],
          /is the suite victim\.prompttest\.json, which this run reads/,
        ],
        [
          ['--junit', './suites/../victim.prompttest.json', 'victim.prompttest.json'],
          /is the suite victim\.prompttest\.json/,
        ],
        [['--junit', 'suites/triage.prompttest.json', 'suites'], /is the suite suites\/triage\.prompttest\.json/],
        [
          ['--junit', 'baseline.json', '--baseline', 'baseline.json', 'suites'],
          /is the --baseline report baseline\.json/,
        ],
      ];
      for (const [args, says] of refusals) {
        const { result, sent } = await run(...args);
        assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
        assert.match(result.stderr, says);
        assert.match(
          result.stderr,
          /nothing was sent: give --junit a file of its own, e\.g\. --junit prompt-tests\.xml\.$/m,
        );
        assert.equal(result.stdout, '');
        assert.deepEqual(sent, []);
      }
      assert.deepEqual(await readFile(path.join(work, 'victim.prompttest.json')), victim);
      assert.equal(await readFile(path.join(work, 'baseline.json'), 'utf8'), baseline.result.stdout);
    });

    it('refuses a path that cannot be written before anything is sent, naming it and the fix', async () => {
      const refusals: Array<[string, RegExp]> = [
        [
          'a-file/report.xml',
          new RegExp(
            `^--junit ${path.join(work, 'a-file/report.xml')} cannot be written: ${path.join(work, 'a-file')} is a file, not a folder; nothing was sent: give --junit a path in a folder`,
            'm',
          ),
        ],
        [
          'suites',
          new RegExp(
            `^--junit ${path.join(work, 'suites')} is a folder; nothing was sent: give --junit a file, e\\.g\\. --junit suites/prompt-tests\\.xml\\.$`,
            'm',
          ),
        ],
      ];
      for (const [report, says] of refusals) {
        const { result, sent } = await run('--junit', report, 'victim.prompttest.json');
        assert.equal(result.code, 2, result.stderr);
        assert.match(result.stderr, says);
        assert.deepEqual(sent, []);
      }
    });
  });

  describe('--affected-by', () => {
    let tenantId = 0;
    /** A fresh pull of the tenant into `folder`, and the file of the prompt named `name` there. */
    const pulled = async (folder: string, name: string): Promise<string> => {
      const pull = await runCli(['pull', '--url', ctx.service.url, '--tenant', String(tenantId), folder], work, env());
      assert.equal(pull.code, 0, pull.stderr);
      const manifest = JSON.parse(await readFile(path.join(work, folder, 'convai-tenant.json'), 'utf8')) as {
        resources: Array<{ name: string; file: string }>;
      };
      return path.join(work, folder, manifest.resources.find((r) => r.name === name)?.file ?? 'missing');
    };

    before(async () => {
      tenantId = (await ctx.admin.create(kindById('tenant'), { name: 'Renames', email: 'a@renames.example' }))
        .id as number;
      for (const name of ['Billing', 'Closing']) await ctx.admin.create(kindById('prompt'), { name }, tenantId);
      for (const name of ['Billing', 'Closing']) await suite(`renames/${name}.prompttest.json`, name, tenantId);
    });

    it('runs the suite that names a prompt renamed in the folder by its old name, the one the service still knows', async () => {
      const file = await pulled('renamed', 'Billing');
      await writeFile(
        file,
        JSON.stringify({ ...(JSON.parse(await readFile(file, 'utf8')) as object), name: 'Payments' }, null, 2),
      );
      const { result } = await run('--json', '--affected-by', 'renamed', 'renames');
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(
        (JSON.parse(result.stdout) as JsonReport).suites.map((s) => s.file),
        ['renames/Billing.prompttest.json'],
      );
      assert.match(result.stderr, /^--affected-by renamed: 1 planned change; 1 of 2 suites affected\.$/m);
    });

    it('refuses a plan with problems (exit 2), listing them and the fix; no test is sent', async () => {
      const file = await pulled('broken', 'Billing');
      await writeFile(file, '{ "name": "Billing", ');
      const { result, sent } = await run('--affected-by', 'broken', 'renames');
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stdout, '');
      assert.match(
        result.stderr,
        new RegExp(
          `^--affected-by broken: the planned push of ${path.join(work, 'broken')} has 1 problem, so the suites it affects cannot be told and no prompt test ran:$`,
          'm',
        ),
      );
      assert.match(result.stderr, new RegExp(`^ {2}${path.relative(path.join(work, 'broken'), file)}:1:\\d+: `, 'm'));
      assert.match(
        result.stderr,
        /^Fix it in the folder \(node dist\/cli\.js plan broken lists them too\), then run test again\.$/m,
      );
      assert.deepEqual(
        sent.filter((request) => /test_prompt|execute_action/.test(request)),
        [],
      );
    });
  });
});
