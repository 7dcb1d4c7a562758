import * as assert from 'node:assert/strict';
import { request } from 'undici';
import { kindById } from '../../src/core/resources';
import { mostInFlight } from '../service/request-log';
import { startContract, type ContractContext } from './setup';

interface Logged {
  method: string;
  path: string;
  fields?: string[];
  start: number;
  end?: number;
}

describe('the request log', () => {
  let context: ContractContext;
  before(async () => {
    context = await startContract();
  });
  after(async () => {
    await context.close();
  });

  async function logged(): Promise<Logged[]> {
    return (await (await request(`${context.service.url}/__test/requests`)).body.json()) as Logged[];
  }

  it('names the fields a create or update sent, never their values', async () => {
    await request(`${context.service.url}/__test/requests`, { method: 'DELETE' });
    const prompts = kindById('prompt');
    const created = await context.admin.create(prompts, { name: 'logged', system: 'secret-looking text' }, 1);
    await context.admin.update(prompts, created.id as number, { system: 'only this' }, 1);
    await context.admin.get(prompts, created.id as number, 1);
    const entries = await logged();
    assert.deepEqual(
      entries.map((e) => [e.method, e.fields]),
      [
        ['POST', ['name', 'system']],
        ['PUT', ['system']],
        ['GET', undefined],
      ],
    );
    assert.ok(!JSON.stringify(entries).includes('only this'), 'no value is logged');
  });

  it('times each request from arrival to answer, so a test can tell how many were answered at once', async () => {
    const prompts = kindById('prompt');
    const ids = (await context.admin.list(prompts, 1)).slice(0, 3).map((p) => p.id as number);
    await request(`${context.service.url}/__test/requests`, { method: 'DELETE' });
    await context.admin.get(prompts, ids[0] as number, 1);
    await context.admin.get(prompts, ids[1] as number, 1);
    const one = await logged();
    assert.ok(
      one.every((e) => e.end !== undefined && e.end >= e.start),
      JSON.stringify(one),
    );
    assert.equal(mostInFlight(one), 1, 'one after another');
    // Answers held back a while, so three sent at once are in flight together.
    await request(`${context.service.url}/__test/faults`, {
      method: 'POST',
      body: JSON.stringify({ latencyMs: 100, queue: [] }),
      headers: { 'content-type': 'application/json' },
    });
    try {
      await request(`${context.service.url}/__test/requests`, { method: 'DELETE' });
      await Promise.all(ids.map((id) => context.admin.get(prompts, id, 1)));
      assert.equal(mostInFlight(await logged()), 3);
    } finally {
      await request(`${context.service.url}/__test/faults`, { method: 'DELETE' });
    }
  });
});
