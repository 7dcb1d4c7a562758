/**
 * `dist/cli.js test` runs conversation cases and spoken-answer checks against
 * the local service, whose simulated AI routes an answer to another prompt by
 * its text (a prompt's settings.routes: test/service/README.md).
 */
import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { kindById } from '../../src/core/resources';
import { startContract, type ContractContext } from './setup';
import { runCli } from './cli-process';

interface Turn {
  turn: number;
  prompt_text: string;
  promptName: string;
  passed: boolean;
  messages: string[];
}
interface JsonReport {
  passed: number;
  failed: number;
  suites: Array<{
    cases: Array<{ name: string; passed: boolean; verdict: string; messages: string[]; turns?: Turn[] }>;
  }>;
}

describe('contract: the command-line tool (conversations and spoken answers)', function () {
  let ctx: ContractContext;
  let work: string;
  let billing = 0;

  before(async () => {
    ctx = await startContract();
    work = await mkdtemp(path.join(tmpdir(), 'convai-cli-conversations-'));
    const prompts = kindById('prompt');
    const tenantId = (await ctx.admin.create(kindById('tenant'), { name: 'Talks', email: 'a@talks.example' }))
      .id as number;
    billing = (
      await ctx.admin.create(
        prompts,
        { name: 'Billing', user_prompt: 'Billing about {{topic}} for {{caller}}' },
        tenantId,
      )
    ).id as number;
    const routes = { routes: [{ when: 'money|refund', next_prompt_id: billing, params: { topic: 'refund' } }] };
    await ctx.admin.create(
      prompts,
      { name: 'Greeting', user_prompt: 'Hello {{caller}}', settings: JSON.stringify(routes) },
      tenantId,
    );
    await writeFile(
      path.join(work, 'talks.prompttest.json'),
      JSON.stringify({
        target: { tenantId },
        prompt: 'Greeting',
        cases: [
          {
            name: 'refund goes to billing',
            prompt_params: { caller: 'Ada' },
            repeat: 3,
            turns: [
              { prompt_text: 'Hello', expect: { prompt: 'Greeting', altered_prompt: 'Hello Ada' } },
              { prompt_text: 'I want my money back', expect: { prompt: 'Greeting' } },
              {
                prompt_text: 'Thanks',
                expect: {
                  prompt: billing,
                  altered_prompt: 'Billing about refund for Ada',
                  response: { speakable: true, maxWords: 8 },
                },
              },
            ],
          },
          {
            name: 'refund stays in greeting',
            turns: [{ prompt_text: 'I want a refund' }, { prompt_text: 'Thanks', expect: { prompt: 'Greeting' } }],
          },
          {
            name: 'written, not spoken',
            turns: [
              {
                prompt_text: '**Sure!** See https://help.example/refunds',
                expect: { response: { speakable: true, maxWords: 3 } },
              },
            ],
          },
        ],
      }),
    );
  });
  after(async () => {
    await ctx.close();
    await rm(work, { recursive: true, force: true });
  });

  it('routes each turn by the answer before it, and names the prompts and what was found where a turn failed', async () => {
    const result = await runCli(
      ['test', '--url', ctx.service.url, '--json', '--junit', 'report.xml', 'talks.prompttest.json'],
      work,
      { CONVAI_TOKEN: ctx.service.adminToken },
    );
    assert.equal(result.code, 1, result.stderr);
    const [suite] = (JSON.parse(result.stdout) as JsonReport).suites;
    const cases = suite?.cases ?? [];
    assert.deepEqual(
      cases.map((c) => [c.name, c.passed, c.verdict]),
      [
        ['refund goes to billing', true, 'pass'],
        ['refund stays in greeting', false, 'fail'],
        ['written, not spoken', false, 'fail'],
      ],
    );
    assert.deepEqual(
      cases[0]?.turns?.map((t) => [t.turn, t.promptName, t.passed]),
      [
        [1, 'Greeting', true],
        [2, 'Greeting', true],
        [3, 'Billing', true],
      ],
    );
    assert.match(
      cases[1]?.messages[0] ?? '',
      new RegExp(`^turn 2: answered by "Billing" \\(${billing}\\), expected "Greeting"`),
    );
    assert.deepEqual(
      cases[1]?.turns?.map((t) => [t.turn, t.prompt_text, t.promptName, t.passed]),
      [
        [1, 'I want a refund', 'Greeting', true],
        [2, 'Thanks', 'Billing', false],
      ],
    );
    const spoken = cases[2]?.messages.join('\n') ?? '';
    assert.match(
      spoken,
      /response: not speakable: .*emphasis "\*\*Sure!\*\*" at line 1, column \d+.*a URL "https:\/\/help\.example\/refunds" at line 1, column \d+/,
    );
    assert.match(spoken, /response: has 8 words, more than maxWords 3$/m);
    const junit = await readFile(path.join(work, 'report.xml'), 'utf8');
    assert.match(
      junit,
      /<testcase [^>]*name="refund stays in greeting"[^>]*><properties>.*<property name="verdict" value="fail"\/>.*<\/properties><failure message="turn 2: answered by &quot;Billing&quot;/,
    );
  });
});
