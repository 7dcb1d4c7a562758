/**
 * `dist/cli.js test` runs simulated calls against the local service: what a
 * run can cost is known before anything is sent, and --max-requests refuses a
 * run that could cost more.
 */
import * as assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { raw } from './fixtures';
import { startContract, type ContractContext } from './setup';
import { runCli, type Run } from './cli-process';

describe('contract: the command-line tool (test: simulated calls)', function () {
  let ctx: ContractContext;
  let work: string;
  const run = (...args: string[]): Promise<Run> => runCli(['test', '--url', ctx.service.url, ...args], work, { CONVAI_TOKEN: ctx.service.adminToken });
  const testPrompts = async (): Promise<number> => {
    const { json: requests } = await raw(`${ctx.service.url}/__test/requests`, 'GET', ctx.service.adminToken);
    return (requests as Array<{ method: string; path: string }>).filter((r) => r.method === 'POST' && r.path.endsWith('/test_prompt')).length;
  };

  before(async () => {
    ctx = await startContract();
    work = await mkdtemp(path.join(tmpdir(), 'convai-cli-simulated-'));
    await writeFile(path.join(work, 'calls.prompttest.json'), JSON.stringify({
      target: { tenantId: 1 }, prompt: 'Order Triage',
      cases: [{
        name: 'annoyed caller', repeat: 10, judgeRepeat: 3,
        simulate: { caller: 'Order Triage', persona: 'Annoyed.', opening: 'Hello?', maxTurns: 6 },
        criteria: [{ name: 'says the days', judge: 'Order Triage', rubric: 'Tells the days.' }, { name: 'polite', judge: 'Order Triage', rubric: 'Is polite.' }],
      }],
    }, null, 2));
  });
  after(async () => {
    await ctx.close();
    await rm(work, { recursive: true, force: true });
  });

  it('--max-requests refuses a run that could send more, before sending anything, and prints the bound', async () => {
    const sent = await testPrompts();
    const result = await run('--max-requests', '100', 'calls.prompttest.json');
    assert.equal(result.code, 2, result.stdout);
    // Per call: 2 × 6 turns and 2 judged criteria × 3 judgements; 10 calls.
    assert.match(result.stderr, /^This run could send up to 180 requests, more than --max-requests 100, so nothing was sent\. /m);
    assert.equal(await testPrompts(), sent, 'nothing was sent');
    const bad = await run('--max-requests', 'lots', 'calls.prompttest.json');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--max-requests "lots" is not a number of requests/);
  });
});
