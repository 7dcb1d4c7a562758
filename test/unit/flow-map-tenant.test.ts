import * as assert from 'node:assert/strict';
import { ServiceClient, type CallOptions } from '../../src/core/client';
import type { JsonObject } from '../../src/core/json';
import { folderFlowMap } from '../../src/core/flow-map/folder';
import type { FlowMap } from '../../src/core/flow-map/model';
import { tenantFlowMap } from '../../src/core/flow-map/tenant';
import { kindById } from '../../src/core/resources';
import type { ResourceKind } from '../../src/core/resource-kind';
import { MemoryFolder } from '../../src/core/tenant/memory-folder';
import { readManifest } from '../../src/core/tenant/manifest';
import { pullTenant } from '../../src/core/tenant/pull';
import { MAP_TENANT, MAP_TENANT_SHAPE } from '../service/sample-data';
import { startService, type RunningService } from '../service/server';

const TENANT = 1;
const prompt = kindById('prompt');

/** The real client, counting the detail reads it makes and how many were in flight at once. */
class CountingClient extends ServiceClient {
  reads: string[] = [];
  inFlight = 0;
  mostInFlight = 0;

  override async get(kind: ResourceKind, id: number, tenantId?: number, call?: CallOptions): Promise<JsonObject> {
    this.reads.push(`${kind.segment}/${id}`);
    this.mostInFlight = Math.max(this.mostInFlight, ++this.inFlight);
    try {
      return await super.get(kind, id, tenantId, call);
    } finally {
      this.inFlight--;
    }
  }
}

const kindsOf = (map: FlowMap, from: string): string[] =>
  [...new Set(map.edges.filter((e) => e.from.startsWith(`${from}/`)).map((e) => e.kind))].sort();

describe('flow map: a live tenant', () => {
  let service: RunningService;
  let client: CountingClient;

  beforeEach(async () => {
    service = await startService({ adminToken: 'map-unit-token' });
    client = new CountingClient({ baseUrl: service.url, token: () => service.adminToken });
  });

  afterEach(async () => {
    await client.close();
    await service.close();
  });

  it("reads every resource's detail once, at the given concurrency, with progress, and draws what lists leave out", async () => {
    const progress: Array<[number, number]> = [];
    const map = await tenantFlowMap(client, TENANT, {
      concurrency: 2,
      onProgress: (done, total) => progress.push([done, total]),
    });
    const total = map.nodes.length;
    assert.ok(total > 10, 'the sample tenant has its resources on the map');
    assert.deepEqual(
      progress,
      Array.from({ length: total }, (_, i) => [i + 1, total]),
    );
    assert.deepEqual(
      [...client.reads].sort(),
      map.nodes.map((n) => n.id).sort(),
      'one read per node, none twice, not the tenant',
    );
    assert.equal(client.mostInFlight, 2);
    assert.ok(map.nodes.every((n) => /^[a-z_]+\/\d+$/.test(n.id)));
    // Only details hold an intent's ai_actions and an agent element's references.
    assert.deepEqual(kindsOf(map, 'intents'), ['action', 'intent', 'parent']);
    assert.deepEqual(kindsOf(map, 'agents'), ['function', 'integration']);
  });

  it('takes a detail the caller holds instead of reading it', async () => {
    const [triage, handoff] = await Promise.all(
      ['Order Triage', 'Human Handoff'].map(async (name) => {
        const found = (await client.list(prompt, TENANT)).find((p) => p.name === name);
        assert.ok(found, `${name} is a sample prompt`);
        return found.id as number;
      }),
    );
    const held = { ...(await client.get(prompt, triage as number, TENANT)), next_prompt_id: handoff as number };
    client.reads = [];
    const map = await tenantFlowMap(client, TENANT, {
      known: (segment, id) => (segment === 'ai_prompts' && id === triage ? held : undefined),
    });
    assert.ok(!client.reads.includes(`ai_prompts/${triage}`), 'the held detail is not read again');
    assert.equal(client.reads.length, map.nodes.length - 1);
    assert.ok(
      map.edges.some((e) => e.from === `ai_prompts/${triage}` && e.to === `ai_prompts/${handoff}` && e.kind === 'next'),
      'the map shows what the held detail says',
    );
  });

  it('hands each detail it read to onDetail, so a second map read with them as known sends only the lists', async () => {
    const kept = new Map<string, JsonObject>();
    const first = await tenantFlowMap(client, TENANT, {
      onDetail: (segment, id, detail) => kept.set(`${segment}/${id}`, detail),
    });
    assert.deepEqual([...kept.keys()].sort(), first.nodes.map((n) => n.id).sort());
    client.reads = [];
    const again = await tenantFlowMap(client, TENANT, {
      known: (segment, id) => kept.get(`${segment}/${id}`),
      onDetail: () => assert.fail('nothing is read'),
    });
    assert.deepEqual(client.reads, []);
    assert.deepEqual(again, first);
  });

  it('stops at Cancel, reading no more details', async () => {
    const stop = new AbortController();
    const listed = (await tenantFlowMap(client, TENANT)).nodes.length;
    client.reads = [];
    await assert.rejects(
      tenantFlowMap(client, TENANT, { concurrency: 1, signal: stop.signal, onProgress: () => stop.abort() }),
      { name: 'AbortError' },
    );
    assert.equal(client.reads.length, 1, `one of ${listed} details read before Cancel`);
  });

  it('gives a pulled folder of the tenant the same map: nodes, edges of every kind and both problems', async () => {
    // A dangling hand-over and a prompt nothing leads to, so both problems are compared too.
    await client.create(
      prompt,
      { name: 'Orphan', prompt_type: 1, system: 'Nobody calls me', next_prompt_id: 99999 },
      TENANT,
    );
    const folder = new MemoryFolder();
    await pullTenant(client, folder, { connection: 'local', baseUrl: service.url, tenantId: TENANT });
    const manifest = await readManifest(folder);
    assert.ok(manifest);

    const fromFolder = await folderFlowMap(folder, manifest);
    const fromService = await tenantFlowMap(client, TENANT);
    assert.deepEqual(fromFolder.unread, []);
    assert.deepEqual(fromFolder.map, fromService);
    assert.deepEqual([...new Set(fromService.edges.map((e) => e.kind))].sort(), [
      'action',
      'exit',
      'function',
      'integration',
      'intent',
      'next',
      'parent',
    ]);
    assert.deepEqual([...new Set(fromService.problems.map((p) => p.kind))].sort(), ['dangling', 'unreachable']);
  });
});

describe("flow map: the bench's tenant of 1,000 resources", () => {
  it('is linked as an assistant is: every edge kind, every prompt reached, the same map from its folder', async () => {
    const service = await startService({ adminToken: 'map-unit-token', mapTenant: true });
    const client = new ServiceClient({ baseUrl: service.url, token: () => service.adminToken });
    try {
      const tenant = (await client.list(kindById('tenant'))).find((t) => t.name === MAP_TENANT);
      assert.ok(tenant, `the service holds "${MAP_TENANT}"`);
      const tenantId = tenant.id as number;
      const folder = new MemoryFolder();
      await pullTenant(client, folder, { connection: 'local', baseUrl: service.url, tenantId });
      const manifest = await readManifest(folder);
      assert.ok(manifest);
      const { map } = await folderFlowMap(folder, manifest);
      assert.equal(map.nodes.length, 1_000);
      const count = (kind: string): number => map.edges.filter((e) => e.kind === kind).length;
      const { flows, flowLength, intents, agents } = MAP_TENANT_SHAPE;
      assert.deepEqual(
        {
          next: count('next'),
          exit: count('exit'),
          intent: count('intent'),
          parent: count('parent'),
          action: count('action'),
          integration: count('integration'),
          function: count('function'),
        },
        {
          next: flows * (flowLength - 1),
          exit: flows * 3,
          intent: intents,
          parent: intents - flows,
          action: intents,
          integration: 100 + agents,
          function: flows * 2 + agents * 2,
        },
      );
      // Nothing dangles and every prompt is reached: the bench times an assistant's map, not a broken one's.
      assert.deepEqual(map.problems, []);
      assert.deepEqual(map, await tenantFlowMap(client, tenantId));
    } finally {
      await client.close();
      await service.close();
    }
  });
});
