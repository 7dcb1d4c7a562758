import * as assert from 'node:assert/strict';
import { kindById } from '../../src/core/resources';
import { KINDS } from '../../src/core/resource-table';
import type { ResourceKind } from '../../src/core/resource-kind';
import { SAMPLES, SPEC, rejection } from './fixtures';
import { startContract, type ContractContext } from './setup';

const TENANT = 1;

function keys(value: object): string[] {
  return Object.keys(value).sort();
}

describe('contract: the five operations of every kind (section 4.1)', () => {
  let ctx: ContractContext;
  before(async () => {
    ctx = await startContract();
  });
  after(async () => ctx.close());

  for (const kind of KINDS) {
    describe(kind.pluralLabel, () => {
      const spec = SPEC[kind.id];
      const sample = SAMPLES[kind.id];
      const tenantId = (k: ResourceKind): number | undefined => (k.segment === 'tenants' ? undefined : TENANT);
      let id = 0;

      it('creates, answering the create shape of section 4.1', async () => {
        const created = await ctx.admin.create(kind, sample.create, tenantId(kind));
        assert.deepEqual(keys(created), [...spec.create].sort());
        assert.equal(typeof created.id, 'number');
        id = created.id as number;
        if (kind.id === 'prompt') assert.equal(created.status, 'created');
        if (spec.create.includes('tenant_id')) assert.equal(created.tenant_id, TENANT);
      });

      it('lists summary objects only, the new one among them', async () => {
        const list = await ctx.admin.list(kind, tenantId(kind));
        assert.ok(list.length >= 2, 'sample data plus the created one');
        for (const item of list) assert.deepEqual(keys(item), [...spec.summary].sort());
        assert.ok(list.some((item) => item.id === id));
      });

      it('shows the detail object', async () => {
        const detail = await ctx.admin.get(kind, id, tenantId(kind));
        assert.deepEqual(keys(detail), [...spec.detail].sort());
        assert.equal(detail.id, id);
        if (kind.segment !== 'tenants') assert.equal(detail.tenant_id, TENANT);
      });

      it('updates, answering the update shape, and keeps the change', async () => {
        const updated = await ctx.admin.update(kind, id, sample.update, tenantId(kind));
        assert.deepEqual(keys(updated), [...spec.update].sort());
        const detail = await ctx.admin.get(kind, id, tenantId(kind));
        for (const [field, value] of Object.entries(sample.update)) {
          if (field === 'configuration') continue;
          assert.deepEqual(detail[field], value, field);
        }
      });

      it('deletes with the status text of section 4.1, then the id is gone', async () => {
        assert.equal(await ctx.admin.delete(kind, id, tenantId(kind)), kind.deleteStatus(id));
        assert.equal((await rejection(ctx.admin.get(kind, id, tenantId(kind)))).status, 404);
      });
    });
  }

  describe('rules of particular kinds', () => {
    it('defaults prompt_type to 1 and keeps unsent fields on a partial prompt update', async () => {
      const prompts = kindById('prompt');
      const { id } = await ctx.admin.create(
        prompts,
        { name: 'Partial', description: 'before', ai_model: 'gpt-4o' },
        TENANT,
      );
      const promptId = id as number;
      assert.equal((await ctx.admin.get(prompts, promptId, TENANT)).prompt_type, 1);
      await ctx.admin.update(prompts, promptId, { description: 'after' }, TENANT);
      const detail = await ctx.admin.get(prompts, promptId, TENANT);
      assert.equal(detail.description, 'after');
      assert.equal(detail.ai_model, 'gpt-4o');
      assert.equal(detail.name, 'Partial');
    });

    it('assigns an agent number on create and keeps it on update', async () => {
      const agents = kindById('agent');
      const created = await ctx.admin.create(agents, SAMPLES.agent.create, TENANT);
      assert.equal(typeof created.number, 'string');
      assert.ok((created.number as string).length > 0);
      const updated = await ctx.admin.update(
        agents,
        created.id as number,
        { ...SAMPLES.agent.update, number: '+10000000000' },
        TENANT,
      );
      assert.equal(updated.number, created.number);
    });

    it('answers an agent configuration with per-prompt details', async () => {
      const agents = kindById('agent');
      const created = await ctx.admin.create(agents, SAMPLES.agent.create, TENANT);
      const detail = await ctx.admin.get(agents, created.id as number, TENANT);
      const configuration = detail.configuration as { name: string; prompt: Array<Record<string, unknown>> };
      assert.equal(configuration.name, 'Night shift');
      const element = configuration.prompt[0];
      assert.ok(element);
      for (const field of ['id', 'name', 'prompt', 'initial_response', 'voice', 'function_ids', 'tools', 'actions']) {
        assert.ok(field in element, field);
      }
    });

    it('maps a tenant package to booked_package', async () => {
      const tenants = kindById('tenant');
      const voice = await ctx.admin.create(tenants, {
        name: 'Voice Co',
        email: 'a@voice.example',
        package: 'voice-premium',
      });
      const standard = await ctx.admin.create(tenants, {
        name: 'Text Co',
        email: 'a@text.example',
        package: 'standard',
      });
      assert.equal(voice.booked_package, 2);
      assert.equal(standard.booked_package, 1);
      assert.equal(typeof voice.auth_token, 'string');
    });

    it('lets a created tenant token see its own tenant only', async () => {
      const tenants = kindById('tenant');
      const created = await ctx.admin.create(tenants, { name: 'Own Co', email: 'a@own.example', package: 'standard' });
      const own = ctx.clientWith(created.auth_token as string);
      assert.deepEqual(await own.list(kindById('function'), created.id as number), []);
      assert.equal((await rejection(own.list(kindById('function'), TENANT))).status, 404);
    });

    it('lists an intent hierarchy and datasources of every type in the sample data', async () => {
      const intents = await ctx.admin.list(kindById('intent'), TENANT);
      assert.ok(intents.some((i) => i.parent_id !== null && intents.some((p) => p.id === i.parent_id)));
      const types = new Set((await ctx.admin.list(kindById('datasource'), TENANT)).map((d) => d.type));
      for (const type of ['webpage', 'text', 'file', 'database']) assert.ok(types.has(type), type);
    });
  });
});
