import * as assert from 'node:assert/strict';
import { MemoryFolder } from '../../src/core/tenant/memory-folder';
import type { Manifest } from '../../src/core/tenant/manifest';
import { pulledObjects } from '../../src/core/tenant/pulled-objects';

describe("a pulled folder's objects of some kinds, for a delete's reference warning", () => {
  const entry = (
    segment: Manifest['resources'][number]['segment'],
    id: number,
    file: string,
  ): Manifest['resources'][number] => ({ segment, id, file, name: file, fields: '' });
  const manifest: Manifest = {
    connection: 'local',
    baseUrl: 'http://127.0.0.1:1',
    tenantId: 1,
    resources: [
      entry('ai_prompts', 3, 'ai_prompts/start.json'),
      entry('ai_prompts', 4, 'ai_prompts/broken.json'),
      entry('ai_prompts', 5, 'ai_prompts/gone.json'),
      entry('intents', 6, 'intents/greet.json'),
      entry('agents', 7, 'agents/bot.json'),
    ],
  };

  it('reads the listed files of those kinds alone, as they are now, with their manifest ids; a broken or missing file is skipped', async () => {
    const io = new MemoryFolder(
      new Map([
        ['ai_prompts/start.json', '{ "name": "Start", "next_prompt_id": 9 }'],
        ['ai_prompts/broken.json', '{ "name": '],
        ['intents/greet.json', '{ "name": "greet", "ai_prompt_id": 9 }'],
        ['agents/bot.json', '{ "name": "bot" }'],
      ]),
    );
    const read: string[] = [];
    const readOne = io.read.bind(io);
    io.read = (file) => {
      read.push(file);
      return readOne(file);
    };
    assert.deepEqual(await pulledObjects(io, manifest, ['ai_prompts', 'intents']), {
      ai_prompts: [{ name: 'Start', next_prompt_id: 9, id: 3 }],
      intents: [{ name: 'greet', ai_prompt_id: 9, id: 6 }],
    });
    assert.deepEqual(
      read.sort(),
      ['ai_prompts/broken.json', 'ai_prompts/gone.json', 'ai_prompts/start.json', 'intents/greet.json'],
      'no agent file was read',
    );
  });
});
