import * as assert from 'node:assert/strict';
import type { JsonObject } from '../../src/core/json';
import { kindById } from '../../src/core/resources';
import { KINDS } from '../../src/core/resource-table';
import type { ResourceKind } from '../../src/core/resource-kind';
import { Store } from '../service/store';
import { raw, SAMPLES, SPEC } from './fixtures';
import { startContract, type ContractContext } from './setup';

const TENANT = 1;
const STAMPS = ['created_at', 'updated_at'];
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Long before the service started, so a stamp taken from a body would show. */
const SENT = { created_at: '2001-01-01T00:00:00.000Z', updated_at: '2001-01-01T00:00:00.000Z' };

const tenantOf = (kind: ResourceKind): number | undefined => (kind.segment === 'tenants' ? undefined : TENANT);
const time = (value: unknown): number => Date.parse(String(value));

/** The spec's fields, then the two stamps last, so a client reading the spec's fields sees no change. */
function assertStamped(object: JsonObject, specFields: readonly string[]): void {
  const keys = Object.keys(object);
  assert.deepEqual(keys.slice(-2), STAMPS);
  assert.deepEqual(keys.slice(0, -2).sort(), [...specFields].sort());
  for (const field of STAMPS) {
    const value = object[field];
    assert.ok(
      typeof value === 'string' && ISO_8601.test(value) && new Date(value).toISOString() === value,
      `${field}: ${String(value)}`,
    );
  }
}

function assertUnstamped(object: JsonObject): void {
  for (const field of STAMPS) assert.ok(!(field in object), `${field} in ${JSON.stringify(object)}`);
}

async function setOptions(ctx: ContractContext, body: unknown): Promise<{ status: number; json: unknown }> {
  return raw(`${ctx.service.url}/__test/options`, 'POST', ctx.service.adminToken, JSON.stringify(body));
}

describe('contract: the timestamps option (created_at/updated_at in detail and list only)', () => {
  let on: ContractContext;
  let off: ContractContext;
  before(async () => {
    [on, off] = await Promise.all([startContract({ timestamps: true }), startContract()]);
  });
  after(async () => Promise.all([on.close(), off.close()]));

  for (const kind of KINDS) {
    describe(kind.pluralLabel, () => {
      const spec = SPEC[kind.id];
      const sample = SAMPLES[kind.id];

      it('answers create without them; the detail and the list have them', async () => {
        const created = await on.admin.create(kind, { ...sample.create, ...SENT }, tenantOf(kind));
        assert.deepEqual(Object.keys(created).sort(), [...spec.create].sort());
        const detail = await on.admin.get(kind, created.id as number, tenantOf(kind));
        assertStamped(detail, spec.detail);
        assert.equal(detail.created_at, detail.updated_at);
        assert.ok(time(detail.created_at) > time(SENT.created_at), 'stamps sent on create are ignored');
        const list = await on.admin.list(kind, tenantOf(kind));
        for (const item of list) assertStamped(item, spec.summary);
        assert.deepEqual(list.find((item) => item.id === created.id)?.updated_at, detail.updated_at);
      });

      it('answers update without them; the next detail has a newer updated_at and ignores sent stamps', async () => {
        const { id } = await on.admin.create(kind, sample.create, tenantOf(kind));
        const before = await on.admin.get(kind, id as number, tenantOf(kind));
        const updated = await on.admin.update(kind, id as number, { ...sample.update, ...SENT }, tenantOf(kind));
        assert.deepEqual(Object.keys(updated).sort(), [...spec.update].sort());
        const after = await on.admin.get(kind, id as number, tenantOf(kind));
        assert.equal(after.created_at, before.created_at);
        assert.ok(
          time(after.updated_at) > time(before.updated_at),
          `${String(after.updated_at)} after ${String(before.updated_at)}`,
        );
      });

      it('with the option off, answers exactly what the on service answers without the stamps', async () => {
        const strip = (object: JsonObject): string =>
          JSON.stringify(object, (key, value: unknown) => (STAMPS.includes(key) ? undefined : value));
        const [listOn, listOff] = await Promise.all([
          on.admin.list(kind, tenantOf(kind)),
          off.admin.list(kind, tenantOf(kind)),
        ]);
        for (const item of listOff) assertUnstamped(item);
        const sampleId = listOff[0]?.id as number;
        const [detailOn, detailOff] = await Promise.all([
          on.admin.get(kind, sampleId, tenantOf(kind)),
          off.admin.get(kind, sampleId, tenantOf(kind)),
        ]);
        assertUnstamped(detailOff);
        assert.equal(strip(detailOn), JSON.stringify(detailOff));
        assert.equal(strip(listOn.find((item) => item.id === sampleId) ?? {}), JSON.stringify(listOff[0]));
        const created = await off.admin.create(kind, sample.create, tenantOf(kind));
        assertUnstamped(created);
        assertUnstamped(await off.admin.update(kind, created.id as number, sample.update, tenantOf(kind)));
        assertUnstamped(await off.admin.get(kind, created.id as number, tenantOf(kind)));
      });
    });
  }

  it('gives every update a newer updated_at, even many in a row', async () => {
    const functions = kindById('function');
    const id = (await on.admin.create(functions, SAMPLES.function.create, TENANT)).id as number;
    let last = time((await on.admin.get(functions, id, TENANT)).updated_at);
    for (let round = 0; round < 10; round += 1) {
      await on.admin.update(functions, id, { description: `round ${round}` }, TENANT);
      const next = time((await on.admin.get(functions, id, TENANT)).updated_at);
      assert.ok(next > last, `round ${round}`);
      last = next;
    }
  });

  it('never repeats a stamp within one millisecond (the store clock)', () => {
    const store = new Store();
    const row = store.list('function', TENANT)[0];
    assert.ok(row);
    const stamps = Array.from({ length: 1000 }, () => {
      store.touch(row);
      return time(row.updatedAt);
    });
    stamps.forEach((stamp, index) =>
      assert.ok(index === 0 || stamp > (stamps[index - 1] ?? Infinity), `stamp ${index}`),
    );
  });

  describe('POST /__test/options', () => {
    const detailOf = (ctx: ContractContext): Promise<JsonObject> => ctx.admin.get(kindById('prompt'), 1, TENANT);

    it('switches the option at run time and answers the options in force', async () => {
      const inForce = (timestamps: boolean) => ({
        status: 200,
        json: { timestamps, answerVariation: 0, answerSeed: 1 },
      });
      assert.deepEqual(await setOptions(off, { timestamps: true }), inForce(true));
      assertStamped(await detailOf(off), SPEC.prompt.detail);
      assert.deepEqual(await setOptions(off, {}), inForce(true));
      assert.deepEqual(await setOptions(off, { timestamps: false }), inForce(false));
      assertUnstamped(await detailOf(off));
    });

    it('is set back to the start value by /__test/reset', async () => {
      const reset = (ctx: ContractContext) => raw(`${ctx.service.url}/__test/reset`, 'POST', ctx.service.adminToken);
      await setOptions(off, { timestamps: true });
      await setOptions(on, { timestamps: false });
      await Promise.all([reset(off), reset(on)]);
      assertUnstamped(await detailOf(off));
      assertStamped(await detailOf(on), SPEC.prompt.detail);
    });

    it('refuses bodies it does not understand with 400, changing nothing', async () => {
      for (const body of [[], { timestamps: 'yes' }, { timestamp: true }]) {
        assert.equal((await setOptions(off, body)).status, 400, JSON.stringify(body));
      }
      assertUnstamped(await detailOf(off));
      const get = await raw(`${off.service.url}/__test/options`, 'GET', off.service.adminToken);
      assert.equal(get.status, 405);
    });
  });
});
