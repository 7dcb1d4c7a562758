/**
 * `dist/cli.js test --json` reports the flow map's coverage per tenant, run
 * against the local service: its simulated AI routes an answer to another
 * prompt by its text (a prompt's settings.routes: test/service/README.md) and
 * echoes the text otherwise.
 */
import * as assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TenantCoverage } from '../../src/core/flow-map/coverage';
import type { JsonObject } from '../../src/core/json';
import { kindById } from '../../src/core/resources';
import { startContract, type ContractContext } from './setup';
import { runCli } from './cli-process';

describe('contract: the command-line tool (coverage in test --json)', function () {
  let ctx: ContractContext;
  let work: string;
  const id = { talks: 0, checks: 0, greeting: 0, billing: 0, spare: 0, lonely: 0, pinger: 0 };

  before(async () => {
    ctx = await startContract();
    work = await mkdtemp(path.join(tmpdir(), 'convai-cli-coverage-'));
    const create = async (
      kind: 'prompt' | 'integration' | 'tenant',
      values: JsonObject,
      tenantId?: number,
    ): Promise<number> => (await ctx.admin.create(kindById(kind), values, tenantId)).id as number;
    id.talks = await create('tenant', { name: 'Talks', email: 'a@talks.example' });
    id.checks = await create('tenant', { name: 'Checks', email: 'a@checks.example' });
    id.billing = await create('prompt', { name: 'Billing', user_prompt: 'Billing' }, id.talks);
    id.greeting = await create(
      'prompt',
      {
        name: 'Greeting',
        user_prompt: 'Hello',
        settings: JSON.stringify({ routes: [{ when: 'refund', next_prompt_id: id.billing }] }),
      },
      id.talks,
    );
    id.spare = await create('prompt', { name: 'Spare', user_prompt: 'Nobody tests me' }, id.talks);
    id.lonely = await create('prompt', { name: 'Lonely', user_prompt: 'Nor me' }, id.checks);
    id.pinger = await create('integration', { name: 'Pinger', system: 'rest', technical_id: 'pinger' }, id.checks);
    const suites = {
      'greeting.prompttest.json': {
        target: { tenantId: id.talks },
        prompt: 'Greeting',
        cases: [
          {
            name: 'refund',
            turns: [{ prompt_text: 'I want a refund' }, { prompt_text: 'Thanks', expect: { prompt: 'Billing' } }],
          },
        ],
      },
      'billing.prompttest.json': {
        target: { tenantId: id.talks },
        prompt: 'Billing',
        cases: [{ name: 'another model', prompt_text: 'hello', expect: { response: { contains: 'gpt-5' } } }],
      },
      // A tenant tested by an integration suite alone: its prompts are listed for the run's coverage.
      'pinger.prompttest.json': {
        target: { tenantId: id.checks },
        integration: 'Pinger',
        cases: [{ name: 'answers ping', action: 'ping', expect: { result: 'pong' } }],
      },
    };
    for (const [file, suite] of Object.entries(suites)) await writeFile(path.join(work, file), JSON.stringify(suite));
  });
  after(async () => {
    await ctx.close();
    await rm(work, { recursive: true, force: true });
  });

  it('gives each tenant its prompts passed, failed or untested, what else it tested, and the hand-overs conversations took', async () => {
    const result = await runCli(['test', '--url', ctx.service.url, '--json', '.'], work, {
      CONVAI_TOKEN: ctx.service.adminToken,
    });
    assert.equal(result.code, 1, result.stderr);
    const report = JSON.parse(result.stdout) as { passed: number; failed: number; coverage: TenantCoverage[] };
    assert.deepEqual([report.passed, report.failed], [2, 1], 'the counts are as before the coverage field');
    const prompt = (n: number): string => `ai_prompts/${n}`;
    assert.deepEqual(report.coverage, [
      {
        tenantId: id.talks,
        nodes: { [prompt(id.billing)]: 'failed', [prompt(id.greeting)]: 'passed', [prompt(id.spare)]: 'untested' },
        edges: [`${prompt(id.greeting)} -> ${prompt(id.billing)}`],
      },
      {
        tenantId: id.checks,
        nodes: { [prompt(id.lonely)]: 'untested', [`integrations/${id.pinger}`]: 'passed' },
        edges: [],
      },
    ]);
  });
});
