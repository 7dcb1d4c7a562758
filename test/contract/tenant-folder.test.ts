// The core's pull, plan and push against the local service over loopback, on a folder in memory.
import * as assert from 'node:assert/strict';
import { request } from 'undici';
import type { JsonObject } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import { memoryFolder } from '../../src/core/tenant/folder-io';
import { readManifest } from '../../src/core/tenant/manifest';
import { planPush } from '../../src/core/tenant/plan';
import { pullTenant } from '../../src/core/tenant/pull';
import { push, PushRefused } from '../../src/core/tenant/push';
import { KEPT_ON_SERVICE } from '../../src/core/tenant/representation';
import { startContract, type ContractContext } from './setup';

const prompts = kindById('prompt');

function json(io: ReturnType<typeof memoryFolder>, file: string): JsonObject {
  return JSON.parse(io.files.get(file) ?? 'null') as JsonObject;
}

function edit(io: ReturnType<typeof memoryFolder>, file: string, change: JsonObject): void {
  io.files.set(file, `${JSON.stringify({ ...json(io, file), ...change }, null, 2)}\n`);
}

describe('tenant folders against the service', () => {
  let context: ContractContext;
  let tenantId = 0;
  let io: ReturnType<typeof memoryFolder>;

  async function faults(...queue: JsonObject[]): Promise<void> {
    await (await request(`${context.service.url}/__test/faults`, { method: 'POST', body: JSON.stringify({ queue }), headers: { 'content-type': 'application/json' } })).body.text();
  }

  beforeEach(async () => {
    context = await startContract();
    tenantId = (await context.admin.create(kindById('tenant'), { name: 'Contract Folder', email: 'a@b.example' })).id as number;
    const integration = await context.admin.create(kindById('integration'), { name: 'CRM', system: 's', technical_id: 't', tec_params: { api_key: 'crm-secret', model: 'a' } }, tenantId);
    await context.admin.create(prompts, { name: 'Alpha', system: 'alpha text' }, tenantId);
    await context.admin.create(prompts, { name: 'Beta', description: 'b' }, tenantId);
    await context.admin.create(kindById('action'), { name: 'Call CRM', action_type: 3, integration_id: integration.id as number }, tenantId);
    io = memoryFolder();
    await pullTenant(context.admin, io, { connection: 'local', baseUrl: context.service.url, tenantId });
  });
  afterEach(async () => {
    await context.close();
  });

  it('pulls again: updates untouched files, keeps changed ones, removes what the service deleted', async () => {
    const alpha = json(io, 'ai_prompts/alpha.json');
    const beta = json(io, 'ai_prompts/beta.json');
    edit(io, 'ai_prompts/alpha.json', { description: 'mine' });
    await context.admin.update(prompts, alpha.id as number, { description: 'theirs' }, tenantId);
    await context.admin.update(prompts, beta.id as number, { description: 'service b2' }, tenantId);
    await context.admin.delete(kindById('action'), json(io, 'ai_actions/call-crm.json').id as number, tenantId);
    const result = await pullTenant(context.admin, io, { connection: 'local', baseUrl: context.service.url, tenantId });
    assert.deepEqual(result.keptLocalChanges, ['ai_prompts/alpha.json']);
    assert.deepEqual(result.removed, ['ai_actions/call-crm.json']);
    assert.equal(json(io, 'ai_prompts/alpha.json').description, 'mine', 'the local change is kept');
    assert.equal(json(io, 'ai_prompts/beta.json').description, 'service b2', 'the untouched file follows the service');
    const plan = await planPush(context.admin, io);
    assert.deepEqual(plan.changes.map((c) => [c.action, c.file, c.values]), [['update', 'ai_prompts/alpha.json', [{ field: 'description', old: 'theirs', new: 'mine' }]]],
      'the kept file against the service\'s state: the pull resolved the conflict, the plan shows what the push overwrites');
  });

  it('refuses another tenant\'s pull into the folder', async () => {
    await assert.rejects(pullTenant(context.admin, io, { connection: 'local', baseUrl: context.service.url, tenantId: 1 }), /holds tenant \d+ .* into another folder/);
  });

  it('continues a push that stopped midway instead of repeating what was applied', async () => {
    edit(io, 'ai_prompts/alpha.json', { description: 'one' });
    edit(io, 'ai_prompts/beta.json', { description: 'two' });
    const beta = json(io, 'ai_prompts/beta.json').id as number;
    await faults({ match: `PUT /api/v1/ai_prompts/${beta}`, status: 500 });
    await assert.rejects(push(context.admin, io, await planPush(context.admin, io)), /500/);
    const remaining = await planPush(context.admin, io);
    assert.deepEqual(remaining.changes.map((c) => [c.action, c.file]), [['update', 'ai_prompts/beta.json']], 'the first update is recorded as applied');
    const result = await push(context.admin, io, remaining);
    assert.deepEqual(result.applied.map((c) => c.file), ['ai_prompts/beta.json']);
    assert.deepEqual((await planPush(context.admin, io)).changes, []);
  });

  it('reports a field the service did not take, naming the resource and field', async () => {
    edit(io, 'ai_prompts/alpha.json', { description: 'ignored' });
    const alpha = json(io, 'ai_prompts/alpha.json').id as number;
    // An answer without the update applied: what a service that drops a field looks like.
    await faults({ match: `PUT /api/v1/ai_prompts/${alpha}`, status: 200, body: '{}' });
    const result = await push(context.admin, io, await planPush(context.admin, io));
    assert.deepEqual(result.notTaken.map((m) => [m.file, m.field, m.sent, m.holds]), [['ai_prompts/alpha.json', 'description', 'ignored', null]]);
    assert.equal(json(io, 'ai_prompts/alpha.json').description, null, 'the folder shows what the service holds');
  });

  it('creates what names a new file after it, and writes the new ids into the folder', async () => {
    io.files.set('ai_prompts/gamma.json', JSON.stringify({ name: 'Gamma', next_prompt_id: 'ai_prompts/delta.json' }));
    io.files.set('ai_prompts/delta.json', JSON.stringify({ name: 'Delta' }));
    io.files.set('intents/gamma.json', JSON.stringify({ name: 'gamma', intent_type: 1, ai_prompt_id: 'ai_prompts/gamma.json' }));
    const plan = await planPush(context.admin, io);
    assert.deepEqual(plan.changes.map((c) => c.file), ['ai_prompts/delta.json', 'ai_prompts/gamma.json', 'intents/gamma.json']);
    await push(context.admin, io, plan);
    const delta = json(io, 'ai_prompts/delta.json').id;
    const gamma = json(io, 'ai_prompts/gamma.json');
    assert.equal(typeof delta, 'number');
    assert.equal(gamma.next_prompt_id, delta);
    assert.equal(json(io, 'intents/gamma.json').ai_prompt_id, gamma.id);
    assert.equal((await context.admin.get(prompts, gamma.id as number, tenantId)).next_prompt_id, delta);
    assert.equal((await readManifest(io))?.resources.length, 8, 'tenant, integration, 4 prompts, action, intent');
  });

  it('sends the service\'s own credential where the folder keeps it, and never the marker', async () => {
    const file = 'integrations/crm.json';
    assert.deepEqual(json(io, file).tec_params, { api_key: KEPT_ON_SERVICE, model: 'a' });
    edit(io, file, { tec_params: { api_key: KEPT_ON_SERVICE, model: 'b' } });
    await push(context.admin, io, await planPush(context.admin, io));
    const held = await context.admin.get(kindById('integration'), json(io, file).id as number, tenantId);
    assert.deepEqual(held.tec_params, { api_key: 'crm-secret', model: 'b' });
  });

  it('refuses to push while the plan holds a conflict, naming it', async () => {
    edit(io, 'ai_prompts/beta.json', { description: 'mine' });
    await context.admin.update(prompts, json(io, 'ai_prompts/beta.json').id as number, { name: 'Beta renamed' }, tenantId);
    const plan = await planPush(context.admin, io);
    await assert.rejects(push(context.admin, io, plan), (error: unknown) => error instanceof PushRefused && /ai_prompts\/beta\.json: changed on the service since the pull \(name\)/.test(error.message));
  });

  it('names values the service would refuse before sending anything', async () => {
    edit(io, 'ai_prompts/beta.json', { mode: 7 });
    io.files.set('intents/new.json', JSON.stringify({ display_name: 'No name' }));
    const plan = await planPush(context.admin, io);
    assert.match(plan.problems.join('\n'), /ai_prompts\/beta\.json: mode: must be one of 1 \(Activated\)/);
    assert.match(plan.problems.join('\n'), /intents\/new\.json: name: required/);
    await assert.rejects(push(context.admin, io, plan), /Nothing was sent/);
  });
});
