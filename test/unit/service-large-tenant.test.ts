import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/core/client';
import type { JsonObject } from '../../src/core/json';
import { kindById } from '../../src/core/resources';
import type { ResourceKind } from '../../src/core/resource-kind';
import { startService, type RunningService } from '../service/server';

describe("the local service's large tenant (--large)", function () {
  this.timeout(60_000);
  let service: RunningService;
  let client: ServiceClient;
  before(async () => {
    service = await startService({ adminToken: 'large-admin', largeTenant: true });
    client = new ServiceClient({ baseUrl: service.url, token: () => service.adminToken });
  });
  after(async () => {
    await client.close();
    await service.close();
  });
  const list = (kind: ResourceKind): Promise<JsonObject[]> => client.list(kind, 3);

  it('is tenant 3, "Bulk Co", of the sizes the contract names', async () => {
    const tenant = (await client.list(kindById('tenant'))).find((t) => t.id === 3);
    assert.equal(tenant?.name, 'Bulk Co');
    assert.equal((await list(kindById('prompt'))).length, 50_000);
    assert.equal((await list(kindById('intent'))).length, 10_000);
    for (const kind of ['integration', 'function', 'action', 'agent', 'datasource'] as const) {
      assert.equal((await list(kindById(kind))).length, 1_000, kind);
    }
  });

  it('puts the prompts in 200 groups of 250, named from A to Z, each handing over to another', async () => {
    const prompts = await list(kindById('prompt'));
    const groups = new Map<string, number>();
    for (const prompt of prompts) groups.set(String(prompt.group), (groups.get(String(prompt.group)) ?? 0) + 1);
    assert.equal(groups.size, 200);
    assert.ok([...groups.values()].every((count) => count === 250));
    assert.equal(new Set(prompts.map((p) => String(p.name)[0])).size, 26);
    const first = prompts[0] as JsonObject;
    const detail = await client.get(kindById('prompt'), first.id as number, 3);
    assert.ok(prompts.some((p) => p.id === detail.next_prompt_id && p.id !== first.id));
  });

  it('holds its intents in a hierarchy: every parent is an intent of the tenant', async () => {
    const intents = await list(kindById('intent'));
    const ids = new Set(intents.map((i) => i.id));
    const children = intents.filter((i) => i.parent_id !== null && i.parent_id !== undefined);
    assert.equal(children.length, 9_990);
    assert.ok(children.every((i) => ids.has(i.parent_id)));
  });
});
