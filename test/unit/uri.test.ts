import * as assert from 'node:assert/strict';
import {
  describeLocation,
  parseResourcePath,
  shortLabel,
  toResourcePath,
  toResourceUriString,
  wholeOf,
  type ResourceLocation,
} from '../../src/core/uri';

const layout: ReadonlyArray<[string, ResourceLocation]> = [
  ['/', { type: 'root', connection: 'prod' }],
  ['/tenants/', { type: 'tenants', connection: 'prod' }],
  ['/tenants/12.json', { type: 'tenant', connection: 'prod', tenantId: 12 }],
  ['/tenants/12/', { type: 'tenantFolder', connection: 'prod', tenantId: 12 }],
  ['/tenants/12/ai_prompts/', { type: 'kindFolder', connection: 'prod', tenantId: 12, segment: 'ai_prompts' }],
  [
    '/tenants/12/datasources/7.json',
    { type: 'resource', connection: 'prod', tenantId: 12, segment: 'datasources', id: 7 },
  ],
  [
    '/tenants/12/ai_prompts/3/',
    { type: 'partsFolder', connection: 'prod', tenantId: 12, segment: 'ai_prompts', id: 3 },
  ],
  [
    '/tenants/12/ai_prompts/3/system.md',
    { type: 'part', connection: 'prod', tenantId: 12, segment: 'ai_prompts', id: 3, part: 'system' },
  ],
  [
    '/tenants/12/ai_prompts/3/user_prompt.md',
    { type: 'part', connection: 'prod', tenantId: 12, segment: 'ai_prompts', id: 3, part: 'user_prompt' },
  ],
  [
    '/tenants/12/ai_prompts/3/assistant.md',
    { type: 'part', connection: 'prod', tenantId: 12, segment: 'ai_prompts', id: 3, part: 'assistant' },
  ],
  [
    '/tenants/12/ai_prompts/3/function_defs.json',
    { type: 'part', connection: 'prod', tenantId: 12, segment: 'ai_prompts', id: 3, part: 'function_defs' },
  ],
  [
    '/tenants/12/ai_prompts/3/settings.json',
    { type: 'part', connection: 'prod', tenantId: 12, segment: 'ai_prompts', id: 3, part: 'settings' },
  ],
  ['/tenants/12/agents/5/', { type: 'partsFolder', connection: 'prod', tenantId: 12, segment: 'agents', id: 5 }],
  [
    '/tenants/12/agents/5/prompts/',
    { type: 'agentPromptsFolder', connection: 'prod', tenantId: 12, segment: 'agents', id: 5 },
  ],
  [
    '/tenants/12/agents/5/prompts/Order help.md',
    { type: 'agentPrompt', connection: 'prod', tenantId: 12, segment: 'agents', id: 5, element: 'Order help' },
  ],
];

describe('convai URI codec', () => {
  for (const [path, location] of layout) {
    it(`round-trips ${path}`, () => {
      assert.equal(toResourcePath(location), path);
      assert.deepEqual(parseResourcePath('prod', path), location);
    });
  }

  it('reads folders without their trailing slash, as VS Code passes them', () => {
    assert.deepEqual(parseResourcePath('prod', '/tenants/12/intents'), {
      type: 'kindFolder',
      connection: 'prod',
      tenantId: 12,
      segment: 'intents',
    });
    assert.deepEqual(parseResourcePath('prod', '/tenants'), { type: 'tenants', connection: 'prod' });
  });

  it('builds the whole URI with the connection as authority', () => {
    assert.equal(
      toResourceUriString({ type: 'resource', connection: 'local', tenantId: 1, segment: 'agents', id: 3 }),
      'convai://local/tenants/1/agents/3.json',
    );
  });

  it('percent-encodes an agent element name in the URI text', () => {
    const uri = toResourceUriString({
      type: 'agentPrompt',
      connection: 'local',
      tenantId: 1,
      segment: 'agents',
      id: 3,
      element: 'Order help #1?',
    });
    assert.equal(uri, 'convai://local/tenants/1/agents/3/prompts/Order%20help%20%231%3F.md');
  });

  it('names a part by its field and its resource, with the resource name when known', () => {
    const part: ResourceLocation = {
      type: 'part',
      connection: 'local',
      tenantId: 1,
      segment: 'ai_prompts',
      id: 3,
      part: 'system',
    };
    assert.equal(describeLocation(part), 'system of AI Prompt 3 of tenant 1 on local');
    assert.equal(describeLocation(part, 'Order Triage'), 'system of "Order Triage" (AI Prompt 3 of tenant 1 on local)');
    const element: ResourceLocation = {
      type: 'agentPrompt',
      connection: 'local',
      tenantId: 1,
      segment: 'agents',
      id: 5,
      element: 'Greeting',
    };
    assert.equal(describeLocation(element), 'prompt of "Greeting" of Agent 5 of tenant 1 on local');
  });

  it('shortens a named label to the name, and leaves others whole', () => {
    assert.equal(shortLabel('"Order Triage" (AI Prompt 3 of tenant 1 on local)'), 'Order Triage');
    assert.equal(shortLabel('AI Prompt 3 of tenant 1 on local'), 'AI Prompt 3 of tenant 1 on local');
  });

  it('leads every part to its whole resource', () => {
    const whole = { type: 'resource', connection: 'local', tenantId: 1, segment: 'agents', id: 5 } as const;
    assert.deepEqual(wholeOf({ ...whole, type: 'agentPrompt', element: 'Greeting' }), whole);
    assert.deepEqual(wholeOf(whole), whole);
  });

  for (const [connection, path] of [
    ['prod', '/tenants/12/tenants/'],
    ['prod', '/tenants/x/'],
    ['prod', '/tenants/12/ai_prompts/3/name.md'],
    ['prod', '/tenants/12/ai_prompts/3/system.md/x'],
    ['prod', '/tenants/12/intents/3/system.md'],
    ['prod', '/tenants/12/agents/5/prompts/.md'],
    ['prod', '/tenants/12/agents/5/prompts/a.txt'],
    ['prod', '/tenants/12/agents/5/other/a.md'],
    ['prod', '/tenants/12/intents/3/'],
    ['prod', '/tenants/12/ai_prompts/3.json/x'],
    ['prod', '/tenants/01.json'],
    ['prod', '/tenants//ai_prompts/'],
    ['prod', '/other/'],
    ['Prod', '/tenants/'],
    ['a'.repeat(41), '/tenants/'],
    ['prod', '/tenants/99999999999999999999.json'],
  ] as const) {
    it(`rejects ${connection}${path}`, () => assert.equal(parseResourcePath(connection, path), undefined));
  }
});
