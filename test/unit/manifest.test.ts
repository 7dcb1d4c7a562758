import * as assert from 'node:assert/strict';
import { kindById } from '../../src/core/resources';
import { MemoryFolder } from '../../src/core/tenant/memory-folder';
import {
  loadManifest,
  MANIFEST_FILE,
  readManifest,
  type Manifest,
  type PulledResource,
} from '../../src/core/tenant/manifest';
import { writeManifest } from '../../src/core/tenant/manifest-writer';
import { folderValues } from '../../src/core/tenant/folder-values';
import { pulledState } from '../../src/core/tenant/pulled-state';
import { fingerprintsOf, fingerprintText } from '../../src/core/tenant/field-fingerprints';

const prompt = kindById('prompt');

function entry(id: number, name: string): PulledResource {
  const values = folderValues(prompt, { id, name, system: `Text of ${name}.`, max_tokens: 300 });
  return {
    segment: 'ai_prompts',
    id,
    file: `ai_prompts/${name.toLowerCase()}.json`,
    name,
    ...pulledState(prompt, id, values),
  };
}

const manifest: Manifest = {
  connection: 'local',
  baseUrl: 'http://127.0.0.1:1',
  tenantId: 1,
  resources: [entry(2, 'Triage'), entry(3, 'Refunds')],
  pending: [{ segment: 'intents', file: 'intents/new.json', name: 'New' }],
};

/** The manifest as plain data: what a reader gets whatever the layout it was read from. */
function plain(value: Manifest | undefined): unknown {
  return JSON.parse(JSON.stringify(value ?? null)) as unknown;
}

describe('tenant folders: the manifest as plain data', () => {
  it('reads a manifest whatever its whitespace: as written, on one line, or indented by a formatter', async () => {
    const io = new MemoryFolder();
    await writeManifest(io, manifest);
    const written = plain(await readManifest(io));
    const value = JSON.parse(io.files.get(MANIFEST_FILE) ?? '') as unknown;
    for (const text of [
      JSON.stringify(value),
      JSON.stringify(value, null, 4),
      JSON.stringify(value, null, '\t').replaceAll('\n', '\r\n'),
    ]) {
      io.files.set(MANIFEST_FILE, text);
      assert.deepEqual(plain(await readManifest(io)), written);
    }
  });

  it('writes an entry edited in place as edited, and no property it does not know', async () => {
    const io = new MemoryFolder();
    await writeManifest(io, manifest);
    const loaded = (await loadManifest(io))?.manifest;
    assert.ok(loaded);
    const [second, first] = loaded.resources as [PulledResource, PulledResource];
    assert.deepEqual([first.name, second.name], ['Triage', 'Refunds'], 'read in the order written: by file');
    // Entries are read-only to the type checker; at run time an edit in place must still be written as it is.
    (first as { name: string }).name = 'Renamed';
    const extended = { ...second, files: 'another', cached: 'never written' };
    await writeManifest(io, { ...loaded, resources: [first, extended] });
    const text = io.files.get(MANIFEST_FILE) ?? '';
    assert.match(text, /"name":"Renamed"/);
    assert.doesNotMatch(text, /never written/);
    const again = (await readManifest(io))?.resources.map((e) => [e.name, e.files]);
    assert.deepEqual(again, [
      ['Refunds', 'another'],
      ['Renamed', first.files],
    ]);
  });

  it('writes an entry per line in the layout earlier versions read line by line, and reads fingerprints written as an object', async () => {
    const io = new MemoryFolder();
    await writeManifest(io, manifest);
    const lines = (io.files.get(MANIFEST_FILE) ?? '').split('\n');
    assert.deepEqual(lines.slice(0, 5), [
      '{',
      '  "connection": "local",',
      '  "baseUrl": "http://127.0.0.1:1",',
      '  "tenantId": 1,',
      '  "resources": [',
    ]);
    assert.match(lines[5] ?? '', /^ {4}\{"segment":"ai_prompts","id":3,"file":"ai_prompts\/refunds\.json",.*\},$/);
    assert.match(lines[6] ?? '', /^ {4}\{"segment":"ai_prompts","id":2,.*\}$/);
    assert.deepEqual(lines.slice(7), [
      '  ],',
      '  "pending": [',
      '    {"segment":"intents","file":"intents/new.json","name":"New"}',
      '  ]',
      '}',
      '',
    ]);
    // The version before this one kept each entry's fingerprints as an object.
    const [refunds] = manifest.resources.filter((e) => e.id === 3);
    const asObject = Object.fromEntries(fingerprintsOf(refunds?.fields ?? ''));
    io.files.set(MANIFEST_FILE, JSON.stringify({ ...manifest, resources: [{ ...refunds, fields: asObject }] }));
    assert.deepEqual((await readManifest(io))?.resources[0]?.fields, refunds?.fields);
  });

  it("keeps a field's name with a space, a colon or a percent sign in its fingerprints' text", () => {
    const fingerprints = new Map([
      ['a b:c', '=1'],
      ['100%', '0123456789abcdef'],
      ['plain', '=null'],
    ]);
    const text = fingerprintText(fingerprints);
    assert.equal(text.split(' ').length, 3, text);
    assert.deepEqual(fingerprintsOf(text), fingerprints);
  });

  it('names the entry and the field of a manifest that is not one, and says a file that is no JSON is none', async () => {
    const io = new MemoryFolder();
    io.files.set(MANIFEST_FILE, JSON.stringify({ ...manifest, resources: [{ ...manifest.resources[0], id: 'two' }] }));
    await assert.rejects(readManifest(io), /convai-tenant\.json: resources\[0\]\.id must be an integer/);
    io.files.set(MANIFEST_FILE, '{"connection": "local",');
    await assert.rejects(
      readManifest(io),
      /convai-tenant\.json is not valid JSON; pull the tenant again into a new folder/,
    );
  });
});
