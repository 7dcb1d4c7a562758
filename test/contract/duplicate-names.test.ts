// The local service's duplicateNames option: a tenant in which two prompts share a name and two actions do.
import * as assert from 'node:assert/strict';
import type { JsonObject } from '../../src/core/json';
import { kindById } from '../../src/core/resources';
import { KINDS } from '../../src/core/resource-table';
import type { ResourceKind } from '../../src/core/resource-kind';
import { DUPLICATE_NAMES_TENANT } from '../service/sample-data';
import { raw } from './fixtures';
import { startContract, type ContractContext } from './setup';

const RESOURCE_KINDS = KINDS.filter((kind) => kind.id !== 'tenant');

/** Every resource of each kind in the tenant, as the list answers it. */
async function contents(context: ContractContext, tenantId: number): Promise<[string, JsonObject[]][]> {
  return Promise.all(
    RESOURCE_KINDS.map(
      async (kind): Promise<[string, JsonObject[]]> => [kind.id, await context.admin.list(kind, tenantId)],
    ),
  );
}

describe('contract: the duplicateNames option (a tenant whose prompts and actions share names)', () => {
  let on: ContractContext;
  let off: ContractContext;
  let tenantId = 0;
  before(async () => {
    [on, off] = await Promise.all([startContract({ duplicateNames: true }), startContract()]);
    const tenants = await on.admin.list(kindById('tenant'));
    const found = tenants.filter((t) => t.name === DUPLICATE_NAMES_TENANT);
    assert.equal(found.length, 1, JSON.stringify(tenants));
    tenantId = found[0]?.id as number;
  });
  after(async () => {
    await Promise.all([on.close(), off.close()]);
  });

  const namesOf = async (kind: ResourceKind): Promise<unknown[]> =>
    (await on.admin.list(kind, tenantId)).map((r) => r.name);

  it('holds two prompts named "Greeting" with different texts', async () => {
    const prompts = kindById('prompt');
    const listed = await on.admin.list(prompts, tenantId);
    assert.deepEqual(
      listed.map((p) => p.name),
      ['Greeting', 'Greeting'],
    );
    const texts = await Promise.all(
      listed.map(async (p) => (await on.admin.get(prompts, p.id as number, tenantId)).user_prompt),
    );
    assert.equal(new Set(texts).size, 2, `different texts: ${JSON.stringify(texts)}`);
  });

  it('holds two actions named "Transfer" and one of every other kind, of a name of its own', async () => {
    assert.deepEqual(await namesOf(kindById('action')), ['Transfer', 'Transfer']);
    for (const kind of RESOURCE_KINDS.filter((k) => k.id !== 'prompt' && k.id !== 'action')) {
      const names = await namesOf(kind);
      assert.equal(names.length, 1, `${kind.id}: ${JSON.stringify(names)}`);
      assert.ok(
        typeof names[0] === 'string' && !['Greeting', 'Transfer'].includes(names[0]),
        `${kind.id}: ${String(names[0])}`,
      );
    }
  });

  it('comes after the sample tenants and leaves them as they are', async () => {
    assert.deepEqual((await on.admin.list(kindById('tenant'))).slice(0, 2), await off.admin.list(kindById('tenant')));
    for (const sample of [1, 2]) {
      assert.deepEqual(await contents(on, sample), await contents(off, sample), `tenant ${sample}`);
    }
    assert.ok(
      !(await off.admin.list(kindById('tenant'))).some((t) => t.name === DUPLICATE_NAMES_TENANT),
      'off by default',
    );
  });

  it('is brought back with the same ids by /__test/reset', async () => {
    const seeded = await contents(on, tenantId);
    const prompts = kindById('prompt');
    const [first] = await on.admin.list(prompts, tenantId);
    await on.admin.delete(prompts, first?.id as number, tenantId);
    await on.admin.create(prompts, { name: 'Greeting' }, tenantId);
    assert.equal((await raw(`${on.service.url}/__test/reset`, 'POST', on.service.adminToken)).status, 200);
    assert.deepEqual(await contents(on, tenantId), seeded);
  });
});
