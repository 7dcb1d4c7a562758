import * as assert from 'node:assert/strict';
import { hash } from 'node:crypto';
import type { JsonObject } from '../../src/core/json';
import { Deadlines, SLICE_MS } from '../../src/core/deadlines';
import { kindById } from '../../src/core/resources';
import { MemoryFolder } from '../../src/core/tenant/memory-folder';
import { unsafePath } from '../../src/core/tenant/folder-paths';
import { loadManifest, MANIFEST_FILE, type Manifest } from '../../src/core/tenant/manifest';
import { writeManifest } from '../../src/core/tenant/manifest-writer';
import { localPlan } from '../../src/core/tenant/plan';
import {
  fieldHashes,
  fingerprintsOf,
  fingerprintText,
  sameFingerprint,
  fieldFingerprint,
} from '../../src/core/tenant/field-fingerprints';
import { folderValues } from '../../src/core/tenant/folder-values';
import { changedFields, pulledState } from '../../src/core/tenant/pulled-state';
import { filesHash, resourceTexts } from '../../src/core/tenant/resource-files';
import { unchangedSincePull, writeResource } from '../../src/core/tenant/representation';

const prompt = kindById('prompt');
const detail: JsonObject = {
  id: 7,
  name: 'Welcome',
  description: 'A rather longer description than a fingerprint keeps as itself',
  prompt_type: 1,
  mode: 1,
  user_prompt: 'Hello {{name}}',
  system: 'Be kind.',
  assistant: null,
  temparature: 0.2,
  max_tokens: 300,
  settings: '{"language": "en"}',
};

/** How fingerprints were written before short values were kept as themselves: every one a hash. */
function olderFingerprint(canonicalJson: string): string {
  return hash('sha256', canonicalJson, 'hex').slice(0, 16);
}

async function pulledFolder(
  manifestFields?: Record<string, string>,
): Promise<{ io: MemoryFolder; manifest: Manifest }> {
  const io = new MemoryFolder();
  const values = folderValues(prompt, detail);
  await writeResource(io, prompt, 7, values, 'ai_prompts/welcome');
  const state = pulledState(prompt, 7, values);
  const manifest: Manifest = {
    connection: 'c',
    baseUrl: 'http://127.0.0.1:1',
    tenantId: 1,
    resources: [
      {
        segment: 'ai_prompts',
        id: 7,
        file: 'ai_prompts/welcome.json',
        name: 'Welcome',
        ...(manifestFields ? { fields: fingerprintText(Object.entries(manifestFields)) } : state),
      },
    ],
  };
  await writeManifest(io, manifest);
  return { io, manifest };
}

describe('tenant folders: what a manifest keeps of the pulled state', () => {
  it('keeps a short value as itself and a long one as a hash, and knows each again', () => {
    const values = folderValues(prompt, detail);
    const fields = Object.fromEntries(fingerprintsOf(fieldHashes(values)));
    assert.equal(fields.max_tokens, '=300');
    assert.equal(fields.assistant, '=null');
    assert.match(fields.description ?? '', /^[0-9a-f]{16}$/);
    for (const field of Object.keys(values))
      assert.ok(sameFingerprint(fields[field], values[field] as JsonObject[string]), field);
    assert.equal(sameFingerprint(fields.max_tokens, 301), false);
    assert.equal(sameFingerprint(fields.description, 'another text'), false);
  });

  it('keeps a number or a boolean as its JSON, the longest number too', () => {
    for (const value of [300, -0, 0.1 + 0.2, 1e21, -1.5e-7, Number.MAX_VALUE, -2.2250738585072014e-308, true, false]) {
      const kept = fieldFingerprint(value);
      assert.equal(kept, `=${JSON.stringify(value)}`, String(value));
      assert.ok(sameFingerprint(kept, value), String(value));
      assert.equal(fingerprintsOf(fieldHashes({ value })).get('value'), kept, String(value));
    }
  });

  it('still reads the hashes of folders pulled before: an unchanged field is no change', () => {
    const values = folderValues(prompt, detail);
    const older = Object.fromEntries(
      Object.entries(values).map(([field, value]) => [field, olderFingerprint(JSON.stringify(value))]),
    );
    older.settings = olderFingerprint('{"language":"en"}');
    const text = fingerprintText(Object.entries(older));
    assert.deepEqual(changedFields(prompt, 7, values, { fields: text }), []);
    assert.deepEqual(changedFields(prompt, 7, { ...values, max_tokens: 5 }, { fields: text }), ['max_tokens']);
  });

  it('tells values whose files would be those pulled by one hash, and a changed one field by field', () => {
    const values = folderValues(prompt, detail);
    const state = pulledState(prompt, 7, values);
    assert.equal(state.files, filesHash(resourceTexts(prompt, 7, values)));
    assert.deepEqual(changedFields(prompt, 7, values, state), []);
    assert.deepEqual(changedFields(prompt, 7, { ...values, system: 'Be brief.' }, state), ['system']);
  });

  it('writes an entry per line with its fingerprints, and reads them back as they were', async () => {
    const { io, manifest } = await pulledFolder();
    const text = io.files.get(MANIFEST_FILE) ?? '';
    const [line] = text.split('\n').filter((l) => l.includes('"ai_prompts/welcome.json"'));
    assert.ok(line, text);
    assert.match(line, /"fields":"assistant:=null .*max_tokens:=300 .*name:=\\"Welcome\\" /);
    const loaded = await loadManifest(io);
    assert.deepEqual(loaded?.manifest.resources[0]?.fields, manifest.resources[0]?.fields);
    await writeManifest(io, loaded?.manifest as Manifest);
    assert.equal(io.files.get(MANIFEST_FILE), text, 'a manifest read and written again is the same text');
  });

  it('reads a manifest whose fingerprints are an object, as the version before this one wrote them', async () => {
    const io = new MemoryFolder();
    const values = folderValues(prompt, detail);
    await writeResource(io, prompt, 7, values, 'ai_prompts/welcome');
    const entry = {
      segment: 'ai_prompts',
      id: 7,
      file: 'ai_prompts/welcome.json',
      name: 'Welcome',
      fields: Object.fromEntries(fingerprintsOf(fieldHashes(values))),
    };
    io.files.set(
      MANIFEST_FILE,
      JSON.stringify({ connection: 'c', baseUrl: 'http://127.0.0.1:1', tenantId: 1, resources: [entry] }, null, 2),
    );
    const plan = await localPlan(io);
    assert.deepEqual(plan.changes, []);
    assert.deepEqual(plan.problems, []);
  });

  it('plans nothing for a file whose text changed but whose values did not (reformatted), and an edit for a changed value', async () => {
    const { io } = await pulledFolder();
    const json = io.files.get('ai_prompts/welcome.json') ?? '';
    io.files.set('ai_prompts/welcome.json', JSON.stringify(JSON.parse(json)));
    assert.deepEqual((await localPlan(io)).changes, []);
    io.files.set('ai_prompts/welcome.system.md', 'Be brief.');
    assert.deepEqual(
      (await localPlan(io)).changes.map((c) => [c.action, c.fields]),
      [['update', ['system']]],
    );
  });

  it('reads the text files of a folder pulled before they ended in a newline as pulled, a text ending in a newline too', async () => {
    const io = new MemoryFolder();
    const values = folderValues(prompt, { ...detail, system: 'Ends in a newline.\n' });
    await writeResource(io, prompt, 7, values, 'ai_prompts/welcome');
    // As an older pull wrote them: each text exactly, no newline added.
    io.files.set('ai_prompts/welcome.system.md', 'Ends in a newline.\n');
    io.files.set('ai_prompts/welcome.user_prompt.md', 'Hello {{name}}');
    const entry = {
      segment: 'ai_prompts' as const,
      id: 7,
      file: 'ai_prompts/welcome.json',
      name: 'Welcome',
      ...pulledState(prompt, 7, values),
    };
    await writeManifest(io, { connection: 'c', baseUrl: 'http://127.0.0.1:1', tenantId: 1, resources: [entry] });
    assert.deepEqual((await localPlan(io)).changes, []);
    assert.equal(await unchangedSincePull(io, entry), true);
    io.files.set('ai_prompts/welcome.system.md', 'Ends in a newline.\nMore.\n');
    assert.deepEqual(
      (await localPlan(io)).changes.map((c) => [c.action, c.fields]),
      [['update', ['system']]],
    );
  });

  it('takes a removed field for a change of the files, though a plan sends nothing for it', async () => {
    const { io, manifest } = await pulledFolder();
    const [entry] = manifest.resources;
    assert.ok(entry);
    assert.equal(await unchangedSincePull(io, entry), true);
    const json = JSON.parse(io.files.get('ai_prompts/welcome.json') ?? '') as JsonObject;
    delete json.max_tokens;
    io.files.set('ai_prompts/welcome.json', JSON.stringify(json));
    assert.equal(await unchangedSincePull(io, entry), false);
    assert.deepEqual((await localPlan(io)).changes, []);
  });
});

describe('tenant folders: the quick path check', () => {
  it('still refuses device names and other unsafe names among plain ones', () => {
    assert.equal(unsafePath('ai_prompts/bulk-prompt-1.json'), undefined);
    assert.equal(unsafePath('convai-tenant.json'), undefined);
    assert.equal(unsafePath('ai_prompts/console.json'), undefined);
    assert.match(unsafePath('ai_prompts/con.json') ?? '', /device name \(CON\)/);
    assert.match(unsafePath('ai_prompts/COM1.system.md') ?? '', /device name \(COM1\)/);
    assert.match(unsafePath('ai_prompts/../x.json') ?? '', /outside/);
    assert.match(unsafePath('ai_prompts/x.json.') ?? '', /ending in a dot/);
  });
});

describe('request deadlines', () => {
  it('share a signal within a slice for one time-out, and take a new one after it or for another time-out', () => {
    const deadlines = new Deadlines();
    const first = deadlines.signal(30_000, 1_000);
    assert.equal(deadlines.signal(30_000, 1_000 + SLICE_MS), first);
    assert.notEqual(deadlines.signal(30_000, 1_000 + SLICE_MS + 1), first);
    const other = deadlines.signal(5_000, 1_000 + SLICE_MS + 1);
    assert.notEqual(other, first);
  });

  it("join a caller's cancellation once per slice and caller, and abort with it", () => {
    const deadlines = new Deadlines();
    const caller = new AbortController();
    const first = deadlines.forCall(caller.signal, 30_000, 1_000);
    assert.equal(deadlines.forCall(undefined, 30_000, 1_000).signal, first.deadline, 'no caller: the deadline itself');
    assert.notEqual(first.signal, first.deadline);
    assert.equal(
      deadlines.forCall(caller.signal, 30_000, 1_000 + SLICE_MS).signal,
      first.signal,
      'the same caller in the slice',
    );
    const another = new AbortController();
    const second = deadlines.forCall(another.signal, 30_000, 1_000 + SLICE_MS);
    assert.equal(second.deadline, first.deadline);
    assert.notEqual(second.signal, first.signal, 'another caller');
    assert.notEqual(
      deadlines.forCall(another.signal, 30_000, 1_000 + SLICE_MS + 1).signal,
      second.signal,
      'a new slice',
    );
    caller.abort();
    assert.equal(first.signal.aborted, true);
    assert.equal(first.deadline.aborted, false);
    assert.equal(second.signal.aborted, false);
  });

  it('fire as a time-out, not at once', async () => {
    const later = new Deadlines().signal(60_000);
    await new Promise(setImmediate);
    assert.equal(later.aborted, false, 'a turn of the event loop later');
    const signal = new Deadlines().signal(20);
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    assert.equal((signal.reason as Error).name, 'TimeoutError');
  });
});
