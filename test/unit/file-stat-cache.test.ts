import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { JsonObject } from '../../src/core/json';
import { kindById } from '../../src/core/resources';
import { LIMITS } from '../../src/core/limits';
import {
  cacheLine,
  cacheText,
  parseCache,
  settled,
  statsDigest,
  type FileStat,
} from '../../src/core/tenant/file-stat-cache';
import type { FolderIO } from '../../src/core/tenant/folder-io';
import { DiskFolder } from '../../src/core/tenant/disk-folder';
import { type PulledResource } from '../../src/core/tenant/manifest';
import { writeManifest } from '../../src/core/tenant/manifest-writer';
import { localPlan } from '../../src/core/tenant/plan';
import { folderValues } from '../../src/core/tenant/folder-values';
import { pulledState } from '../../src/core/tenant/pulled-state';
import { writeResource } from '../../src/core/tenant/representation';
import { StatMemoryFolder } from './stat-memory-folder';

const prompt = kindById('prompt');
const intent = kindById('intent');

/** A folder as a pull leaves it: the manifest has each resource's hash of its files. */
async function pulled(io: FolderIO): Promise<void> {
  const resources: PulledResource[] = [];
  const add = async (
    segment: 'ai_prompts' | 'intents',
    kind: typeof prompt,
    detail: JsonObject,
    base: string,
  ): Promise<void> => {
    const values = folderValues(kind, detail);
    await writeResource(io, kind, detail.id as number, values, base);
    resources.push({
      segment,
      id: detail.id as number,
      file: `${base}.json`,
      name: String(detail.name),
      ...pulledState(kind, detail.id as number, values),
    });
  };
  await add(
    'ai_prompts',
    prompt,
    { id: 2, name: 'Order Triage', system: 'Be brief.', user_prompt: 'Classify {{message}}', next_prompt_id: 3 },
    'ai_prompts/order-triage',
  );
  await add('ai_prompts', prompt, { id: 3, name: 'Refunds', system: 'Refund politely.' }, 'ai_prompts/refunds');
  await add(
    'intents',
    intent,
    { id: 4, name: 'orders', display_name: 'Orders', intent_type: 2, parent_id: null, ai_prompt_id: 2 },
    'intents/orders',
  );
  await writeManifest(io, { connection: 'local', baseUrl: 'http://127.0.0.1:1', tenantId: 1, resources });
}

/** The resource files a scan read (the manifest and its journal left out). */
function resourceReads(io: StatMemoryFolder): string[] {
  return io.reads.filter((file) => file.includes('/'));
}

describe('the file stat cache: a plan reads only what changed since the last scan', () => {
  it('reads every file once, then none while their stamps stay, and finds the same values when asked', async () => {
    const io = new StatMemoryFolder();
    await pulled(io);
    assert.deepEqual((await localPlan(io)).changes, []);
    assert.equal(resourceReads(io).length, 6, 'every file of the three resources');
    io.reads.length = 0;
    const plan = await localPlan(io);
    assert.deepEqual(plan.changes, []);
    assert.deepEqual(resourceReads(io), [], 'nothing read: every stat is as cached');
    // A reader of the unchanged (suites affected by a push) still gets the file's values.
    const triage = plan.local.get('ai_prompts/order-triage.json');
    assert.equal(triage?.values.system, 'Be brief.');
    assert.equal(triage?.values.next_prompt_id, 3);
  });

  it('reads again the resource whose file changed, and finds its change', async () => {
    const io = new StatMemoryFolder();
    await pulled(io);
    await localPlan(io);
    io.reads.length = 0;
    io.files.set('ai_prompts/refunds.system.md', 'Refund at once.\n');
    const plan = await localPlan(io);
    assert.deepEqual(resourceReads(io), ['ai_prompts/refunds.json', 'ai_prompts/refunds.system.md']);
    assert.deepEqual(
      plan.changes.map((c) => [c.action, c.file, c.fields]),
      [['update', 'ai_prompts/refunds.json', ['system']]],
    );
  });

  it('reads again a resource whose entry in the manifest changed (a push recorded another state)', async () => {
    const io = new StatMemoryFolder();
    await pulled(io);
    await localPlan(io);
    const manifest = JSON.parse(io.files.get('convai-tenant.json') ?? '') as {
      resources: Array<{ file: string; files: string }>;
    };
    const entry = manifest.resources.find((r) => r.file === 'intents/orders.json');
    assert.ok(entry);
    entry.files = 'another';
    io.files.set('convai-tenant.json', JSON.stringify(manifest));
    io.reads.length = 0;
    await localPlan(io);
    assert.deepEqual(resourceReads(io), ['intents/orders.json']);
  });

  it('reads again a resource that gained a text file, and never trusts a stamps file of another version', async () => {
    const io = new StatMemoryFolder();
    await pulled(io);
    await localPlan(io);
    io.files.set('ai_prompts/refunds.user_prompt.md', 'Hello\n');
    io.reads.length = 0;
    const plan = await localPlan(io);
    assert.deepEqual(resourceReads(io), [
      'ai_prompts/refunds.json',
      'ai_prompts/refunds.user_prompt.md',
      'ai_prompts/refunds.system.md',
    ]);
    assert.deepEqual(
      plan.changes.map((c) => c.fields),
      [['user_prompt']],
    );
    for (const old of ['convai-folder-stamps 3', 'convai-file-stat-cache 1'])
      assert.equal(parseCache(`${old}\nintents/orders.json\tx\t\t1:2:3:4\n`).size, 0);
  });

  it("digests the stats of a resource's files so that a change of any number, or of the files' order, changes the line", () => {
    // Times of today in microseconds pass 2^32 many times over; an inode may take all of a number's 53 bits.
    const json = { size: 812, mtimeMs: 1_764_617_409_123.456, ctimeMs: 1_764_617_409_123.456, ino: 2 ** 53 - 3 };
    const text = { size: 40, mtimeMs: 1_764_617_409_124.001, ctimeMs: 1_764_617_409_124.001, ino: 9_120_331 };
    const seen = new Set([statsDigest([json, text]), statsDigest([text, json]), statsDigest([json]), statsDigest([])]);
    for (const field of ['size', 'mtimeMs', 'ctimeMs', 'ino'] as const) {
      seen.add(statsDigest([{ ...json, [field]: json[field] + 1 }, text]));
      seen.add(statsDigest([json, { ...text, [field]: text[field] + (field.endsWith('Ms') ? 0.001 : 1) }]));
    }
    assert.equal(seen.size, 12);
    assert.equal(statsDigest([json, undefined]), undefined, 'a file without a stat: nothing to cache');
  });

  it('trusts a stat only when the file had settled before it was taken', () => {
    const SETTLED_MS = LIMITS.coarseStatSettle.value;
    const FINE_SETTLED_MS = LIMITS.fineStatSettle.value;
    const settledStamp = (stat: FileStat, takenAt: number): boolean => settled(stat, takenAt);
    const coarse = { size: 10, mtimeMs: 1_000, ctimeMs: 2_000, ino: 7 };
    assert.equal(settledStamp(coarse, 2_000 + SETTLED_MS), true);
    assert.equal(settledStamp(coarse, 2_000 + SETTLED_MS - 1), false, 'the later of the two times counts');
    // A clock that keeps fractions of a second moves in ticks of at most a few milliseconds.
    const fine = { size: 10, mtimeMs: 1_000.25, ctimeMs: 1_500.25, ino: 7 };
    assert.equal(settledStamp(fine, 1_500.25 + FINE_SETTLED_MS), true);
    assert.equal(settledStamp(fine, 1_500.25 + FINE_SETTLED_MS - 1), false);
    assert.equal(
      settledStamp({ ...coarse, ctimeMs: 2_000.5 }, 2_000.5 + FINE_SETTLED_MS),
      true,
      'one fine time shows the clock is fine',
    );
    const line = cacheLine('intents/orders.json', 'h', [], '10:1000:1500:7');
    assert.deepEqual([...parseCache(cacheText([line]))], [['intents/orders.json', line]]);
  });

  it('on disk, keeps no stat of files written a moment ago, and nothing in the folder', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-stat-cache-'));
    const statCacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-stat-cache-dir-'));
    try {
      const io = new DiskFolder(root, { statCacheDir, blocking: true });
      await pulled(io);
      // Changed just now, whatever the time the pull took: both times are set to this moment.
      const now = new Date();
      for (const file of fs.readdirSync(root, { recursive: true, encoding: 'utf8' }))
        fs.utimesSync(path.join(root, file), now, now);
      assert.deepEqual((await localPlan(io)).changes, []);
      // An edit within the clock's tick of the pull's write would keep the time: these files are read again next time.
      assert.deepEqual(fs.readdirSync(statCacheDir), []);
      assert.deepEqual(fs.readdirSync(root).sort(), ['ai_prompts', 'convai-tenant.json', 'intents']);
      assert.equal(new DiskFolder(root, { statCacheDir: null }).statCache, undefined);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(statCacheDir, { recursive: true, force: true });
    }
  });
});
