import * as assert from 'node:assert/strict';
import { kindById } from '../../src/core/resources';
import { ServiceClient } from '../../src/core/client';
import { raw } from './fixtures';
import { startContract, type ContractContext } from './setup';

const TENANT = 1;
const prompts = kindById('prompt');

async function post(ctx: ContractContext, route: string, body: unknown): Promise<{ status: number; json: unknown }> {
  return raw(`${ctx.service.url}/__test/${route}`, 'POST', ctx.service.adminToken, JSON.stringify(body));
}

describe('local service: the simulated AI (routes, varied answers) and rate limits', () => {
  let ctx: ContractContext;
  before(async () => {
    ctx = await startContract();
  });
  beforeEach(async () => {
    await post(ctx, 'reset', {});
  });
  after(async () => ctx.close());

  async function routed(settings: unknown): Promise<{ id: number; billing: number }> {
    const billing = (await ctx.admin.create(prompts, { name: 'Billing' }, TENANT)).id as number;
    const { id } = await ctx.admin.create(
      prompts,
      { name: 'Router', next_prompt_id: 99, settings: JSON.stringify(settings) },
      TENANT,
    );
    return { id: id as number, billing };
  }

  /** Routes `money|refund` of the router to Billing, whose id is known only once it is created. */
  async function route(id: number, billing: number, params: object): Promise<void> {
    await ctx.admin.update(
      prompts,
      id,
      { settings: JSON.stringify({ routes: [{ when: 'money|refund', next_prompt_id: billing, params }] }) },
      TENANT,
    );
  }

  it('routes an answer whose text matches a route, merging its params over the ones sent', async () => {
    const { id, billing } = await routed({});
    await route(id, billing, { topic: 'refund' });
    const answer = await ctx.admin.testPrompt(prompts, id, TENANT, {
      prompt_text: 'I want my MONEY back',
      prompt_params: { caller: 'Ada', topic: 'x' },
    });
    assert.equal(answer.next_prompt_id, billing);
    assert.deepEqual(answer.next_prompt_params, { caller: 'Ada', topic: 'refund' });
    const other = await ctx.admin.testPrompt(prompts, id, TENANT, {
      prompt_text: 'Hello',
      prompt_params: { caller: 'Ada' },
    });
    assert.equal(other.next_prompt_id, 99);
    assert.deepEqual(other.next_prompt_params, { caller: 'Ada' });
  });

  it('refuses a malformed route with 422 naming settings and the route', async () => {
    const { id } = await routed({ routes: [{ when: '(', next_prompt_id: 1 }] });
    const answer = await raw(
      `${ctx.service.url}/api/v1/ai_prompts/${id}/test_prompt?tenant_id=${TENANT}`,
      'POST',
      ctx.service.adminToken,
      '{"prompt_text":"hi"}',
    );
    assert.equal(answer.status, 422);
    assert.match(JSON.stringify(answer.json), /"settings":\["routes\[0\]\.when is not a regular expression: /);
  });

  it('varies the set share of answers, the same ones for the same seed, and no route for a varied one', async () => {
    const { id, billing } = await routed({});
    await route(id, billing, {});
    const draw = async (): Promise<string[]> => {
      const answers: string[] = [];
      for (let i = 0; i < 200; i++) {
        const answer = await ctx.admin.testPrompt(prompts, id, TENANT, { prompt_text: 'refund please' });
        assert.equal(answer.next_prompt_id, answer.response === 'I am not sure.' ? 99 : billing);
        answers.push(answer.response);
      }
      return answers;
    };
    assert.deepEqual((await post(ctx, 'options', { answerVariation: 0.3, answerSeed: 7 })).json, {
      timestamps: false,
      answerVariation: 0.3,
      answerSeed: 7,
    });
    const first = await draw();
    const varied = first.filter((text) => text === 'I am not sure.').length;
    assert.ok(varied > 30 && varied < 90, `${varied} of 200 varied at a rate of 0.3`);
    await post(ctx, 'options', { answerSeed: 7 });
    assert.deepEqual(await draw(), first);
  });

  it('refuses a rate outside 0 to 1 or a seed that is no integer, naming the option', async () => {
    assert.deepEqual(await post(ctx, 'options', { answerVariation: 1.5 }), {
      status: 400,
      json: { error: 'answerVariation must be a number from 0 to 1, got 1.5' },
    });
    assert.deepEqual(await post(ctx, 'options', { answerSeed: 'x' }), {
      status: 400,
      json: { error: 'answerSeed must be an integer, got "x"' },
    });
  });

  it('sends an operation again after a 429 with Retry-After, and never after one without', async () => {
    const waits: number[] = [];
    const client = new ServiceClient({
      baseUrl: ctx.service.url,
      token: () => ctx.service.adminToken,
      timeoutMs: 10_000,
      retry: { sleep: async (ms) => void waits.push(ms) },
    });
    try {
      await post(ctx, 'faults', { queue: [{ match: 'test_prompt', status: 429, retryAfter: '1' }] });
      const answer = await client.testPrompt(prompts, 1, TENANT, { prompt_text: 'hi' });
      assert.match(answer.response, /hi$/);
      assert.deepEqual(waits, [1000]);
      await post(ctx, 'faults', { queue: [{ match: 'test_prompt', status: 429 }] });
      await assert.rejects(client.testPrompt(prompts, 1, TENANT, { prompt_text: 'hi' }), { status: 429 });
      await post(ctx, 'faults', { queue: [{ match: 'test_prompt', status: 429, retryAfter: '1', count: 5 }] });
      await assert.rejects(client.testPrompt(prompts, 1, TENANT, { prompt_text: 'hi' }), { status: 429, attempts: 3 });
      assert.deepEqual(waits, [1000, 1000, 1000]);
    } finally {
      await client.close();
    }
  });
});
