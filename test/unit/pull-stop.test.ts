import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import type { ResourceKind } from '../../src/core/resource-kind';
import { diskFolder, memoryFolder } from '../../src/core/tenant/folder-io';
import { MANIFEST_FILE, readManifest } from '../../src/core/tenant/manifest';
import { localPlan } from '../../src/core/tenant/plan';
import { pullTenant } from '../../src/core/tenant/pull';
import type { JsonObject } from '../../src/core/json';
import { startService, type RunningService } from '../service/server';
import { bulkTenantName } from '../service/sample-data';
import { LIMITS } from '../../src/core/limits';

/** More than a batch of details, so a pull stopped in the second batch has written the first. */
const PROMPTS = 620;
/** More than a pull writes without a thread of its own (LIMITS.threadedPull): a tenant the service seeds. */
const BULK_PROMPTS = LIMITS.threadedPull.value + 100;

/** A client whose detail GETs fail from the `failFrom`th on: a pull stopped midway (a lost connection, Cancel). */
class StoppingClient extends ServiceClient {
  gets = 0;
  failFrom = Infinity;

  override async get(kind: ResourceKind, id: number, tenantId?: number): Promise<JsonObject> {
    if (kind.id === 'prompt' && ++this.gets >= this.failFrom) throw new Error('the connection was lost');
    return super.get(kind, id, tenantId);
  }
}

describe('pull: stopped midway', () => {
  let service: RunningService;
  let client: StoppingClient;
  let tenantId: number;
  let bulkTenantId: number;

  before(async () => {
    service = await startService({ adminToken: 'pull-stop-admin-token', bulkTenants: { count: 1, promptsEach: BULK_PROMPTS } });
    client = new StoppingClient({ baseUrl: service.url, token: () => service.adminToken });
    bulkTenantId = ((await client.list(kindById('tenant'))).find((tenant) => tenant.name === bulkTenantName(0))?.id as number);
    tenantId = (await client.create(kindById('tenant'), { name: 'Stopped', email: 's@example.com' })).id as number;
    for (let index = 0; index < PROMPTS; index++) await client.create(kindById('prompt'), { name: `Prompt ${index}`, system: `Text ${index}.` }, tenantId);
  });
  after(async () => {
    await client.close();
    await service.close();
  });

  it('leaves a manifest that matches the files written, and the next pull completes the folder', async () => {
    const io = memoryFolder();
    const target = { connection: 'local', baseUrl: service.url, tenantId };
    client.failFrom = 550;
    await assert.rejects(pullTenant(client, io, target), /connection was lost/);
    const manifest = await readManifest(io);
    assert.ok(manifest, 'the manifest of what was written');
    const jsonFiles = [...io.files.keys()].filter((file) => file.endsWith('.json') && file !== MANIFEST_FILE).sort();
    assert.deepEqual(manifest.resources.map((entry) => entry.file).sort(), jsonFiles);
    assert.ok(jsonFiles.length > 0 && jsonFiles.length < PROMPTS + 1, `${jsonFiles.length} files: some, not all`);
    assert.deepEqual((await localPlan(io)).changes, [], 'what was written plans as pulled');

    client.failFrom = Infinity;
    const result = await pullTenant(client, io, target);
    assert.equal(result.resources, PROMPTS + 1);
    assert.equal((await readManifest(io))?.resources.length, PROMPTS + 1);
    assert.deepEqual((await localPlan(io)).changes, []);
  });

  it('on disk, where a thread writes each batch while the next is fetched, stops at a file it cannot write with the manifest of what it wrote', async function () {
    // Two pulls of a tenant large enough for the thread into a folder on disk: as long as the disk takes.
    this.timeout(60_000);
    const scratch = mkdtempSync(join(tmpdir(), 'convai-pull-stop-'));
    try {
      const root = join(scratch, 'tenant');
      // A folder where a prompt of a later batch has its text file: the disk refuses to write it.
      const blocked = join(root, 'ai_prompts', 'bulk-prompt-2000.system.md');
      mkdirSync(blocked, { recursive: true });
      const target = { connection: 'local', baseUrl: service.url, tenantId: bulkTenantId };
      await assert.rejects(pullTenant(client, diskFolder(root, { stampsDir: null }), target), (error: unknown) => (error as NodeJS.ErrnoException).code === 'EISDIR' && /bulk-prompt-2000\.system\.md/.test((error as Error).message));
      const io = diskFolder(root, { stampsDir: null });
      const manifest = await readManifest(io);
      assert.ok(manifest, 'the manifest of what was written');
      const files = new Set(manifest.resources.map((entry) => entry.file));
      assert.ok(files.size >= 500 && files.size < BULK_PROMPTS + 1, `${files.size} resources pulled: the first batch at least, not all`);
      assert.equal(files.has('ai_prompts/bulk-prompt-2000.json'), false, 'the prompt whose text was not written is not pulled');
      // Its JSON file may be there, a resource of the folder's own; every pulled one plans as pulled.
      assert.deepEqual((await localPlan(io)).changes.filter((change) => change.file !== 'ai_prompts/bulk-prompt-2000.json'), []);

      rmSync(blocked, { recursive: true });
      const result = await pullTenant(client, io, target);
      assert.equal(result.resources, BULK_PROMPTS + 1);
      assert.equal((await readManifest(io))?.resources.length, BULK_PROMPTS + 1);
      assert.deepEqual((await localPlan(io)).changes, [], 'the next pull completed the folder');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('keeps, pulling into the unchanged folder, the stamps of the files it found as pulled: the plan after it reads none', async () => {
    const io = memoryFolder();
    const target = { connection: 'local', baseUrl: service.url, tenantId };
    await pullTenant(client, io, target);
    await pullTenant(client, io, target);
    const read: string[] = [];
    const readMany = io.readMany.bind(io);
    io.readMany = (files) => {
      read.push(...files);
      return readMany(files);
    };
    assert.deepEqual((await localPlan(io)).changes, []);
    assert.deepEqual(read, [], 'every resource was found as pulled by its stamps');
    io.files.set('ai_prompts/prompt-7.system.md', 'Edited.\n');
    assert.deepEqual((await localPlan(io)).changes.map((change) => change.file), ['ai_prompts/prompt-7.json']);
  });

  it('reads no file of a resource pulled again whose files carry their kept stamps, and reads an edited one', async () => {
    const io = memoryFolder();
    const target = { connection: 'local', baseUrl: service.url, tenantId };
    await pullTenant(client, io, target);
    await pullTenant(client, io, target);
    const read: string[] = [];
    const [readOne, readMany] = [io.read.bind(io), io.readMany.bind(io)];
    io.read = (file) => {
      read.push(file);
      return readOne(file);
    };
    io.readMany = (files) => {
      read.push(...files);
      return readMany(files);
    };
    const manifest = io.files.get(MANIFEST_FILE);
    const again = await pullTenant(client, io, target);
    assert.deepEqual([again.written, again.kept, read.filter((file) => file.includes('/'))], [[], [], []], 'no resource file: found as pulled by their stamps alone');
    assert.equal(io.files.get(MANIFEST_FILE), manifest, 'the manifest is written again as it was');
    io.files.set('ai_prompts/prompt-7.system.md', 'Edited.\n');
    const edited = await pullTenant(client, io, target);
    assert.ok(read.includes('ai_prompts/prompt-7.system.md'), 'the edited file is read');
    assert.deepEqual(edited.kept, [{ file: 'ai_prompts/prompt-7.system.md', fields: ['system'] }]);
    assert.equal(io.files.get('ai_prompts/prompt-7.system.md'), 'Edited.\n', 'the edit is kept');
  });
});
