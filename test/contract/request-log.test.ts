import * as assert from 'node:assert/strict';
import { request } from 'undici';
import { kindById } from '../../src/core/resources';
import { startContract, type ContractContext } from './setup';

interface Logged {
  method: string;
  path: string;
  fields?: string[];
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
    assert.deepEqual(entries.map((e) => [e.method, e.fields]), [['POST', ['name', 'system']], ['PUT', ['system']], ['GET', undefined]]);
    assert.ok(!JSON.stringify(entries).includes('only this'), 'no value is logged');
  });
});
