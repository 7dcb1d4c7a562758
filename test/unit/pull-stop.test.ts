import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../src/core/client';
import { kindById } from '../../src/core/resources';
import type { ResourceKind } from '../../src/core/resource-kind';
import { DiskFolder } from '../../src/core/tenant/disk-folder';
import { MemoryFolder } from '../../src/core/tenant/memory-folder';
import { JOURNAL_FILE, MANIFEST_FILE, readManifest } from '../../src/core/tenant/manifest';
import { localPlan } from '../../src/core/tenant/plan';
import { pullTenant } from '../../src/core/tenant/pull';
import type { JsonObject } from '../../src/core/json';
import { startService, type RunningService } from '../service/server';
import { bulkTenantName } from '../service/sample-data';
import { LIMITS } from '../../src/core/limits';
import { StatMemoryFolder } from './stat-memory-folder';

/** More than a batch of details, so a pull stopped in the second batch has written the first. */
const PROMPTS = 620;
/** More than a pull writes without a worker (LIMITS.workerPull): a tenant the service seeds. */
const BULK_PROMPTS = LIMITS.workerPull.value + 100;

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
    service = await startService({
      adminToken: 'pull-stop-admin-token',
      bulkTenants: { count: 1, promptsEach: BULK_PROMPTS },
    });
    client = new StoppingClient({ baseUrl: service.url, token: () => service.adminToken });
    bulkTenantId = (await client.list(kindById('tenant'))).find((tenant) => tenant.name === bulkTenantName(0))
      ?.id as number;
    tenantId = (await client.create(kindById('tenant'), { name: 'Stopped', email: 's@example.com' })).id as number;
    for (let index = 0; index < PROMPTS; index++)
      await client.create(kindById('prompt'), { name: `Prompt ${index}`, system: `Text ${index}.` }, tenantId);
  });
  after(async () => {
    await client.close();
    await service.close();
  });

  it('leaves a manifest that matches the files written, and the next pull completes the folder', async () => {
    const io = new MemoryFolder();
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

  it('on disk, where a worker writes each batch while the next is fetched, stops at a file it cannot write with the manifest of what it wrote', async function () {
    // Two pulls of a tenant large enough for the worker into a folder on disk: as long as the disk takes.
    this.timeout(60_000);
    const scratch = mkdtempSync(join(tmpdir(), 'convai-pull-stop-'));
    try {
      const root = join(scratch, 'tenant');
      // A folder where a prompt of a later batch has its text file: the disk refuses to write it.
      const blocked = join(root, 'ai_prompts', 'bulk-prompt-2000.system.md');
      mkdirSync(blocked, { recursive: true });
      const target = { connection: 'local', baseUrl: service.url, tenantId: bulkTenantId };
      await assert.rejects(
        pullTenant(client, new DiskFolder(root, { statCacheDir: null }), target),
        (error: unknown) =>
          (error as NodeJS.ErrnoException).code === 'EISDIR' &&
          /bulk-prompt-2000\.system\.md/.test((error as Error).message),
      );
      const io = new DiskFolder(root, { statCacheDir: null });
      const manifest = await readManifest(io);
      assert.ok(manifest, 'the manifest of what was written');
      const files = new Set(manifest.resources.map((entry) => entry.file));
      assert.ok(
        files.size >= 500 && files.size < BULK_PROMPTS + 1,
        `${files.size} resources pulled: the first batch at least, not all`,
      );
      assert.equal(
        files.has('ai_prompts/bulk-prompt-2000.json'),
        false,
        'the prompt whose text was not written is not pulled',
      );
      // Its JSON file may be there, a resource of the folder's own; every pulled one plans as pulled.
      assert.deepEqual(
        (await localPlan(io)).changes.filter((change) => change.file !== 'ai_prompts/bulk-prompt-2000.json'),
        [],
      );

      rmSync(blocked, { recursive: true });
      const result = await pullTenant(client, io, target);
      assert.equal(result.resources, BULK_PROMPTS + 1);
      assert.equal((await readManifest(io))?.resources.length, BULK_PROMPTS + 1);
      assert.deepEqual((await localPlan(io)).changes, [], 'the next pull completed the folder');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('keeps, pulling into the unchanged folder, the cached stats of the files it found as pulled: the plan after it reads none', async () => {
    const io = new StatMemoryFolder();
    const target = { connection: 'local', baseUrl: service.url, tenantId };
    await pullTenant(client, io, target);
    await pullTenant(client, io, target);
    io.reads.length = 0;
    assert.deepEqual((await localPlan(io)).changes, []);
    assert.deepEqual(io.reads, [MANIFEST_FILE, JOURNAL_FILE], 'every resource was found as pulled by its cached stats');
    io.files.set('ai_prompts/prompt-7.system.md', 'Edited.\n');
    assert.deepEqual(
      (await localPlan(io)).changes.map((change) => change.file),
      ['ai_prompts/prompt-7.json'],
    );
  });

  it('reads no file of a resource pulled again whose files have their cached stats, and reads an edited one', async () => {
    const io = new StatMemoryFolder();
    const target = { connection: 'local', baseUrl: service.url, tenantId };
    await pullTenant(client, io, target);
    await pullTenant(client, io, target);
    const read = io.reads;
    read.length = 0;
    const manifest = io.files.get(MANIFEST_FILE);
    const again = await pullTenant(client, io, target);
    assert.deepEqual(
      [again.written, again.kept, read.filter((file) => file.includes('/'))],
      [[], [], []],
      'no resource file: found as pulled by their cached stats alone',
    );
    assert.equal(io.files.get(MANIFEST_FILE), manifest, 'the manifest is written again as it was');
    io.files.set('ai_prompts/prompt-7.system.md', 'Edited.\n');
    const edited = await pullTenant(client, io, target);
    assert.ok(read.includes('ai_prompts/prompt-7.system.md'), 'the edited file is read');
    assert.deepEqual(edited.kept, [{ file: 'ai_prompts/prompt-7.system.md', fields: ['system'] }]);
    assert.equal(io.files.get('ai_prompts/prompt-7.system.md'), 'Edited.\n', 'the edit is kept');
  });
});
