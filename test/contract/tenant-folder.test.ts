// The core's pull, plan and push against the local service over loopback, on a folder in memory.
import * as assert from 'node:assert/strict';
import { request } from 'undici';
import type { JsonObject } from '../../src/core/json';
import { kindById } from '../../src/core/resources';
import { MemoryFolder } from '../../src/core/tenant/memory-folder';
import { readManifest } from '../../src/core/tenant/manifest';
import { planPush } from '../../src/core/tenant/plan';
import { pullTenant } from '../../src/core/tenant/pull';
import { push } from '../../src/core/tenant/push';
import { PushRefused } from '../../src/core/tenant/push-refused';
import { KEPT_ON_SERVICE } from '../../src/core/tenant/folder-values';
import { startContract, type ContractContext } from './setup';

const prompts = kindById('prompt');

function json(io: MemoryFolder, file: string): JsonObject {
  return JSON.parse(io.files.get(file) ?? 'null') as JsonObject;
}

function edit(io: MemoryFolder, file: string, change: JsonObject): void {
  io.files.set(file, `${JSON.stringify({ ...json(io, file), ...change }, null, 2)}\n`);
}

describe('tenant folders against the service', () => {
  let context: ContractContext;
  let tenantId = 0;
  let io: MemoryFolder;

  async function faults(...queue: JsonObject[]): Promise<void> {
    await (
      await request(`${context.service.url}/__test/faults`, {
        method: 'POST',
        body: JSON.stringify({ queue }),
        headers: { 'content-type': 'application/json' },
      })
    ).body.text();
  }

  beforeEach(async () => {
    context = await startContract();
    tenantId = (await context.admin.create(kindById('tenant'), { name: 'Contract Folder', email: 'a@b.example' }))
      .id as number;
    const integration = await context.admin.create(
      kindById('integration'),
      { name: 'CRM', system: 's', technical_id: 't', tec_params: { api_key: 'crm-secret', model: 'a' } },
      tenantId,
    );
    await context.admin.create(prompts, { name: 'Alpha', system: 'alpha text' }, tenantId);
    await context.admin.create(prompts, { name: 'Beta', description: 'b' }, tenantId);
    await context.admin.create(
      kindById('action'),
      { name: 'Call CRM', action_type: 3, integration_id: integration.id as number },
      tenantId,
    );
    io = new MemoryFolder();
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
    assert.deepEqual(
      plan.changes.map((c) => [c.action, c.file, c.values]),
      [['update', 'ai_prompts/alpha.json', [{ field: 'description', old: 'theirs', new: 'mine' }]]],
      "the kept file against the service's state: the pull resolved the conflict, the plan shows what the push overwrites",
    );
  });

  it("refuses another tenant's pull into the folder", async () => {
    await assert.rejects(
      pullTenant(context.admin, io, { connection: 'local', baseUrl: context.service.url, tenantId: 1 }),
      /holds tenant \d+ .* into another folder/,
    );
  });

  it('continues a push that stopped midway instead of repeating what was applied', async () => {
    edit(io, 'ai_prompts/alpha.json', { description: 'one' });
    edit(io, 'ai_prompts/beta.json', { description: 'two' });
    const beta = json(io, 'ai_prompts/beta.json').id as number;
    await faults({ match: `PUT /api/v1/ai_prompts/${beta}`, status: 500 });
    await assert.rejects(push(context.admin, io, await planPush(context.admin, io)), /500/);
    const remaining = await planPush(context.admin, io);
    assert.deepEqual(
      remaining.changes.map((c) => [c.action, c.file]),
      [['update', 'ai_prompts/beta.json']],
      'the first update is recorded as applied',
    );
    const result = await push(context.admin, io, remaining);
    assert.deepEqual(
      result.applied.map((c) => c.file),
      ['ai_prompts/beta.json'],
    );
    assert.deepEqual((await planPush(context.admin, io)).changes, []);
  });

  it('reports a field the service did not take, naming the resource and field', async () => {
    edit(io, 'ai_prompts/alpha.json', { description: 'ignored' });
    const alpha = json(io, 'ai_prompts/alpha.json').id as number;
    // An answer without the update applied: what a service that drops a field looks like.
    await faults({ match: `PUT /api/v1/ai_prompts/${alpha}`, status: 200, body: '{}' });
    const result = await push(context.admin, io, await planPush(context.admin, io));
    assert.deepEqual(
      result.notTaken.map((m) => [m.file, m.field, m.sent, m.holds]),
      [['ai_prompts/alpha.json', 'description', 'ignored', null]],
    );
    assert.equal(
      json(io, 'ai_prompts/alpha.json').description,
      'ignored',
      "the folder keeps the user's value, never the service's silently",
    );
    const again = await planPush(context.admin, io);
    assert.deepEqual(
      again.changes.map((c) => [c.action, c.file, c.fields]),
      [['update', 'ai_prompts/alpha.json', ['description']]],
      'the next plan shows it again',
    );
  });

  it('creates what names a new file after it, and writes the new ids into the folder', async () => {
    io.files.set('ai_prompts/gamma.json', JSON.stringify({ name: 'Gamma', next_prompt_id: 'ai_prompts/delta.json' }));
    io.files.set('ai_prompts/delta.json', JSON.stringify({ name: 'Delta' }));
    io.files.set(
      'intents/gamma.json',
      JSON.stringify({ name: 'gamma', intent_type: 1, ai_prompt_id: 'ai_prompts/gamma.json' }),
    );
    const plan = await planPush(context.admin, io);
    assert.deepEqual(
      plan.changes.map((c) => c.file),
      ['ai_prompts/delta.json', 'ai_prompts/gamma.json', 'intents/gamma.json'],
    );
    await push(context.admin, io, plan);
    const delta = json(io, 'ai_prompts/delta.json').id;
    const gamma = json(io, 'ai_prompts/gamma.json');
    assert.equal(typeof delta, 'number');
    assert.equal(gamma.next_prompt_id, delta);
    assert.equal(json(io, 'intents/gamma.json').ai_prompt_id, gamma.id);
    assert.equal((await context.admin.get(prompts, gamma.id as number, tenantId)).next_prompt_id, delta);
    assert.equal((await readManifest(io))?.resources.length, 8, 'tenant, integration, 4 prompts, action, intent');
  });

  it("sends the service's own credential where the folder keeps it, and never the marker", async () => {
    const file = 'integrations/crm.json';
    assert.deepEqual(json(io, file).tec_params, { api_key: KEPT_ON_SERVICE, model: 'a' });
    edit(io, file, { tec_params: { api_key: KEPT_ON_SERVICE, model: 'b' } });
    await push(context.admin, io, await planPush(context.admin, io));
    const held = await context.admin.get(kindById('integration'), json(io, file).id as number, tenantId);
    assert.deepEqual(held.tec_params, { api_key: 'crm-secret', model: 'b' });
  });

  it('refuses to push while the plan holds a conflict, naming it', async () => {
    edit(io, 'ai_prompts/beta.json', { description: 'mine' });
    await context.admin.update(
      prompts,
      json(io, 'ai_prompts/beta.json').id as number,
      { name: 'Beta renamed' },
      tenantId,
    );
    const plan = await planPush(context.admin, io);
    await assert.rejects(
      push(context.admin, io, plan),
      (error: unknown) =>
        error instanceof PushRefused &&
        /ai_prompts\/beta\.json: changed on the service since the pull \(name\)/.test(error.message),
    );
  });

  it('names values the service would refuse before sending anything', async () => {
    edit(io, 'ai_prompts/beta.json', { mode: 7 });
    io.files.set('intents/new.json', JSON.stringify({ display_name: 'No name' }));
    const plan = await planPush(context.admin, io);
    assert.match(plan.problems.join('\n'), /ai_prompts\/beta\.json:\d+:\d+: mode: must be one of 1 \(Activated\)/);
    assert.match(plan.problems.join('\n'), /intents\/new\.json:1:1: name: required/);
    await assert.rejects(push(context.admin, io, plan), /Nothing was sent/);
  });

  async function promptsNamed(name: string): Promise<JsonObject[]> {
    return (await context.admin.list(prompts, tenantId)).filter((p) => p.name === name);
  }

  it('creates once when the answer to a create was lost: the next plan adopts what the service made', async () => {
    io.files.set('ai_prompts/gamma.json', JSON.stringify({ name: 'Gamma', description: 'g' }));
    await faults({ match: 'POST /api/v1/ai_prompts', loseAnswer: true });
    await assert.rejects(push(context.admin, io, await planPush(context.admin, io)));
    assert.equal((await promptsNamed('Gamma')).length, 1, 'the service applied the create');
    assert.deepEqual(
      (await readManifest(io))?.pending,
      [{ segment: 'ai_prompts', file: 'ai_prompts/gamma.json', name: 'Gamma' }],
      'recorded as under way',
    );
    const plan = await planPush(context.admin, io);
    assert.match(plan.notes.join('\n'), /ai_prompts\/gamma\.json: adopted AI Prompt "Gamma" \(id \d+\)/);
    assert.deepEqual(plan.changes, [], 'nothing left to send');
    const [gamma] = await promptsNamed('Gamma');
    assert.equal(json(io, 'ai_prompts/gamma.json').id, gamma?.id, 'the file now has the id');
    assert.equal(json(io, 'ai_prompts/gamma.json').description, 'g');
    await push(context.admin, io, plan);
    assert.equal((await promptsNamed('Gamma')).length, 1, 'a second push creates nothing');
    assert.equal((await readManifest(io))?.pending, undefined);
  });

  it('creates when the lost create never reached the service, and only then', async () => {
    io.files.set('ai_prompts/gamma.json', JSON.stringify({ name: 'Gamma' }));
    await faults({ match: 'POST /api/v1/ai_prompts', drop: true });
    await assert.rejects(push(context.admin, io, await planPush(context.admin, io)));
    assert.equal((await promptsNamed('Gamma')).length, 0);
    const plan = await planPush(context.admin, io);
    assert.deepEqual(
      plan.changes.map((c) => [c.action, c.file]),
      [['create', 'ai_prompts/gamma.json']],
    );
    await push(context.admin, io, plan);
    assert.equal((await promptsNamed('Gamma')).length, 1);
  });

  it('settles a delete whose answer was lost: already gone is done, and it leaves the manifest', async () => {
    const beta = json(io, 'ai_prompts/beta.json').id as number;
    io.files.delete('ai_prompts/beta.json');
    await faults({ match: `DELETE /api/v1/ai_prompts/${beta}`, loseAnswer: true });
    await assert.rejects(push(context.admin, io, await planPush(context.admin, io)));
    const plan = await planPush(context.admin, io);
    assert.deepEqual(plan.changes, []);
    assert.match(plan.notes.join('\n'), /ai_prompts\/beta\.json: already deleted on the service/);
    assert.ok(!(await readManifest(io))?.resources.some((r) => r.id === beta));
  });

  it('checks each update against the service right before its write: a change made during the push stops it there', async () => {
    edit(io, 'ai_prompts/alpha.json', { description: 'one' });
    edit(io, 'ai_prompts/beta.json', { description: 'two' });
    const beta = json(io, 'ai_prompts/beta.json').id as number;
    const plan = await planPush(context.admin, io);
    assert.deepEqual(
      plan.changes.map((c) => c.file),
      ['ai_prompts/alpha.json', 'ai_prompts/beta.json'],
    );
    const sent: string[] = [];
    const onProgress = (change: { file: string }): void => {
      sent.push(change.file);
    };
    // Someone edits beta on the service after the plan, while alpha is being pushed.
    await context.admin.update(prompts, beta, { description: 'theirs' }, tenantId);
    await assert.rejects(
      push(context.admin, io, plan, { onProgress }),
      (error: unknown) =>
        error instanceof PushRefused &&
        /ai_prompts\/beta\.json: .* changed \(description\) on the service while the push ran/.test(error.message),
    );
    assert.equal((await context.admin.get(prompts, beta, tenantId)).description, 'theirs', 'not overwritten');
    const next = await planPush(context.admin, io);
    assert.deepEqual(
      next.changes.map((c) => [c.action, c.file]),
      [['conflict', 'ai_prompts/beta.json']],
      'alpha was applied and recorded; beta is a conflict',
    );
  });

  it('resolves every kept credential in the plan: one the service does not hold is a problem before sending', async () => {
    edit(io, 'integrations/crm.json', {
      tec_params: { api_key: KEPT_ON_SERVICE, model: 'a', password: KEPT_ON_SERVICE },
    });
    const plan = await planPush(context.admin, io);
    assert.match(
      plan.problems.join('\n'),
      /integrations\/crm\.json:\d+:\d+: tec_params\.password: keeps \$\{kept-on-service\}, but the service holds no credential there/,
    );
    await assert.rejects(push(context.admin, io, plan), /Nothing was sent/);
  });

  it('refuses a second resource of one kind with one name, in the folder or on the service', async () => {
    io.files.set('ai_prompts/alpha-2.json', JSON.stringify({ name: 'Alpha' }));
    const local = await planPush(context.admin, io);
    assert.match(
      local.problems.join('\n'),
      /ai_prompts\/alpha(-2)?\.json:\d+:\d+: name: "Alpha" is also the name of ai_prompts\/alpha(-2)?\.json/,
    );
    io.files.delete('ai_prompts/alpha-2.json');
    await context.admin.create(prompts, { name: 'Delta' }, tenantId);
    io.files.set('ai_prompts/delta.json', JSON.stringify({ name: 'Delta' }));
    const remote = await planPush(context.admin, io);
    assert.match(
      remote.problems.join('\n'),
      /ai_prompts\/delta\.json:1:9: name: the service already holds AI Prompt "Delta" \(id \d+\), which this folder does not/,
    );
  });

  it('pulls a service that holds duplicates into files of their own, and warns', async () => {
    const twin = await context.admin.create(prompts, { name: 'Alpha', system: 'the other one' }, tenantId);
    const result = await pullTenant(context.admin, io, { connection: 'local', baseUrl: context.service.url, tenantId });
    assert.match(
      result.duplicates.join('\n'),
      new RegExp(
        `2 AI Prompts are named "Alpha" on the service \\(id \\d+ in ai_prompts/alpha\\.json, id ${String(twin.id)} in ai_prompts/alpha-${String(twin.id)}\\.json\\)`,
      ),
    );
    assert.equal(io.files.get(`ai_prompts/alpha-${String(twin.id)}.system.md`), 'the other one\n');
    assert.match((await planPush(context.admin, io)).problems.join('\n'), /name: "Alpha" is also the name of/);
  });

  it('plans a file that cannot be read as a problem at its line and column, never as a delete', async () => {
    io.files.set('ai_prompts/beta.json', '{\n  "id": 1,\n  "name": "Beta",\n}\n');
    const plan = await planPush(context.admin, io);
    assert.deepEqual(plan.changes, []);
    assert.deepEqual(plan.problems, ['ai_prompts/beta.json:3:17: not valid JSON: Trailing comma is not allowed']);
  });

  it('reads past a byte-order mark: neither sent to the service nor a reason to refuse', async () => {
    io.files.set('ai_prompts/alpha.system.md', '\ufeffnew text');
    const alpha = json(io, 'ai_prompts/alpha.json');
    io.files.set('ai_prompts/alpha.json', `\ufeff${JSON.stringify(alpha)}`);
    const plan = await planPush(context.admin, io);
    assert.deepEqual(plan.problems, []);
    assert.deepEqual(
      plan.changes.map((c) => [c.action, c.fields]),
      [['update', ['system']]],
    );
    await push(context.admin, io, plan);
    assert.equal((await context.admin.get(prompts, alpha.id as number, tenantId)).system, 'new text');
  });

  it('keeps a password inside a URL on the service; the rest of the URL stays editable', async () => {
    const integration = await context.admin.create(
      kindById('integration'),
      {
        name: 'Warehouse',
        system: 's',
        technical_id: 'w',
        url: 'https://svc:hunter2@api.example/v1',
        tec_params: { dsn: 'postgres://app:s3cret@db.internal:5432/orders' },
      },
      tenantId,
    );
    await pullTenant(context.admin, io, { connection: 'local', baseUrl: context.service.url, tenantId });
    const file = 'integrations/warehouse.json';
    assert.ok(!(io.files.get(file) ?? '').includes('hunter2') && !(io.files.get(file) ?? '').includes('s3cret'));
    assert.equal(json(io, file).url, `https://svc:${KEPT_ON_SERVICE}@api.example/v1`);
    edit(io, file, { tec_params: { dsn: `postgres://app:${KEPT_ON_SERVICE}@db.internal:5432/orders_v2` } });
    const plan = await planPush(context.admin, io);
    assert.deepEqual(
      plan.changes.map((c) => [c.action, c.fields]),
      [['update', ['tec_params']]],
    );
    assert.ok(!JSON.stringify(plan.changes).includes('s3cret'));
    await push(context.admin, io, plan);
    const held = await context.admin.get(kindById('integration'), integration.id as number, tenantId);
    assert.deepEqual(held.tec_params, { dsn: 'postgres://app:s3cret@db.internal:5432/orders_v2' });
    assert.equal(held.url, 'https://svc:hunter2@api.example/v1');
    assert.deepEqual((await planPush(context.admin, io)).changes, [], 'lossless round trip');
    // A kept password goes back only to the host it belongs to: a pull request cannot send it elsewhere.
    edit(io, file, { url: `https://svc:${KEPT_ON_SERVICE}@attacker.example/v1` });
    assert.match(
      (await planPush(context.admin, io)).problems.join('\n'),
      /integrations\/warehouse\.json:\d+:\d+: url: keeps \$\{kept-on-service\}, but the service holds no credential there/,
    );
  });
});
