import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { JsonObject } from '../../src/core/json';
import { kindById } from '../../src/core/resources';
import { FINE_SETTLED_MS, parseStamps, recordLine, settled, SETTLED_MS, StampDigest, stampsText, type FileStamp } from '../../src/core/tenant/file-stamps';
import { diskFolder, memoryFolder, type FolderIO } from '../../src/core/tenant/folder-io';
import { writeManifest, type Manifest } from '../../src/core/tenant/manifest';
import { localPlan } from '../../src/core/tenant/plan';
import { folderValues, pulledState, writeResource } from '../../src/core/tenant/representation';

const prompt = kindById('prompt');
const intent = kindById('intent');

/** A folder as a pull leaves it: the manifest has each resource's hash of its files. */
async function pulled(io: FolderIO): Promise<void> {
  const resources: Manifest['resources'] = [];
  const add = async (segment: 'ai_prompts' | 'intents', kind: typeof prompt, detail: JsonObject, base: string): Promise<void> => {
    const values = folderValues(kind, detail);
    await writeResource(io, kind, detail.id as number, values, base);
    resources.push({ segment, id: detail.id as number, file: `${base}.json`, name: String(detail.name), ...pulledState(kind, detail.id as number, values) });
  };
  await add('ai_prompts', prompt, { id: 2, name: 'Order Triage', system: 'Be brief.', user_prompt: 'Classify {{message}}', next_prompt_id: 3 }, 'ai_prompts/order-triage');
  await add('ai_prompts', prompt, { id: 3, name: 'Refunds', system: 'Refund politely.' }, 'ai_prompts/refunds');
  await add('intents', intent, { id: 4, name: 'orders', display_name: 'Orders', intent_type: 2, parent_id: null, ai_prompt_id: 2 }, 'intents/orders');
  await writeManifest(io, { connection: 'local', baseUrl: 'http://127.0.0.1:1', tenantId: 1, resources });
}

/** The resource files a scan reads, counted. */
function counted(io: ReturnType<typeof memoryFolder>): { io: ReturnType<typeof memoryFolder>; read: string[] } {
  const read: string[] = [];
  const readMany = io.readMany.bind(io);
  io.readMany = (files) => {
    read.push(...files);
    return readMany(files);
  };
  return { io, read };
}

describe('folder stamps: a plan reads only what changed since the last scan', () => {
  it('reads every file once, then none while their stamps stay, and finds the same values when asked', async () => {
    const { io, read } = counted(memoryFolder());
    await pulled(io);
    assert.deepEqual((await localPlan(io)).changes, []);
    assert.equal(read.length, 6, 'every file of the three resources');
    read.length = 0;
    const plan = await localPlan(io);
    assert.deepEqual(plan.changes, []);
    assert.deepEqual(read, [], 'nothing read: every stamp is as kept');
    // A reader of the unchanged (suites affected by a push) still gets the file's values.
    const triage = plan.local.get('ai_prompts/order-triage.json');
    assert.equal(triage?.values.system, 'Be brief.');
    assert.equal(triage?.values.next_prompt_id, 3);
  });

  it('reads again the resource whose file changed, and finds its change', async () => {
    const { io, read } = counted(memoryFolder());
    await pulled(io);
    await localPlan(io);
    read.length = 0;
    io.files.set('ai_prompts/refunds.system.md', 'Refund at once.\n');
    const plan = await localPlan(io);
    assert.deepEqual(read, ['ai_prompts/refunds.json', 'ai_prompts/refunds.system.md']);
    assert.deepEqual(plan.changes.map((c) => [c.action, c.file, c.fields]), [['update', 'ai_prompts/refunds.json', ['system']]]);
  });

  it('reads again a resource whose entry in the manifest changed (a push recorded another state)', async () => {
    const { io, read } = counted(memoryFolder());
    await pulled(io);
    await localPlan(io);
    const manifest = JSON.parse(io.files.get('convai-tenant.json') ?? '') as Manifest;
    const entry = manifest.resources.find((r) => r.file === 'intents/orders.json');
    assert.ok(entry);
    entry.files = 'another';
    io.files.set('convai-tenant.json', JSON.stringify(manifest));
    read.length = 0;
    await localPlan(io);
    assert.deepEqual(read, ['intents/orders.json']);
  });

  it('reads again a resource that gained a text file, and never trusts a stamps file of another version', async () => {
    const { io, read } = counted(memoryFolder());
    await pulled(io);
    await localPlan(io);
    io.files.set('ai_prompts/refunds.user_prompt.md', 'Hello\n');
    read.length = 0;
    const plan = await localPlan(io);
    assert.deepEqual(read, ['ai_prompts/refunds.json', 'ai_prompts/refunds.user_prompt.md', 'ai_prompts/refunds.system.md']);
    assert.deepEqual(plan.changes.map((c) => c.fields), [['user_prompt']]);
    for (const old of ['convai-folder-stamps 1', 'convai-folder-stamps 2']) assert.equal(parseStamps(`${old}\nintents/orders.json\tx\t\t1:2:3:4\n`).size, 0);
  });

  it('digests stamps so that a change of any number, or of their order, changes the text', () => {
    const digest = (...stamps: FileStamp[]): string => {
      const made = new StampDigest();
      for (const { size, mtimeMs, ctimeMs, ino } of stamps) made.add(size, mtimeMs, ctimeMs, ino);
      return made.text();
    };
    // Times of today in microseconds pass 2^32 many times over; an inode may take all of a number's 53 bits.
    const json = { size: 812, mtimeMs: 1_764_617_409_123.456, ctimeMs: 1_764_617_409_123.456, ino: 2 ** 53 - 3 };
    const text = { size: 40, mtimeMs: 1_764_617_409_124.001, ctimeMs: 1_764_617_409_124.001, ino: 9_120_331 };
    const seen = new Set([digest(json, text), digest(text, json), digest(json), digest()]);
    for (const field of ['size', 'mtimeMs', 'ctimeMs', 'ino'] as const) {
      seen.add(digest({ ...json, [field]: json[field] + 1 }, text));
      seen.add(digest(json, { ...text, [field]: text[field] + (field.endsWith('Ms') ? 0.001 : 1) }));
    }
    assert.equal(seen.size, 12);
    assert.equal(digest(json, text), digest({ ...json }, { ...text }), 'the same stamps, the same text');
  });

  it('trusts a stamp only when the file had settled before it was taken', () => {
    const settledStamp = ({ mtimeMs, ctimeMs }: FileStamp, takenAt: number): boolean => settled(mtimeMs, ctimeMs, takenAt);
    const coarse = { size: 10, mtimeMs: 1_000, ctimeMs: 2_000, ino: 7 };
    assert.equal(settledStamp(coarse, 2_000 + SETTLED_MS), true);
    assert.equal(settledStamp(coarse, 2_000 + SETTLED_MS - 1), false, 'the later of the two times counts');
    // A clock that keeps fractions of a second moves in ticks of at most a few milliseconds.
    const fine = { size: 10, mtimeMs: 1_000.25, ctimeMs: 1_500.25, ino: 7 };
    assert.equal(settledStamp(fine, 1_500.25 + FINE_SETTLED_MS), true);
    assert.equal(settledStamp(fine, 1_500.25 + FINE_SETTLED_MS - 1), false);
    assert.equal(settledStamp({ ...coarse, ctimeMs: 2_000.5 }, 2_000.5 + FINE_SETTLED_MS), true, 'one fine time shows the clock is fine');
    const line = recordLine('intents/orders.json', 'h', [], '10:1000:1500:7');
    assert.deepEqual([...parseStamps(stampsText([line]))], [['intents/orders.json', line]]);
  });

  it('on disk, keeps no stamp of files written a moment ago, and nothing in the folder', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-stamps-'));
    const stampsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-stamps-dir-'));
    try {
      const io = diskFolder(root, { stampsDir });
      await pulled(io);
      // Changed just now, whatever the time the pull took: both times are set to this moment.
      const now = new Date();
      for (const file of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) fs.utimesSync(path.join(root, file), now, now);
      assert.deepEqual((await localPlan(io)).changes, []);
      // An edit within the clock's tick of the pull's write would keep the time: these files are read again next time.
      assert.deepEqual(fs.readdirSync(stampsDir), []);
      assert.deepEqual(fs.readdirSync(root).sort(), ['ai_prompts', 'convai-tenant.json', 'intents']);
      assert.equal(diskFolder(root, { stampsDir: null }).stampStore, undefined);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(stampsDir, { recursive: true, force: true });
    }
  });
});
