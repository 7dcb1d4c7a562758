import * as assert from 'node:assert/strict';
import { parseResourcePath, toResourcePath, toResourceUriString, type ResourceLocation } from '../../src/core/uri';

const layout: ReadonlyArray<[string, ResourceLocation]> = [
  ['/', { type: 'root', connection: 'prod' }],
  ['/tenants/', { type: 'tenants', connection: 'prod' }],
  ['/tenants/12.json', { type: 'tenant', connection: 'prod', tenantId: 12 }],
  ['/tenants/12/', { type: 'tenantFolder', connection: 'prod', tenantId: 12 }],
  ['/tenants/12/ai_prompts/', { type: 'kindFolder', connection: 'prod', tenantId: 12, segment: 'ai_prompts' }],
  ['/tenants/12/datasources/7.json', { type: 'resource', connection: 'prod', tenantId: 12, segment: 'datasources', id: 7 }],
];

describe('convai URI codec', () => {
  for (const [path, location] of layout) {
    it(`round-trips ${path}`, () => {
      assert.equal(toResourcePath(location), path);
      assert.deepEqual(parseResourcePath('prod', path), location);
    });
  }

  it('reads folders without their trailing slash, as VS Code passes them', () => {
    assert.deepEqual(parseResourcePath('prod', '/tenants/12/intents'), { type: 'kindFolder', connection: 'prod', tenantId: 12, segment: 'intents' });
    assert.deepEqual(parseResourcePath('prod', '/tenants'), { type: 'tenants', connection: 'prod' });
  });

  it('builds the whole URI with the connection as authority', () => {
    assert.equal(toResourceUriString({ type: 'resource', connection: 'local', tenantId: 1, segment: 'agents', id: 3 }), 'convai://local/tenants/1/agents/3.json');
  });

  for (const [connection, path] of [
    ['prod', '/tenants/12/tenants/'],
    ['prod', '/tenants/x/'],
    ['prod', '/tenants/12/ai_prompts/3'],
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
