import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/core/client';
import type { JsonObject } from '../../src/core/json';
import { kindById } from '../../src/core/resources';
import { findDrift, type Drifted } from '../../src/core/tenant/drift';
import { MemoryFolder } from '../../src/core/tenant/memory-folder';
import { loadManifest, MANIFEST_FILE } from '../../src/core/tenant/manifest';
import { writeManifest } from '../../src/core/tenant/manifest-writer';
import { localPlan } from '../../src/core/tenant/plan';
import { pullTenant } from '../../src/core/tenant/pull';
import { takeServiceVersion } from '../../src/core/tenant/take';
import { useLocalService } from './local-service';

const prompt = kindById('prompt');
const action = kindById('action');
const TENANT = 1;

type Folder = MemoryFolder;

describe("tenant folders: drift and taking the service's version", () => {
  const local = useLocalService('drift-unit-token');
  const pulled = (): Promise<Folder> => local.pulled(TENANT);

  async function entryOf(folder: Folder, name: string, segment = 'ai_prompts'): Promise<{ id: number; file: string }> {
    const entry = (await loadManifest(folder))?.manifest.resources.find(
      (e) => e.segment === segment && e.name === name,
    );
    assert.ok(entry, `${name} was pulled`);
    return entry;
  }

  const brief = (drift: Drifted[]): Array<[string, string, string, string[]]> =>
    drift.map((d) => [d.change, d.segment, d.file ?? d.name, d.fields]);

  it('finds nothing in a folder just pulled, and reads every detail once with progress', async () => {
    const folder = await pulled();
    const progress: number[] = [];
    let total = 0;
    const drift = await findDrift(local.client, folder, {
      onProgress: (done, all) => {
        progress.push(done);
        total = all;
      },
    });
    assert.deepEqual(drift, []);
    const resources = (await loadManifest(folder))?.manifest.resources.length ?? 0;
    assert.equal(total, resources, 'one detail per pulled resource');
    assert.deepEqual(
      progress,
      Array.from({ length: resources }, (_, i) => i + 1),
    );
  });

  it("names a changed resource's fields, a created and a deleted one, in kind then file order, and never the folder's own edits", async () => {
    const folder = await pulled();
    const triage = await entryOf(folder, 'Order Triage');
    const handoff = await entryOf(folder, 'Human Handoff');
    await local.client.update(prompt, triage.id, { description: 'Changed in the web form', max_tokens: 111 }, TENANT);
    await local.client.delete(prompt, handoff.id, TENANT);
    const made = await local.client.create(prompt, { name: 'Made Elsewhere', prompt_type: 1, system: 'Hello' }, TENANT);
    // The folder's edit of another prompt is no drift: it is the folder's.
    const greeting = await entryOf(folder, 'Support Greeting');
    folder.files.set(
      greeting.file,
      (folder.files.get(greeting.file) ?? '').replace('"Opens every chat', '"Edited here'),
    );

    const drift = await findDrift(local.client, folder, { concurrency: 2 });
    // A created prompt sorts by the file a pull would give it (ai_prompts/made-elsewhere.json).
    assert.deepEqual(brief(drift), [
      ['deleted', 'ai_prompts', handoff.file, []],
      ['created', 'ai_prompts', 'Made Elsewhere', []],
      ['changed', 'ai_prompts', triage.file, ['description', 'max_tokens']],
    ]);
    assert.deepEqual([handoff.file, triage.file], ['ai_prompts/human-handoff.json', 'ai_prompts/order-triage.json']);
    const created = drift.find((d) => d.change === 'created');
    assert.equal(created?.id, made.id);
    assert.equal(created?.file, undefined);
    assert.equal(created?.detail?.system, 'Hello');
    assert.equal(drift.find((d) => d.change === 'deleted')?.detail, undefined);
    assert.equal(drift.find((d) => d.change === 'changed')?.detail?.description, 'Changed in the web form');
  });

  it('leaves out a create of the folder whose answer was lost: the next plan or push adopts it', async () => {
    const folder = await pulled();
    const loaded = await loadManifest(folder);
    assert.ok(loaded);
    await local.client.create(
      action,
      { name: 'Lost Answer', action_type: 2, voice: 'alloy', speak: 'Hi', forward_number: '+15550000000' },
      TENANT,
    );
    await writeManifest(folder, {
      ...loaded.manifest,
      pending: [{ segment: 'ai_actions', file: 'ai_actions/lost-answer.json', name: 'Lost Answer' }],
    });
    assert.deepEqual(await findDrift(local.client, folder), []);
  });

  it("tolerates a tenant's own token, which may not read the tenant's record: the rest drifts as usual", async () => {
    const own = new ServiceClient({ baseUrl: local.service.url, token: () => 'acme-tenant-token' });
    try {
      const folder = new MemoryFolder();
      await pullTenant(own, folder, { connection: 'local', baseUrl: local.service.url, tenantId: TENANT });
      assert.deepEqual(await findDrift(own, folder), []);
      const triage = await entryOf(folder, 'Order Triage');
      await local.client.update(prompt, triage.id, { description: 'Changed in the web form' }, TENANT);
      assert.deepEqual(brief(await findDrift(own, folder)), [['changed', 'ai_prompts', triage.file, ['description']]]);
    } finally {
      await own.close();
    }
  });

  it('stops when asked', async () => {
    const folder = await pulled();
    const stop = new AbortController();
    stop.abort();
    await assert.rejects(findDrift(local.client, folder, { signal: stop.signal }));
  });

  it("takes a changed resource's service version into its files and entry, leaving every other edit as it was", async () => {
    const folder = await pulled();
    const triage = await entryOf(folder, 'Order Triage');
    const greeting = await entryOf(folder, 'Support Greeting');
    await local.client.update(
      prompt,
      triage.id,
      { description: 'Changed in the web form', system: 'New system text' },
      TENANT,
    );
    const edited = (folder.files.get(greeting.file) ?? '').replace('"Opens every chat', '"Edited here');
    folder.files.set(greeting.file, edited);

    await takeServiceVersion(local.client, folder, { segment: 'ai_prompts', id: triage.id });
    const json = JSON.parse(folder.files.get(triage.file) ?? '{}') as JsonObject;
    assert.equal(json.description, 'Changed in the web form');
    assert.equal(
      folder.files.get(triage.file.replace(/\.json$/, '.system.md')),
      'New system text\n',
      'a text file holds the text and one newline',
    );
    assert.equal(folder.files.get(greeting.file), edited, "another resource's edit is kept");
    assert.deepEqual(await findDrift(local.client, folder), []);
    const plan = await localPlan(folder);
    assert.deepEqual(
      plan.changes.map((c) => [c.action, c.file]),
      [['update', greeting.file]],
      "only the folder's own edit is left to push",
    );
    assert.deepEqual(plan.problems, []);
  });

  it('takes a created resource as a new file a pull would write, and a deleted one out of the folder', async () => {
    const folder = await pulled();
    const handoff = await entryOf(folder, 'Human Handoff');
    const created = await local.client.create(
      prompt,
      { name: 'Made Elsewhere', prompt_type: 1, system: 'Hello' },
      TENANT,
    );
    await local.client.delete(prompt, handoff.id, TENANT);
    const others = [...folder.files].filter(
      ([file]) =>
        !file.startsWith(handoff.file.replace(/\.json$/, '.')) && file !== handoff.file && file !== MANIFEST_FILE,
    );

    await takeServiceVersion(local.client, folder, { segment: 'ai_prompts', id: created.id as number });
    await takeServiceVersion(local.client, folder, { segment: 'ai_prompts', id: handoff.id });
    assert.equal(JSON.parse(folder.files.get('ai_prompts/made-elsewhere.json') ?? '{}').id, created.id);
    assert.equal(folder.files.get('ai_prompts/made-elsewhere.system.md'), 'Hello\n');
    assert.ok(
      ![...folder.files.keys()].some((file) => file.startsWith(handoff.file.replace(/\.json$/, ''))),
      "the deleted prompt's files are gone",
    );
    const manifest = (await loadManifest(folder))?.manifest;
    assert.ok(manifest?.resources.some((e) => e.id === created.id && e.file === 'ai_prompts/made-elsewhere.json'));
    assert.ok(!manifest?.resources.some((e) => e.segment === 'ai_prompts' && e.id === handoff.id));
    for (const [file, text] of others) assert.equal(folder.files.get(file), text, `${file} is as it was`);
    assert.deepEqual(await findDrift(local.client, folder), []);
    assert.deepEqual((await localPlan(folder)).changes, []);
  });

  it('refuses what is neither on the service nor in the folder, and a manifest entry outside its place, writing nothing', async () => {
    const folder = await pulled();
    const before = new Map(folder.files);
    await assert.rejects(
      takeServiceVersion(local.client, folder, { segment: 'ai_prompts', id: 99999 }),
      /neither on the service nor in this folder/,
    );
    const text = folder.files.get(MANIFEST_FILE) ?? '';
    const triage = await entryOf(folder, 'Order Triage');
    folder.files.set(MANIFEST_FILE, text.replace(`"file":"${triage.file}"`, '"file":"intents/order-triage.json"'));
    const moved = new Map(folder.files);
    await assert.rejects(
      takeServiceVersion(local.client, folder, { segment: 'ai_prompts', id: triage.id }),
      /not its place in this folder/,
    );
    assert.deepEqual(folder.files, moved);
    assert.notDeepEqual(before, moved);
  });
});
