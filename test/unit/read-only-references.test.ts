import * as assert from 'node:assert/strict';
import type { JsonObject } from '../../src/core/json';
import { kindById, kindOfSegment } from '../../src/core/resources';
import type { KindId } from '../../src/core/resource-kind';
import { findDrift } from '../../src/core/tenant/drift';
import { MemoryFolder } from '../../src/core/tenant/memory-folder';
import { loadManifest } from '../../src/core/tenant/manifest';
import { writeManifest } from '../../src/core/tenant/manifest-writer';
import { localPlan, planPush } from '../../src/core/tenant/plan';
import { pullTenant } from '../../src/core/tenant/pull';
import { push } from '../../src/core/tenant/push';
import { READ_ONLY } from '../../src/core/tenant/read-only';
import { pulledState } from '../../src/core/tenant/pulled-state';
import { readResource, writeResource } from '../../src/core/tenant/representation';
import { useLocalService } from './local-service';

const TENANT = 1;
const INTENT = 'intents/order-status.json';
const AGENT = 'agents/acme-chat-assistant.json';

type Folder = MemoryFolder;

const json = (folder: Folder, file: string): JsonObject => JSON.parse(folder.files.get(file) ?? '{}') as JsonObject;

/** A file with its text changed; the replaced text must be there, so a test cannot pass by editing nothing. */
function edit(folder: Folder, file: string, from: string, to: string): void {
  const text = folder.files.get(file) ?? '';
  assert.ok(text.includes(from), `${file} holds ${from}`);
  folder.files.set(file, text.replace(from, to));
}

describe('tenant folders: the read-only references the flow map needs', () => {
  const local = useLocalService('read-only-unit-token');
  const pulled = (): Promise<Folder> => local.pulled(TENANT);

  async function idOf(kind: KindId, name: string): Promise<number> {
    const found = (await local.client.list(kindById(kind), TENANT)).find((r) => r.name === name);
    assert.ok(found, `the sample tenant has ${kind} "${name}"`);
    return found.id as number;
  }

  const problemsOf = async (folder: Folder): Promise<string[]> => (await localPlan(folder)).problems;

  it("keeps an intent's ai_actions and an agent element's function_ids and integration in a readOnly block, no credential, planning nothing", async () => {
    const folder = await pulled();
    const [checkOrder, orderFunction, orderApi] = await Promise.all([
      idOf('action', 'Check Order Status'),
      idOf('function', 'get_order_status'),
      idOf('integration', 'Order Status API'),
    ]);
    assert.deepEqual(json(folder, INTENT)[READ_ONLY], {
      ai_actions: [{ id: checkOrder, name: 'Check Order Status', action_type: 3 }],
    });
    assert.deepEqual(json(folder, AGENT)[READ_ONLY], {
      configuration: {
        prompt: [
          {
            name: 'Order Status',
            function_ids: [orderFunction],
            integration: { id: orderApi, name: 'Order Status API' },
          },
        ],
      },
    });
    assert.ok(
      ![...folder.files.values()].some(
        (text) => text.includes('sample-acme-mcp-token') || text.includes('orders.acme.example/mcp'),
      ),
      "the integration's token and server stay on the service",
    );
    const plan = await localPlan(folder);
    assert.deepEqual([plan.changes, plan.problems], [[], []]);
  });

  it('reports an edit of the block as a problem naming it, never as a change, and a pull puts it back', async () => {
    const folder = await pulled();
    edit(folder, INTENT, '"Check Order Status"', '"Something Else"');
    edit(folder, INTENT, '"Let me look up your order."', '"Edited here."');
    const plan = await localPlan(folder);
    assert.deepEqual(
      plan.changes.map((c) => [c.file, c.fields]),
      [[INTENT, ['speak']]],
      'the block is no field to send',
    );
    assert.equal(plan.problems.length, 1);
    assert.match(
      plan.problems[0] ?? '',
      /^intents\/order-status\.json:\d+:\d+: readOnly: read-only: the service sets an intent's ai_actions and a push never sends them .*change them on the service and pull/,
    );

    // A new resource holds no references on the service yet.
    folder.files.set('intents/copy.json', JSON.stringify({ ...json(folder, INTENT), id: undefined, name: 'copy' }));
    assert.ok(
      (await problemsOf(folder)).some((p) =>
        /^intents\/copy\.json:\d+:\d+: readOnly: read-only: .*take the block out of this new file/.test(p),
      ),
    );
    folder.files.delete('intents/copy.json');

    await pullTenant(local.client, folder, { connection: 'local', baseUrl: local.service.url, tenantId: TENANT });
    assert.match(folder.files.get(INTENT) ?? '', /"Check Order Status"/, "the service's references came back");
    const after = await localPlan(folder);
    assert.deepEqual(
      [after.changes.map((c) => [c.file, c.fields]), after.problems],
      [[[INTENT, ['speak']]], []],
      "the user's own edit is kept",
    );
  });

  it("pushes an intent's and an agent's editable fields without the block, and the folder holds the service's references after", async () => {
    const folder = await pulled();
    edit(folder, INTENT, '"Let me look up your order."', '"Edited here."');
    edit(folder, AGENT, '"Look up the order and report its status."', '"Look the order up."');
    const blocks = [json(folder, INTENT)[READ_ONLY], json(folder, AGENT)[READ_ONLY]];
    local.service.requests.clear();
    const plan = await planPush(local.client, folder);
    assert.deepEqual(
      [plan.changes.map((c) => [c.action, c.file, c.fields]), plan.problems],
      [
        [
          ['update', AGENT, ['configuration']],
          ['update', INTENT, ['speak']],
        ],
        [],
      ],
    );
    const result = await push(local.client, folder, plan);
    assert.deepEqual(result.notTaken, [], 'every sent field was taken as sent');
    assert.deepEqual(
      local.service.requests
        .list()
        .filter((r) => r.method === 'PUT')
        .map((r) => r.fields),
      [['configuration'], ['speak']],
    );
    assert.deepEqual(
      [json(folder, INTENT)[READ_ONLY], json(folder, AGENT)[READ_ONLY]],
      blocks,
      'the service kept the references, and the folder shows them',
    );
    assert.deepEqual((await localPlan(folder)).changes, []);
    assert.deepEqual(await findDrift(local.client, folder), []);
  });

  it('leaves a folder pulled before the block as it was: no change, no problem, no drift, no conflict', async () => {
    const folder = await pulled();
    const loaded = await loadManifest(folder);
    assert.ok(loaded);
    const resources = await Promise.all(
      loaded.manifest.resources.map(async (entry) => {
        const kind = kindOfSegment(entry.segment);
        const read = await readResource(kind, folder, entry.file.replace(/\.json$/, ''));
        assert.ok(read.ok);
        if (!(READ_ONLY in read.values)) return entry;
        const values = { ...read.values };
        delete values[READ_ONLY];
        await writeResource(folder, kind, entry.id, values, entry.file.replace(/\.json$/, ''));
        return { ...entry, ...pulledState(kind, entry.id, values) };
      }),
    );
    await writeManifest(folder, { ...loaded.manifest, resources });
    assert.ok(!(READ_ONLY in json(folder, INTENT)) && !(READ_ONLY in json(folder, AGENT)));

    const plan = await localPlan(folder);
    assert.deepEqual([plan.changes, plan.problems], [[], []]);
    assert.deepEqual(await findDrift(local.client, folder), []);
    edit(folder, INTENT, '"Let me look up your order."', '"Edited here."');
    assert.deepEqual(
      (await planPush(local.client, folder)).changes.map((c) => [c.action, c.file, c.fields]),
      [['update', INTENT, ['speak']]],
    );
  });

  it('names a block the service changed as drift, yet no conflict: a push never writes it', async () => {
    const folder = await pulled();
    await local.client.update(
      kindById('action'),
      await idOf('action', 'Check Order Status'),
      { name: 'Look Up Order' },
      TENANT,
    );
    const drift = await findDrift(local.client, folder);
    assert.ok(
      drift.some((d) => d.file === INTENT && d.change === 'changed' && d.fields.join() === READ_ONLY),
      "the intent's actions changed on the service",
    );
    edit(folder, INTENT, '"Let me look up your order."', '"Edited here."');
    const plan = await planPush(local.client, folder);
    assert.deepEqual(
      plan.changes.filter((c) => c.file === INTENT).map((c) => [c.action, c.fields]),
      [['update', ['speak']]],
    );
  });

  it("catches up with an edit the service holds already without taking the service's changed block for the folder's edit", async () => {
    const folder = await pulled();
    const intent = await idOf('intent', 'order_status');
    await local.client.update(
      kindById('action'),
      await idOf('action', 'Check Order Status'),
      { name: 'Look Up Order' },
      TENANT,
    );
    // The same edit on both sides: an earlier push's update whose answer was lost.
    await local.client.update(kindById('intent'), intent, { speak: 'Edited here.' }, TENANT);
    edit(folder, INTENT, '"Let me look up your order."', '"Edited here."');
    const plan = await planPush(local.client, folder);
    assert.deepEqual([plan.changes.filter((c) => c.file === INTENT), plan.problems], [[], []]);
    assert.ok(plan.notes.some((n) => n.startsWith(`${INTENT}: the service already holds this file's speak`)));
    assert.deepEqual((await localPlan(folder)).problems, [], 'the file still holds the block it was pulled with');
  });
});
