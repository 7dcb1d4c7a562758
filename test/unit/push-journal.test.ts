import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import type { ResourceKind } from '../../src/core/resource-kind';
import { MemoryFolder } from '../../src/core/tenant/memory-folder';
import {
  JOURNAL_FILE,
  journal,
  loadManifest,
  MANIFEST_FILE,
  readManifest,
  type Manifest,
} from '../../src/core/tenant/manifest';
import { writeManifest } from '../../src/core/tenant/manifest-writer';
import { planPush } from '../../src/core/tenant/plan';
import { pullTenant } from '../../src/core/tenant/pull';
import { push } from '../../src/core/tenant/push';
import type { JsonObject } from '../../src/core/json';
import { startService, type RunningService } from '../service/server';

const prompts = kindById('prompt');
const PROMPTS = 8;

/** A client whose updates are counted while under way, and refused for one id (a request that fails midway). */
class WatchedClient extends ServiceClient {
  running = 0;
  most = 0;
  failing?: number;

  override async update(kind: ResourceKind, id: number, fields: JsonObject, tenantId?: number): Promise<JsonObject> {
    this.running++;
    this.most = Math.max(this.most, this.running);
    try {
      // A turn of the event loop, so the push may start others meanwhile.
      await new Promise((resolve) => setImmediate(resolve));
      if (id === this.failing) throw new Error(`update of ${id} failed`);
      return await super.update(kind, id, fields, tenantId);
    } finally {
      this.running--;
    }
  }
}

describe("push: bounded concurrency and the manifest's journal", () => {
  let service: RunningService;
  let client: WatchedClient;
  let tenantId: number;
  let io: MemoryFolder;

  const edit = (index: number): void => {
    const file = `ai_prompts/prompt-${index}.json`;
    const values = JSON.parse(io.files.get(file) as string) as JsonObject;
    io.files.set(file, JSON.stringify({ ...values, description: `edited ${index}` }));
  };
  const idOf = (index: number): number =>
    (JSON.parse(io.files.get(`ai_prompts/prompt-${index}.json`) as string) as JsonObject).id as number;

  before(async () => {
    service = await startService({ adminToken: 'push-journal-admin-token' });
    client = new WatchedClient({ baseUrl: service.url, token: () => service.adminToken });
  });
  after(async () => {
    await client.close();
    await service.close();
  });
  beforeEach(async () => {
    tenantId = (await client.create(kindById('tenant'), { name: 'Journal', email: 'j@example.com' })).id as number;
    for (let index = 0; index < PROMPTS; index++)
      await client.create(prompts, { name: `Prompt ${index}`, system: 'Say hello.' }, tenantId);
    io = new MemoryFolder();
    await pullTenant(client, io, { connection: 'local', baseUrl: service.url, tenantId });
    client.most = 0;
    client.failing = undefined;
  });

  it('replays the journal over the manifest when it is read, ignoring a torn last line, and a write folds it in', async () => {
    const manifest = await readManifest(io);
    assert.ok(manifest);
    const [first, second] = manifest.resources.filter((entry) => entry.segment === 'ai_prompts');
    assert.ok(first && second);
    await journal(io, { set: { ...first, name: 'Renamed' } });
    await journal(io, { drop: second.file });
    await journal(io, { pending: [{ segment: 'ai_prompts', file: 'ai_prompts/new.json', name: 'New' }] });
    await journal(io, { set: { ...first, name: 'Twice' } });
    await io.append(JOURNAL_FILE, '{"drop": "ai_prom');
    const replayed = (await loadManifest(io))?.manifest;
    assert.ok(replayed);
    assert.equal(replayed.resources.find((entry) => entry.id === first.id)?.name, 'Twice', 'steps apply in order');
    assert.ok(!replayed.resources.some((entry) => entry.id === second.id));
    assert.equal(replayed.resources.length, manifest.resources.length - 1, 'the torn line is no step');
    assert.deepEqual(replayed.pending, [{ segment: 'ai_prompts', file: 'ai_prompts/new.json', name: 'New' }]);
    assert.deepEqual(replayed.resources.find((entry) => entry.id === first.id)?.fields, first.fields);
    await writeManifest(io, replayed);
    assert.ok(!io.files.has(JOURNAL_FILE), 'folded into the manifest');
    assert.deepEqual(
      (await readManifest(io))?.resources.map((entry) => entry.name).sort(),
      replayed.resources.map((entry) => entry.name).sort(),
    );
  });

  it('writes the lines of the entries a push left alone as the manifest held them, and reads any layout of it', async () => {
    const pulled = io.files.get(MANIFEST_FILE) as string;
    const manifest = await readManifest(io);
    assert.ok(manifest);
    const renamed = manifest.resources.find((entry) => entry.segment === 'ai_prompts');
    assert.ok(renamed);
    await journal(io, { set: { ...renamed, name: 'Renamed' } });
    const replayed = (await loadManifest(io))?.manifest;
    assert.ok(replayed);
    await writeManifest(io, replayed);
    const linesOf = (text: string): string[] => text.split('\n');
    const before = linesOf(pulled);
    const after = linesOf(io.files.get(MANIFEST_FILE) as string);
    const changed = after.filter((line) => !before.includes(line));
    assert.equal(changed.length, 1, "only the renamed entry's line is new");
    assert.match(changed[0] as string, /"name":"Renamed"/);
    assert.equal(after.length, before.length);
    // Written by hand or by another tool: each entry over several lines, a byte-order of keys of its own.
    const entries = (value: Manifest | undefined): unknown =>
      value?.resources.map(({ segment, id, file, name, files, fields }) => ({
        segment,
        id,
        file,
        name,
        files,
        fields,
      }));
    const expected = entries(await readManifest(io));
    io.files.set(MANIFEST_FILE, JSON.stringify(JSON.parse(io.files.get(MANIFEST_FILE) as string), null, 2));
    assert.deepEqual(entries(await readManifest(io)), expected);
    // Two entries on one line: read whole as well.
    const joined = pulled.replace(/\n {4}(\{[^\n]*\}),\n {4}(\{[^\n]*\}),\n/, '\n    $1, $2,\n');
    assert.notEqual(joined, pulled);
    io.files.set(MANIFEST_FILE, joined);
    assert.equal((await readManifest(io))?.resources.length, manifest.resources.length);
  });

  it('sends a few updates at once, never more than asked, and rewrites the manifest once', async () => {
    for (let index = 0; index < PROMPTS; index++) edit(index);
    const written: string[] = [];
    const watched = Object.assign(new MemoryFolder(io.files), {
      write: async (file: string, text: string) => {
        written.push(file);
        await io.write(file, text);
      },
      replace: async (file: string, text: string) => {
        written.push(file);
        await io.replace(file, text);
      },
    });
    const result = await push(client, watched, await planPush(client, io), { concurrency: 3, justPlanned: true });
    assert.equal(result.applied.length, PROMPTS);
    assert.equal(client.most, 3);
    assert.equal(written.filter((file) => file === MANIFEST_FILE).length, 1);
    assert.ok(!io.files.has(JOURNAL_FILE));
    assert.deepEqual((await planPush(client, io)).changes, [], 'every update is recorded as pulled');
  });

  it('leaves a short journal beside a large manifest, whose readers replay it, and folds it in once it is long', async () => {
    for (let index = PROMPTS; index < 260; index++)
      await client.create(prompts, { name: `Prompt ${index}`, system: 'Say hello.' }, tenantId);
    await pullTenant(client, io, { connection: 'local', baseUrl: service.url, tenantId });
    const pulled = io.files.get(MANIFEST_FILE);
    edit(0);
    assert.equal((await push(client, io, await planPush(client, io))).applied.length, 1);
    assert.equal(io.files.get(MANIFEST_FILE), pulled, 'a step per 260 entries: the manifest is not rewritten');
    assert.ok(io.files.has(JOURNAL_FILE));
    assert.deepEqual((await planPush(client, io)).changes, [], 'the journal holds the update as pulled');
    for (let index = 1; index < 4; index++) edit(index);
    assert.equal((await push(client, io, await planPush(client, io))).applied.length, 3);
    assert.notEqual(io.files.get(MANIFEST_FILE), pulled, 'four steps: folded in');
    assert.ok(!io.files.has(JOURNAL_FILE));
    assert.deepEqual((await planPush(client, io)).changes, []);
  });

  it('resumes a push stopped before the manifest was written: the journal holds what was applied, which is not sent again', async () => {
    for (let index = 0; index < PROMPTS; index++) edit(index);
    client.failing = idOf(5);
    // The process ends before the journal is folded in: the manifest is never written.
    const stopped = Object.assign(new MemoryFolder(io.files), {
      replace: async (file: string, text: string) => {
        if (file === MANIFEST_FILE) throw new Error('stopped');
        await io.replace(file, text);
      },
    });
    await assert.rejects(push(client, stopped, await planPush(client, io), { concurrency: 2 }), /stopped|update of/);
    assert.ok(io.files.has(JOURNAL_FILE), 'the steps applied are in the journal');
    const remaining = await planPush(client, io);
    const left = remaining.changes.map((c) => c.file);
    assert.ok(left.includes('ai_prompts/prompt-5.json'));
    assert.ok(left.length < PROMPTS, `what was applied is not planned again: ${left.join(', ')}`);
    client.failing = undefined;
    const result = await push(client, io, remaining);
    assert.deepEqual(result.applied.map((c) => c.file).sort(), [...left].sort());
    assert.deepEqual((await planPush(client, io)).changes, []);
    for (let index = 0; index < PROMPTS; index++) {
      assert.equal((await client.get(prompts, idOf(index), tenantId)).description, `edited ${index}`);
    }
  });
});
