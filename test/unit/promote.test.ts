import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/core/client';
import type { JsonObject } from '../../src/core/json';
import { kindById, kindOfSegment } from '../../src/core/resources';
import type { TenantSegment } from '../../src/core/resource-kind';
import { MemoryFolder } from '../../src/core/tenant/memory-folder';
import { type PulledResource } from '../../src/core/tenant/manifest';
import { writeManifest } from '../../src/core/tenant/manifest-writer';
import { resourceBase } from '../../src/core/tenant/resource-paths';
import { localPlan } from '../../src/core/tenant/plan';
import { planPromotion, previewPromotion, promote, pullIntoMemory } from '../../src/core/tenant/promote';
import { writeResource } from '../../src/core/tenant/representation';
import { push } from '../../src/core/tenant/push';
import { PushRefused } from '../../src/core/tenant/push-refused';
import { fieldHashes } from '../../src/core/tenant/field-fingerprints';
import { folderValues, KEPT_ON_SERVICE } from '../../src/core/tenant/folder-values';
import { startService, type RunningService } from '../service/server';

type Detail = JsonObject & { id: number; name: string };

/** A folder as a pull leaves it, from details given here instead of fetched. */
async function pulledFolder(
  connection: string,
  tenantId: number,
  resources: Array<[TenantSegment, Detail]>,
): Promise<MemoryFolder> {
  const folder = new MemoryFolder();
  const taken = new Set<string>();
  const entries: PulledResource[] = [];
  const all: Array<['tenants' | TenantSegment, Detail]> = [
    ['tenants', { id: tenantId, name: `Tenant on ${connection}` }],
    ...resources,
  ];
  for (const [segment, detail] of all) {
    const kind = kindOfSegment(segment);
    const base = resourceBase(segment, detail.id, detail.name, undefined, taken);
    taken.add(base);
    const values = folderValues(kind, detail);
    await writeResource(folder, kind, detail.id, values, base);
    entries.push({ segment, id: detail.id, file: `${base}.json`, name: detail.name, fields: fieldHashes(values) });
  }
  await writeManifest(folder, { connection, baseUrl: `https://${connection}.example`, tenantId, resources: entries });
  return folder;
}

function json(folder: MemoryFolder, file: string): JsonObject {
  const text = folder.files.get(file);
  assert.ok(text !== undefined, `${file} is in the folder`);
  return JSON.parse(text) as JsonObject;
}

const prompt = (id: number, name: string, fields: JsonObject = {}): [TenantSegment, Detail] => [
  'ai_prompts',
  { id, name, system: `${name} system`, next_prompt_id: null, ...fields },
];
const integration = (
  id: number,
  name: string,
  tec_params: JsonObject,
  url = 'https://api.example',
): [TenantSegment, Detail] => ['integrations', { id, name, system: 'http_api', technical_id: name, url, tec_params }];

/** Never asked: a plan of creates alone sends no request. */
const unreachable = new ServiceClient({ baseUrl: 'http://127.0.0.1:9', token: () => undefined });

/** A plan asks the target's service whether a new resource's name is taken there: the sample data's tenant 2 answers. */
async function withService<T>(work: (client: ServiceClient) => Promise<T>): Promise<T> {
  const service = await startService({ adminToken: 'promote-plan-token' });
  const client = new ServiceClient({ baseUrl: service.url, token: () => service.adminToken });
  try {
    return await work(client);
  } finally {
    await client.close();
    await service.close();
  }
}

describe('promote', () => {
  it("gives the resource of the same kind and name the source's values, keeping the target's id and file", async () => {
    const source = await pulledFolder('staging', 1, [prompt(11, 'Greeting', { system: 'Say hello warmly.' })]);
    const target = await pulledFolder('production', 2, [prompt(21, 'Greeting', { system: 'Say hello.' })]);
    const promotion = await promote(source, target);
    assert.deepEqual(promotion.problems, []);
    assert.deepEqual(
      promotion.resources.map((r) => [r.action, r.file]),
      [['update', 'ai_prompts/greeting.json']],
    );
    assert.equal(json(target, 'ai_prompts/greeting.json').id, 21);
    assert.equal(target.files.get('ai_prompts/greeting.system.md'), 'Say hello warmly.\n');
    const { changes } = await localPlan(target);
    assert.deepEqual(
      changes.map((c) => [c.action, c.file, c.fields]),
      [['update', 'ai_prompts/greeting.json', ['system']]],
    );
  });

  it('creates what the target lacks as a new file without an id', async () => {
    const source = await pulledFolder('staging', 1, [
      ['ai_functions', { id: 5, name: 'lookup', description: 'Finds things', parameters: { type: 'object' } }],
    ]);
    const target = await pulledFolder('production', 2, [
      ['ai_functions', { id: 7, name: 'other', description: 'x', parameters: {} }],
    ]);
    const promotion = await promote(source, target);
    assert.deepEqual(
      promotion.resources.map((r) => [r.action, r.file]),
      [['create', 'ai_functions/lookup.json']],
    );
    assert.deepEqual(json(target, 'ai_functions/lookup.json'), {
      name: 'lookup',
      description: 'Finds things',
      parameters: { type: 'object' },
    });
    assert.deepEqual(
      (await localPlan(target)).changes.map((c) => [c.action, c.file]),
      [['create', 'ai_functions/lookup.json']],
    );
  });

  it('matches by kind as well as name, and numbers a new file whose name is taken', async () => {
    const source = await pulledFolder('staging', 1, [
      ['intents', { id: 3, name: 'orders', intent_type: 1 }],
      prompt(4, 'orders'),
    ]);
    const target = await pulledFolder('production', 2, [
      ['intents', { id: 30, name: 'orders', intent_type: 2 }],
      prompt(31, 'Orders!'),
    ]);
    const promotion = await promote(source, target);
    assert.deepEqual(
      promotion.resources.map((r) => [r.segment, r.action, r.file]),
      [
        ['ai_prompts', 'create', 'ai_prompts/orders-2.json'],
        ['intents', 'update', 'intents/orders.json'],
      ],
    );
  });

  it("names a new file so the target's plan reads it as the resource: a README's, a device's, one taken but for its case", async () => {
    const source = await pulledFolder('staging', 1, [
      prompt(4, 'README Guide'),
      prompt(5, 'Con'),
      prompt(6, 'Greeting'),
      ['datasources', { id: 7, name: 'Readme', type: 'text', content: 'c' }],
    ]);
    const target = await pulledFolder('production', 2, []);
    target.files.set('ai_prompts/Greeting.json', JSON.stringify({ name: 'Hello' }));
    const promotion = await promote(source, target);
    assert.deepEqual(
      promotion.resources.map((r) => [r.action, r.file]),
      [
        ['create', 'ai_prompts/4-readme-guide.json'],
        ['create', 'ai_prompts/con-5.json'],
        ['create', 'ai_prompts/greeting-2.json'],
        ['create', 'datasources/7-readme.json'],
      ],
    );
    const planned = await localPlan(target);
    assert.deepEqual(planned.problems, []);
    assert.deepEqual(planned.changes.map((c) => c.file).sort(), [
      'ai_prompts/4-readme-guide.json',
      'ai_prompts/Greeting.json',
      'ai_prompts/con-5.json',
      'ai_prompts/greeting-2.json',
      'datasources/7-readme.json',
    ]);
  });

  it('carries references over by the name of what they point at', async () => {
    const source = await pulledFolder('staging', 1, [
      prompt(11, 'Greeting'),
      ['intents', { id: 12, name: 'hello', intent_type: 1, ai_prompt_id: 11, parent_id: null }],
    ]);
    const target = await pulledFolder('production', 2, [
      prompt(21, 'Greeting'),
      ['intents', { id: 22, name: 'hello', intent_type: 1, ai_prompt_id: null, parent_id: null }],
    ]);
    const promotion = await promote(source, target, [{ segment: 'intents', name: 'hello' }]);
    assert.deepEqual(promotion.problems, []);
    assert.equal(json(target, 'intents/hello.json').ai_prompt_id, 21);
  });

  it("keeps the target's own read-only references, and gives a new resource none of the source's", async () => {
    const intent = (id: number, name: string, actions: number[]): [TenantSegment, Detail] => [
      'intents',
      {
        id,
        name,
        intent_type: 1,
        speak: `${name} on ${id}`,
        ai_actions: actions.map((a) => ({ id: a, name: `action ${a}`, action_type: 2 })),
      },
    ];
    const source = await pulledFolder('staging', 1, [intent(12, 'hello', [5]), intent(13, 'fresh', [6])]);
    const target = await pulledFolder('production', 2, [intent(22, 'hello', [50])]);
    const promotion = await promote(source, target);
    assert.deepEqual(promotion.problems, []);
    assert.deepEqual(json(target, 'intents/hello.json').readOnly, {
      ai_actions: [{ id: 50, name: 'action 50', action_type: 2 }],
    });
    assert.ok(!('readOnly' in json(target, 'intents/fresh.json')));
    const plan = await localPlan(target);
    assert.deepEqual(
      [plan.changes.map((c) => [c.action, c.file, c.fields]), plan.problems],
      [
        [
          ['create', 'intents/fresh.json', ['name', 'intent_type', 'speak']],
          ['update', 'intents/hello.json', ['speak']],
        ],
        [],
      ],
    );
  });

  it('points a reference at the file of a resource the same promotion creates', async () => {
    const source = await pulledFolder('staging', 1, [
      prompt(11, 'First', { next_prompt_id: 12, exit_prompt_id: 12 }),
      prompt(12, 'Second'),
    ]);
    const target = await pulledFolder('production', 2, []);
    const promotion = await promote(source, target);
    assert.deepEqual(promotion.problems, []);
    const first = json(target, 'ai_prompts/first.json');
    assert.equal(first.next_prompt_id, 'ai_prompts/second.json');
    assert.equal(first.exit_prompt_id, 'ai_prompts/second.json');
    assert.deepEqual((await localPlan(target)).problems, []);
  });

  it('refuses a reference to what the target lacks and the promotion leaves out, naming both', async () => {
    const source = await pulledFolder('staging', 1, [
      prompt(11, 'First', { next_prompt_id: 12 }),
      prompt(12, 'Second'),
    ]);
    const target = await pulledFolder('production', 2, []);
    const { problems } = await promote(source, target, [{ segment: 'ai_prompts', name: 'First' }]);
    assert.equal(problems.length, 1);
    assert.match(
      problems[0] ?? '',
      /^AI Prompt "First": next_prompt_id names AI Prompt "Second", which tenant 2 on production does not have; promote it too/,
    );
  });

  it('refuses a name that two resources of the target share, since either could be meant', async () => {
    const source = await pulledFolder('staging', 1, [prompt(11, 'Greeting')]);
    const target = await pulledFolder('production', 2, [prompt(21, 'Greeting'), prompt(22, 'Greeting')]);
    const { problems } = await promote(source, target);
    assert.match(
      problems.join('\n'),
      /AI Prompt "Greeting": tenant 2 on production has 2 of that name, so it is unclear which to update; rename all but one there first/,
    );
  });

  it('promotes only the resources named, and says which it cannot find', async () => {
    const source = await pulledFolder('staging', 1, [prompt(11, 'Greeting'), prompt(12, 'Farewell')]);
    const target = await pulledFolder('production', 2, []);
    const promotion = await promote(source, target, [
      { segment: 'ai_prompts', name: 'Farewell' },
      { segment: 'ai_functions', name: 'Greeting' },
    ]);
    assert.deepEqual(
      promotion.resources.map((r) => r.name),
      ['Farewell'],
    );
    assert.deepEqual(promotion.problems, [
      'tenant 1 on staging has no AI Function "Greeting"; name a resource it holds.',
    ]);
    assert.equal(target.files.has('ai_prompts/greeting.json'), false);
  });

  it("keeps the target's own credential for a promoted integration", async () => {
    const source = await pulledFolder('staging', 1, [
      integration(11, 'CRM', { api_key: 'staging-key', region: 'eu' }, 'https://crm.staging.example'),
    ]);
    const target = await pulledFolder('production', 2, [
      integration(21, 'CRM', { api_key: 'production-key', region: 'us' }),
    ]);
    const promotion = await promote(source, target);
    assert.deepEqual(promotion.problems, []);
    const file = JSON.stringify(json(target, 'integrations/crm.json'));
    assert.ok(!file.includes('staging-key') && !file.includes('production-key'), 'no credential is in the folder');
    assert.deepEqual(json(target, 'integrations/crm.json').tec_params, { api_key: KEPT_ON_SERVICE, region: 'eu' });
  });

  it('refuses to promote a credential the target holds none of', async () => {
    const source = await pulledFolder('staging', 1, [integration(11, 'CRM', { api_key: 'staging-key' })]);
    const target = await pulledFolder('production', 2, [integration(21, 'CRM', { region: 'us' })]);
    const { problems } = await promote(source, target);
    assert.deepEqual(problems, [
      'Integration "CRM": tec_params.api_key is a credential, which is never copied between tenants, and tenant 2 on production holds none there to keep; set it on tenant 2 on production first, or leave Integration "CRM" out.',
    ]);
  });

  it("refuses to create an integration with credentials, in a promotion's words only", async () => {
    const source = await pulledFolder('staging', 1, [integration(11, 'CRM', { api_key: 'staging-key' })]);
    const target = await pulledFolder('production', 2, []);
    const { plan } = await withService((client) => planPromotion(client, source, target));
    assert.deepEqual(plan.problems, [
      'Integration "CRM" is new to tenant 2 on production and holds credentials (tec_params.api_key), which are never copied between tenants; create it on tenant 2 on production with its own credentials first (a promotion then updates it and keeps them), or leave it out.',
    ]);
    await assert.rejects(push(unreachable, new MemoryFolder(), plan), PushRefused);
  });

  it('leaves the pulled target as it was, for the next promotion and for diffs', async () => {
    const source = await pulledFolder('staging', 1, [prompt(11, 'Greeting')]);
    const target = await pulledFolder('production', 2, []);
    const before = new Map(target.files);
    const { folder } = await withService((client) => planPromotion(client, source, target));
    assert.deepEqual(target.files, before);
    assert.ok(folder.files.has('ai_prompts/greeting.json'));
  });

  it('previews what promoting changes in the target, from the files alone', async () => {
    const source = await pulledFolder('staging', 1, [
      prompt(11, 'Greeting', { system: 'Say hello warmly.' }),
      integration(12, 'CRM', { api_key: 'staging-key' }),
    ]);
    const target = await pulledFolder('production', 2, [prompt(21, 'Greeting')]);
    const { plan } = await previewPromotion(source, target);
    assert.deepEqual(
      plan.changes.map((c) => [c.action, c.file, c.fields]),
      [
        ['create', 'integrations/crm.json', ['name', 'system', 'technical_id', 'url', 'tec_params']],
        ['update', 'ai_prompts/greeting.json', ['system']],
      ],
    );
    assert.equal(plan.problems.length, 1, plan.problems.join('\n'));
    assert.match(plan.problems[0] ?? '', /^Integration "CRM" is new to tenant 2 on production/);
  });

  it('does not promote a tenant itself', async () => {
    const source = await pulledFolder('staging', 1, []);
    const target = await pulledFolder('production', 2, []);
    const { problems } = await promote(source, target, [
      { segment: 'tenants' as TenantSegment, name: 'Tenant on staging' },
    ]);
    assert.match(problems.join('\n'), /A tenant itself is not promoted/);
  });
});

describe('promote between two tenants of a service', () => {
  const prompts = kindById('prompt');
  const integrations = kindById('integration');
  let service: RunningService;
  let client: ServiceClient;
  let production = 0;
  const chain = ['Order Triage', 'Order Resolution', 'Human Handoff'].map((name) => ({
    segment: 'ai_prompts' as const,
    name,
  }));

  const pullBoth = async (): Promise<{ source: MemoryFolder; target: MemoryFolder }> => ({
    source: await pullIntoMemory(client, { connection: 'staging', baseUrl: service.url, tenantId: 1 }),
    target: await pullIntoMemory(client, { connection: 'production', baseUrl: service.url, tenantId: production }),
  });
  const promptsOf = async (tenantId: number): Promise<Map<string, JsonObject>> => {
    const details = await Promise.all(
      (await client.list(prompts, tenantId)).map((p) => client.get(prompts, p.id as number, tenantId)),
    );
    return new Map(details.map((d) => [d.name as string, d]));
  };

  before(async () => {
    service = await startService({ adminToken: 'promote-admin-token' });
    client = new ServiceClient({ baseUrl: service.url, token: () => service.adminToken });
    production = (await client.create(kindById('tenant'), { name: 'Acme Production', email: 'ops@acme.example' }))
      .id as number;
  });
  after(async () => {
    await client.close();
    await service.close();
  });

  it('creates a chain of prompts in order, its references carried over by name', async () => {
    const { source, target } = await pullBoth();
    const { plan, folder } = await planPromotion(client, source, target, chain);
    assert.deepEqual(plan.problems, []);
    // Order Resolution exits to Human Handoff, and Order Triage leads to both: what is named is created first.
    assert.deepEqual(
      plan.changes.map((c) => [c.action, c.name]),
      [
        ['create', 'Human Handoff'],
        ['create', 'Order Resolution'],
        ['create', 'Order Triage'],
      ],
    );
    await push(client, folder, plan);
    const created = await promptsOf(production);
    assert.equal(created.get('Order Triage')?.next_prompt_id, created.get('Order Resolution')?.id);
    assert.equal(created.get('Order Triage')?.exit_prompt_id, created.get('Human Handoff')?.id);
    assert.equal(created.get('Order Triage')?.system, (await promptsOf(1)).get('Order Triage')?.system);
  });

  it('sends only what changed in the source since, as an update', async () => {
    const triage = (await promptsOf(1)).get('Order Triage') as JsonObject;
    await client.update(
      prompts,
      triage.id as number,
      { system: 'Answer with one word: status, cancel, return or other.' },
      1,
    );
    const { source, target } = await pullBoth();
    const { plan, folder } = await planPromotion(client, source, target, chain);
    assert.deepEqual(
      plan.changes.map((c) => [c.action, c.name, c.fields]),
      [['update', 'Order Triage', ['system']]],
    );
    await push(client, folder, plan);
    assert.equal(
      (await promptsOf(production)).get('Order Triage')?.system,
      'Answer with one word: status, cancel, return or other.',
    );
  });

  it('finds a change made on the target since it was pulled a conflict, and sends nothing', async () => {
    const triage = (await promptsOf(1)).get('Order Triage') as JsonObject;
    await client.update(prompts, triage.id as number, { description: 'Sorts requests' }, 1);
    const { source, target } = await pullBoth();
    const theirs = (await promptsOf(production)).get('Order Triage') as JsonObject;
    await client.update(prompts, theirs.id as number, { description: 'Edited on production' }, production);
    const { plan, folder } = await planPromotion(client, source, target, chain);
    assert.deepEqual(
      plan.changes.map((c) => [c.action, c.name]),
      [['conflict', 'Order Triage']],
    );
    await assert.rejects(push(client, folder, plan), /Nothing was sent/);
    assert.equal((await promptsOf(production)).get('Order Triage')?.description, 'Edited on production');
  });

  it("updates an integration and keeps the target's own credentials", async () => {
    const request = (apiKey: string, url: string): JsonObject => ({
      request: { url, method: 'GET', api_key: apiKey, headers: { Authorization: 'Bearer {{api_key}}' } },
    });
    const staging = await client.create(
      integrations,
      {
        name: 'Orders',
        system: 'http_api',
        technical_id: 'orders',
        tec_params: request('staging-key', 'https://orders.staging.example'),
      },
      1,
    );
    const ours = await client.create(
      integrations,
      {
        name: 'Orders',
        system: 'http_api',
        technical_id: 'orders',
        tec_params: request('production-key', 'https://orders.example'),
      },
      production,
    );
    await client.update(
      integrations,
      staging.id as number,
      { tec_params: request('staging-key', 'https://orders.example/v2') },
      1,
    );
    const { source, target } = await pullBoth();
    const { plan, folder } = await planPromotion(client, source, target, [{ segment: 'integrations', name: 'Orders' }]);
    assert.deepEqual(
      plan.changes.map((c) => [c.action, c.name, c.fields]),
      [['update', 'Orders', ['tec_params']]],
    );
    await push(client, folder, plan);
    const promoted = await client.get(integrations, ours.id as number, production);
    assert.deepEqual(promoted.tec_params, request('production-key', 'https://orders.example/v2'));
  });
});
