/**
 * The local service's caller and judge prompts over HTTP, as a simulated call
 * uses them: prompts created through the API with scripted settings, then
 * test_prompt on them with a ServiceClient (test/service/README.md "Callers
 * and judges").
 */
import * as assert from 'node:assert/strict';
import type { JsonObject } from '../../src/core/json';
import { kindById } from '../../src/core/resources';
import { raw } from './fixtures';
import { startContract, type ContractContext } from './setup';

const prompts = kindById('prompt');
const RUBRIC = 'The assistant tells the caller how many days a refund takes.';

interface Judged {
  reasoning: string;
  verdict: string;
  quote?: string;
}

describe('contract: caller and judge prompts of the local service', () => {
  let ctx: ContractContext;
  let tenantId = 0;
  before(async () => {
    ctx = await startContract();
    tenantId = (await ctx.admin.create(kindById('tenant'), { name: 'Calls', email: 'a@calls.example' })).id as number;
  });
  after(async () => ctx.close());

  async function scripted(name: string, settings: JsonObject): Promise<number> {
    return (
      await ctx.admin.create(
        prompts,
        { name, user_prompt: 'Play {{persona}}', settings: JSON.stringify(settings) },
        tenantId,
      )
    ).id as number;
  }

  async function options(body: JsonObject): Promise<void> {
    assert.equal(
      (await raw(`${ctx.service.url}/__test/options`, 'POST', ctx.service.adminToken, JSON.stringify(body))).status,
      200,
    );
  }

  const judge = (id: number, transcript: string): Promise<{ response: string }> =>
    ctx.admin.testPrompt(prompts, id, tenantId, {
      prompt_text: transcript,
      prompt_params: { rubric: RUBRIC, criterion: 'refund time', transcript },
    });

  const judgeSettings = (format: string, extra: JsonObject = {}): JsonObject => ({
    ...extra,
    judge: {
      rules: [
        {
          when: 'assistant \\([^)]*\\): [^\\n]*\\d+ days',
          rubric: 'days',
          verdict: 'pass',
          reasoning: 'It says the days.',
        },
      ],
      otherwise: { verdict: 'fail', reasoning: 'No days said.' },
      format,
    },
  });

  it("answers a caller's line by the assistant's answer, and [end] once it mentions days", async () => {
    const id = await scripted('Refund Caller', {
      caller: {
        lines: [
          { when: 'days', say: '[end] thanks' },
          { when: 'help', say: 'I am {{persona}}. I want a refund.' },
        ],
        otherwise: 'Hello?',
      },
    });
    const params = { persona: 'an annoyed customer', transcript: 'caller: Hi' };
    const asked = await ctx.admin.testPrompt(prompts, id, tenantId, {
      prompt_text: 'How can I help?',
      prompt_params: params,
    });
    assert.deepEqual(asked, {
      response: 'I am an annoyed customer. I want a refund.',
      altered_prompt: 'Play an annoyed customer',
      next_prompt_id: null,
      next_prompt_params: params,
    });
    assert.equal(
      (
        await ctx.admin.testPrompt(prompts, id, tenantId, {
          prompt_text: 'Refunds take 5 DAYS.',
          prompt_params: params,
        })
      ).response,
      '[end] thanks',
    );
    assert.equal(
      (await ctx.admin.testPrompt(prompts, id, tenantId, { prompt_text: 'Good day to you', prompt_params: params }))
        .response,
      'Hello?',
    );
  });

  it("answers a judge's verdict as one JSON object, alone or in a ```json fence, and an unreadable one when broken", async () => {
    const said = 'caller: refund?\nassistant (Billing): Refunds take 5 days.';
    const unsaid = 'caller: refund?\nassistant (Billing): Soon.';
    const plain = await scripted('Judge', judgeSettings('json'));
    assert.equal(
      (await judge(plain, said)).response,
      '{"reasoning":"It says the days.","verdict":"pass","quote":"assistant (Billing): Refunds take 5 days"}',
    );
    assert.deepEqual(JSON.parse((await judge(plain, unsaid)).response), {
      reasoning: 'No days said.',
      verdict: 'fail',
    });
    const fenced = (await judge(await scripted('Fenced Judge', judgeSettings('fenced')), said)).response;
    const inside = /^```json\n([^]*)\n```$/.exec(fenced)?.[1];
    assert.equal((JSON.parse(inside ?? 'null') as Judged | null)?.verdict, 'pass', fenced);
    const broken = (await judge(await scripted('Broken Judge', judgeSettings('broken')), said)).response;
    assert.equal(broken, 'Verdict: pass. It says the days.');
    assert.throws(() => JSON.parse(broken) as unknown);
  });

  it("reverses a judge's verdict at its own seeded rate, the same reversals for the same seed", async () => {
    const id = await scripted('Unsure Judge', judgeSettings('json', { answerVariation: 0.4 }));
    const said = 'assistant (Billing): 5 days.';
    const verdicts = async (): Promise<string[]> => {
      const found: string[] = [];
      for (let i = 0; i < 40; i++) found.push((JSON.parse((await judge(id, said)).response) as Judged).verdict);
      return found;
    };
    await options({ answerSeed: 11 });
    const first = await verdicts();
    const reversed = first.filter((verdict) => verdict === 'fail').length;
    assert.ok(reversed > 5 && reversed < 30, `${reversed} of 40 reversed at a rate of 0.4`);
    await options({ answerSeed: 11 });
    assert.deepEqual(await verdicts(), first);
  });

  it("varies a caller's line with the service's answerVariation", async () => {
    const id = await scripted('Flaky Caller', { caller: { otherwise: 'I want a refund.' } });
    await options({ answerVariation: 1 });
    try {
      assert.equal(
        (await ctx.admin.testPrompt(prompts, id, tenantId, { prompt_text: 'Hello' })).response,
        'I am not sure.',
      );
    } finally {
      await options({ answerVariation: 0 });
    }
  });

  it('refuses a malformed script with 422 naming settings and the rule', async () => {
    const id = await scripted('Bad Judge', { judge: { rules: [{ when: '(', verdict: 'pass', reasoning: 'r' }] } });
    const answer = await raw(
      `${ctx.service.url}/api/v1/ai_prompts/${id}/test_prompt?tenant_id=${tenantId}`,
      'POST',
      ctx.service.adminToken,
      '{"prompt_text":"hi"}',
    );
    assert.equal(answer.status, 422);
    assert.match(
      JSON.stringify(answer.json),
      /^\{"errors":\{"settings":\["judge\.rules\[0\]\.when is not a regular expression: /,
    );
  });

  it('plays a refund call on the sample tenant: the caller ends once Order Triage says the days, and Call Judge passes it', async () => {
    const sample = await ctx.admin.list(prompts, 1);
    const idOf = (name: string): number => {
      const found = sample.find((p) => p.name === name);
      assert.ok(found, `sample prompt ${name}`);
      return found.id as number;
    };
    const transcript: string[] = [];
    let line = 'Hello? I need to talk about my order.';
    let assistant = idOf('Support Greeting');
    while (!line.startsWith('[end]')) {
      assert.ok(transcript.length < 10, transcript.join('\n'));
      transcript.push(`caller: ${line}`);
      const answer = await ctx.admin.testPrompt(prompts, assistant, 1, { prompt_text: line });
      transcript.push(`assistant (${String(sample.find((p) => p.id === assistant)?.name)}): ${answer.response}`);
      assistant = answer.next_prompt_id as number;
      const persona = 'Your kettle broke after a week. You are annoyed and want your money back.';
      line = (
        await ctx.admin.testPrompt(prompts, idOf('Caller: Broken Kettle'), 1, {
          prompt_text: answer.response,
          prompt_params: { persona, transcript: transcript.join('\n') },
        })
      ).response;
    }
    assert.equal(
      transcript[3],
      'assistant (Order Triage): Refunds reach your original payment method within 5 business days.',
    );
    assert.equal(assistant, idOf('Human Handoff'));
    const text = transcript.join('\n');
    const verdict = JSON.parse(
      (
        await ctx.admin.testPrompt(prompts, idOf('Call Judge'), 1, {
          prompt_text: text,
          prompt_params: { rubric: RUBRIC, criterion: 'refund time', transcript: text },
        })
      ).response,
    ) as Judged;
    assert.deepEqual(verdict, {
      reasoning: 'The assistant tells the caller how many days the refund takes.',
      verdict: 'pass',
      quote: 'Refunds reach your original payment method within 5 business days.',
    });
  });
});
