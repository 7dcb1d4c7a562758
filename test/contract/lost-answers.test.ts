// The local service's loseAnswer fault: the request is applied, then its answer is lost, so exactly-once pushes
// can be tested against what a time-out or a dropped connection does to a real service.
import * as assert from 'node:assert/strict';
import type { JsonObject } from '../../src/core/json';
import { kindById } from '../../src/core/resources';
import { raw, rejection, SAMPLES } from './fixtures';
import { startContract, type ContractContext } from './setup';

const prompts = kindById('prompt');
const TENANT = 1;

describe('contract: a fault that applies the request and loses its answer (loseAnswer)', () => {
  let context: ContractContext;
  before(async () => {
    context = await startContract();
  });
  after(async () => {
    await context.close();
  });

  const testRoute = (path: string, method: 'POST' | 'GET', body?: JsonObject) =>
    raw(`${context.service.url}/__test/${path}`, method, context.service.adminToken, body && JSON.stringify(body));
  const loseAnswers = async (...queue: JsonObject[]): Promise<void> => {
    assert.equal((await testRoute('faults', 'POST', { queue })).status, 200);
  };
  const named = async (name: string): Promise<JsonObject[]> => (await context.admin.list(prompts, TENANT)).filter((p) => p.name === name);
  const created = async (name: string): Promise<number> => (await context.admin.create(prompts, { ...SAMPLES.prompt.create, name }, TENANT)).id as number;

  it('creates on a lost POST: the client meets a network error, the listing holds the prompt once', async () => {
    await loseAnswers({ match: 'POST /api/v1/ai_prompts', loseAnswer: true });
    const error = await rejection(context.admin.create(prompts, { ...SAMPLES.prompt.create, name: 'Lost create' }, TENANT));
    assert.equal(error.kind, 'network', error.message);
    assert.equal((await named('Lost create')).length, 1);
    const log = (await testRoute('requests', 'GET')).json as { method: string; path: string; fields?: string[] }[];
    assert.deepEqual(log.filter((e) => e.method === 'POST' && e.path === '/api/v1/ai_prompts').map((e) => e.fields?.includes('name')), [true],
      'logged once, with the fields it sent');
  });

  it('deletes on a lost DELETE', async () => {
    const id = await created('Lost delete');
    await loseAnswers({ match: `DELETE /api/v1/ai_prompts/${id}`, loseAnswer: true });
    assert.equal((await rejection(context.admin.delete(prompts, id, TENANT))).kind, 'network');
    assert.equal((await rejection(context.admin.get(prompts, id, TENANT))).status, 404);
  });

  it('keeps the change of a lost PUT', async () => {
    const id = await created('Lost update');
    await loseAnswers({ match: `PUT /api/v1/ai_prompts/${id}`, loseAnswer: true });
    assert.equal((await rejection(context.admin.update(prompts, id, { description: 'held' }, TENANT))).kind, 'network');
    assert.equal((await context.admin.get(prompts, id, TENANT)).description, 'held');
  });

  it('loses as many answers as its count, then answers again', async () => {
    const id = await created('Lost twice');
    await loseAnswers({ match: `PUT /api/v1/ai_prompts/${id}`, loseAnswer: true, count: 2 });
    for (const description of ['first', 'second']) {
      assert.equal((await rejection(context.admin.update(prompts, id, { description }, TENANT))).kind, 'network');
      assert.equal((await context.admin.get(prompts, id, TENANT)).description, description);
    }
    assert.equal((await context.admin.update(prompts, id, { description: 'answered' }, TENANT)).description, 'answered');
  });

  it('refuses a loseAnswer that is not a boolean or that an answer of its own contradicts (400)', async () => {
    for (const [fault, message] of [
      [{ loseAnswer: 'yes' }, 'queue[0].loseAnswer must be true or false'],
      [{ loseAnswer: true, status: 503 }, 'queue[0].loseAnswer cannot be combined with status'],
      [{ loseAnswer: true, drop: true, stallBodyMs: 10 }, 'queue[0].loseAnswer cannot be combined with drop, stallBodyMs'],
    ] as const) {
      assert.deepEqual(await testRoute('faults', 'POST', { queue: [fault] }), { status: 400, json: { error: message } });
    }
    assert.deepEqual((await testRoute('faults', 'POST', {})).json, { latencyMs: 0, pending: 0 }, 'nothing was queued');
  });
});
